/** Who made a change (spec: saved records show `created_by` / `updated_by` as `{id, name}` of the key's member). */
import type { Caller } from './auth.js';

import type { Actor } from '../domain/decider/actor.js';

export type { Actor };

/** The member the caller's API key acts for. */
export function actorOf(caller: Caller): Actor {
  return { id: caller.memberId, name: caller.org.members[caller.memberId]?.name ?? caller.memberId };
}
