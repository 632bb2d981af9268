/** Who made a change (spec: saved records show `created_by` / `updated_by` as `{id, name}` of the key's member). */
import type { Caller } from './auth.js';

import type { Actor } from '../../../domain/decider/actor.js';
import type { JobCreator } from '../../../application/job-queueing.js';

export type { Actor };

/** The member the caller's API key (or web app session) acts for; a removed member's key keeps their name. */
export function actorOf(caller: Caller): Actor {
  const name = caller.org.members[caller.memberId]?.name ?? caller.org.formerMembers?.[caller.memberId]?.name;
  return { id: caller.memberId, name: name ?? caller.memberId };
}

/** The caller as the creator of a job (application/job-queueing.ts): its organization, key, member, actor and limits. */
export function jobCreatorOf(caller: Caller): JobCreator {
  return {
    orgId: caller.orgId,
    keyId: caller.keyId,
    memberId: caller.memberId,
    actor: actorOf(caller),
    limits: caller.org.limits,
  };
}
