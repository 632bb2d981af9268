/**
 * The webhook endpoint aggregate (stream `webhook-endpoint-<whe_…>`, our
 * extension): an organization's HTTPS or HTTP URL that receives signed job events.
 *
 * Stored events (the log is forever, never change their names or shapes):
 * `WebhookEndpointRegistered {endpointId, orgId, url, events, secret, createdAt, createdBy}`,
 * `WebhookEndpointDisabled {endpointId, orgId, reason, disabledAt, disabledBy}` (nothing more is
 * sent to it; it stays listed, with the reason, until deleted) and
 * `WebhookEndpointDeleted {endpointId, orgId, deletedAt, deletedBy}`. The signing `secret`
 * (`whsec_…`) is kept in the event: the dispatcher signs with it; the API shows it only once.
 *
 * Roles: an endpoint sends job data (with signed plan links) to an outside address, so when the
 * member who created it is removed from the organization it is disabled (`creator_removed`) in
 * the same flow as the removal (application/members.ts), and again by the dispatcher when it reads the
 * MemberRemoved event (domain/webhook/dispatch.ts), so a crash in between leaves nothing live.
 */
import type { Actor } from '../decider/actor.js';
import type { Command, Decider, DomainEvent } from '../decider/decider.js';
import { DomainError } from '../errors.js';
import type { WebhookEventKind } from './event-kinds.js';

export type WebhookEndpointEvent =
  | DomainEvent<
      'WebhookEndpointRegistered',
      {
        endpointId: string;
        orgId: string;
        url: string;
        events: WebhookEventKind[];
        secret: string;
        createdAt: string;
        createdBy: Actor;
      }
    >
  | DomainEvent<
      'WebhookEndpointDisabled',
      {
        endpointId: string;
        orgId: string;
        reason: WebhookEndpointDisabledReason;
        disabledAt: string;
        disabledBy: Actor;
      }
    >
  | DomainEvent<'WebhookEndpointDeleted', { endpointId: string; orgId: string; deletedAt: string; deletedBy: Actor }>;

/** Why an endpoint was disabled: `creator_removed`, the member who created it left the organization. */
export type WebhookEndpointDisabledReason = 'creator_removed';

export interface WebhookEndpointState {
  /** `disabled`: nothing is sent to it any more (see WebhookEndpointDisabled); it can still be deleted. */
  status: 'none' | 'active' | 'disabled' | 'deleted';
  endpointId: string;
  orgId: string;
  url: string;
  events: WebhookEventKind[];
  /** The signing secret (`whsec_…`). */
  secret: string;
  createdAt: string;
  /** The member (or service actor) who registered it. */
  createdBy: Actor;
}

export const initialWebhookEndpoint = (): WebhookEndpointState => ({
  status: 'none',
  endpointId: '',
  orgId: '',
  url: '',
  events: [],
  secret: '',
  createdAt: '',
  createdBy: { id: '', name: '' },
});

export function evolveWebhookEndpoint(state: WebhookEndpointState, event: WebhookEndpointEvent): WebhookEndpointState {
  switch (event.type) {
    case 'WebhookEndpointRegistered': {
      const { endpointId, orgId, url, events, secret, createdAt, createdBy } = event.data;
      return { status: 'active', endpointId, orgId, url, events, secret, createdAt, createdBy };
    }
    case 'WebhookEndpointDisabled':
      return { ...state, status: 'disabled' };
    case 'WebhookEndpointDeleted':
      return { ...state, status: 'deleted' };
  }
}

/** When and by whom (the member the API key acts for). */
export interface WebhookEndpointMetadata {
  now: string;
  actor: Actor;
}

/**
 * Register: the URL and its target were checked by the caller (api/http/routes/webhook-endpoints.ts:
 * scheme, DNS, private ranges); the id and secret come in. Disable: the organization's active
 * endpoint (idempotent). Delete: the organization's active or disabled endpoint.
 */
export type WebhookEndpointCommand =
  | Command<
      'RegisterWebhookEndpoint',
      { endpointId: string; orgId: string; url: string; events: WebhookEventKind[]; secret: string },
      WebhookEndpointMetadata
    >
  | Command<
      'DisableWebhookEndpoint',
      { endpointId: string; orgId: string; reason: WebhookEndpointDisabledReason },
      WebhookEndpointMetadata
    >
  | Command<'DeleteWebhookEndpoint', { endpointId: string; orgId: string }, WebhookEndpointMetadata>;

/**
 * The endpoint decider. Register: `conflict` when the id exists. Disable: nothing unless the
 * endpoint is the organization's and active (a second disable, or one after a deletion, records
 * nothing). Delete: `not_found` unless the endpoint is the caller's organization's and not
 * deleted (another organization's ids look absent).
 */
export const webhookEndpointDecider: Decider<WebhookEndpointState, WebhookEndpointCommand, WebhookEndpointEvent> = {
  initialState: initialWebhookEndpoint,
  evolve: evolveWebhookEndpoint,
  decide(command, state) {
    const { now, actor } = command.metadata;
    const { endpointId, orgId } = command.data;
    switch (command.type) {
      case 'RegisterWebhookEndpoint': {
        if (state.status !== 'none') throw new DomainError('conflict', `webhook endpoint ${endpointId} exists already`);
        const { url, events, secret } = command.data;
        return [
          {
            type: 'WebhookEndpointRegistered',
            data: { endpointId, orgId, url, events, secret, createdAt: now, createdBy: actor },
          },
        ];
      }
      case 'DisableWebhookEndpoint':
        if (state.status !== 'active' || state.orgId !== orgId) return [];
        return [
          {
            type: 'WebhookEndpointDisabled',
            data: { endpointId, orgId, reason: command.data.reason, disabledAt: now, disabledBy: actor },
          },
        ];
      case 'DeleteWebhookEndpoint':
        if ((state.status !== 'active' && state.status !== 'disabled') || state.orgId !== orgId)
          throw new DomainError('not_found', `no webhook endpoint ${endpointId}`);
        return [{ type: 'WebhookEndpointDeleted', data: { endpointId, orgId, deletedAt: now, deletedBy: actor } }];
    }
  },
};
