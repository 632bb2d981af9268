/**
 * Roles: what a removed member leaves behind that sends data out. Webhook endpoints send job
 * events (with signed plan and viewer links) to an outside address, so the live endpoints a
 * member created are disabled when they leave (WebhookEndpointDisabled `creator_removed`, one
 * command per endpoint): the owner's Webhooks page lists them as disabled, nothing more is sent.
 * Called by the removal itself (application/members.ts) and by the webhook dispatcher when it reads the
 * MemberRemoved event (domain/webhook/dispatch.ts), which finishes a removal a crash cut short.
 */
import type { Actor } from '../domain/decider/actor.js';
import { handleCommand } from '../domain/decider/handle.js';
import { webhookEndpointDecider } from '../domain/webhook/endpoint.js';
import { webhookEndpointStream } from '../domain/webhook/streams.js';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointDocument } from '../projections/webhooks/projection.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../projections/organizations/projection.js';
import type { UseCasePorts } from './ports.js';

/**
 * Disables every live endpoint of `orgId` created by `memberId` (as the read model shows them
 * now). Idempotent: an endpoint disabled or deleted already records nothing. Resolves with how
 * many were disabled and the log position of the last event written (0 when none).
 */
export async function disableWebhooksOfMember(
  ports: Pick<UseCasePorts, 'store' | 'reads' | 'clock'>,
  orgId: string,
  memberId: string,
  actor: Actor,
): Promise<{ disabled: number; position: number }> {
  const live = await ports.reads
    .collection<WebhookEndpointDocument>(WEBHOOK_ENDPOINTS)
    .find({ where: { orgId, deleted: false } });
  let disabled = 0;
  let position = 0;
  for (const endpoint of live) {
    if (endpoint.createdBy.id !== memberId || endpoint.disabledAt) continue;
    const done = await handleCommand(ports.store, webhookEndpointStream(endpoint.id), webhookEndpointDecider, {
      type: 'DisableWebhookEndpoint',
      data: { endpointId: endpoint.id, orgId, reason: 'creator_removed' },
      metadata: { now: ports.clock(), actor },
    });
    disabled += done.events.length;
    if (done.events.length > 0) position = done.position;
  }
  return { disabled, position };
}

/**
 * Disables the live endpoints of every organization's former members (OrganizationDocument
 * `formerMembers`): removals recorded before removals disabled endpoints, or an endpoint a lagging
 * process registered after the removal. Idempotent; resolves with how many were disabled.
 */
export async function disableWebhooksOfFormerMembers(
  ports: Pick<UseCasePorts, 'store' | 'reads' | 'clock'>,
  actor: Actor,
): Promise<number> {
  const orgs = await ports.reads.collection<OrganizationDocument>(ORGANIZATIONS).find({});
  let disabled = 0;
  for (const org of orgs) {
    for (const memberId of Object.keys(org.formerMembers ?? {})) {
      if (org.members[memberId]) continue; // invited again: their endpoints are theirs once more
      disabled += (await disableWebhooksOfMember(ports, org.id, memberId, actor)).disabled;
    }
  }
  return disabled;
}
