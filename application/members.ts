/**
 * Removing a member (the owner's console): MemberRemoved on the organization (409 conflict for
 * the owner, 404 not_found for an unknown member), decided with ApiKeyRevoked for every live key
 * made for them and InvitationRevoked for their pending invitations (one append); then their
 * credential stops (the email is free again), every session of theirs ends (SessionEnded
 * member_removed) and every webhook endpoint they created is disabled (WebhookEndpointDisabled
 * creator_removed, application/member-webhooks.ts). API keys the owner made stay.
 *
 * Crash-safety: the MemberRemoved append is the removal. From it on, the member's sessions are
 * refused already (authentication looks the member up in the organization) and the credential's
 * password is refused at sign-in for the same reason; a crash before the endpoints are disabled is
 * finished by the webhook dispatcher, which disables them when it reads MemberRemoved (it resumes
 * from its checkpoint, before that event) and never sends to an endpoint whose creator was removed
 * in the meantime, since deliveries are scheduled in log order after that reaction.
 */
import type { Actor } from '../domain/decider/actor.js';
import { handleCommand } from '../domain/decider/handle.js';
import { credentialDecider } from '../domain/credential/credential.js';
import { credentialStream } from '../domain/credential/streams.js';
import { organizationDecider } from '../domain/organization/decide.js';
import { orgStream } from '../domain/organization/streams.js';
import { disableWebhooksOfMember } from './member-webhooks.js';
import type { UseCasePorts } from './ports.js';
import { endSessionsOfMember } from './sessions.js';

/** Removes member `userId` of `orgId`; resolves, with how many webhook endpoints were disabled, when the read models show it. */
export async function removeMember(
  ports: UseCasePorts,
  orgId: string,
  userId: string,
  actor: Actor,
): Promise<{ disabledWebhooks: number }> {
  const now = ports.clock();
  const removed = await handleCommand(ports.store, orgStream(orgId), organizationDecider, {
    type: 'RemoveMember',
    data: { userId },
    metadata: { now, actor },
  });
  const event = removed.events[0];
  if (event?.type === 'MemberRemoved' && event.data.email) {
    await handleCommand(ports.store, credentialStream(event.data.email), credentialDecider, {
      type: 'RevokeCredential',
      data: { userId, reason: 'member_removed' },
      metadata: { now, actor },
    });
  }
  await ports.projections.waitFor(removed.position);
  await endSessionsOfMember(ports, userId);
  const webhooks = await disableWebhooksOfMember(ports, orgId, userId, actor);
  await ports.projections.waitFor(webhooks.position);
  return { disabledWebhooks: webhooks.disabled };
}
