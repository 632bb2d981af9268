/**
 * Removing a member (issue 11, the owner's console): MemberRemoved on the organization (409
 * conflict for the owner, 404 not_found for an unknown member), then their credential stops
 * (the email is free again) and every session of theirs ends at once (SessionEnded
 * member_removed). API keys they created keep working until the owner revokes them (README).
 */
import type { Actor } from '../domain/decider/actor.js';
import { handleCommand } from '../domain/decider/handle.js';
import { credentialDecider } from '../domain/credential/credential.js';
import { credentialStream } from '../domain/credential/streams.js';
import { organizationDecider } from '../domain/organization/decide.js';
import { orgStream } from '../domain/organization/streams.js';
import type { Services } from './services.js';
import { endSessionsOfMember } from './web-session.js';

/** Removes member `userId` of `orgId`; resolves when the read models show it. */
export async function removeMember(services: Services, orgId: string, userId: string, actor: Actor): Promise<void> {
  const now = services.clock();
  const removed = await handleCommand(services.store, orgStream(orgId), organizationDecider, { type: 'RemoveMember', data: { userId }, metadata: { now, actor } });
  const event = removed.events[0];
  if (event?.type === 'MemberRemoved' && event.data.email) {
    await handleCommand(services.store, credentialStream(event.data.email), credentialDecider, {
      type: 'RevokeCredential',
      data: { userId, reason: 'member_removed' },
      metadata: { now, actor },
    });
  }
  await services.projections.waitFor(removed.position);
  await endSessionsOfMember(services, userId);
}
