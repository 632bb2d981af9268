/**
 * The webhook endpoint aggregate (stream `webhook-endpoint-<whe_…>`, issue 12 item 4, our
 * extension): an organization's HTTPS or HTTP URL that receives signed job events.
 *
 * Stored events (the log is forever, never change their names or shapes):
 * `WebhookEndpointRegistered {endpointId, orgId, url, events, secret, createdAt, createdBy}` and
 * `WebhookEndpointDeleted {endpointId, orgId, deletedAt, deletedBy}`. The signing `secret`
 * (`whsec_…`) is kept in the event: the dispatcher signs with it; the API shows it only once.
 */
import type { Actor } from '../decider/actor.js';
import type { Command, Decider, DomainEvent } from '../decider/decider.js';
import { DomainError } from '../errors.js';
import type { WebhookEventKind } from './event-kinds.js';

export type WebhookEndpointEvent =
  | DomainEvent<
      'WebhookEndpointRegistered',
      { endpointId: string; orgId: string; url: string; events: WebhookEventKind[]; secret: string; createdAt: string; createdBy: Actor }
    >
  | DomainEvent<'WebhookEndpointDeleted', { endpointId: string; orgId: string; deletedAt: string; deletedBy: Actor }>;

export interface WebhookEndpointState {
  status: 'none' | 'active' | 'deleted';
  endpointId: string;
  orgId: string;
  url: string;
  events: WebhookEventKind[];
  /** The signing secret (`whsec_…`). */
  secret: string;
  createdAt: string;
}

export const initialWebhookEndpoint = (): WebhookEndpointState => ({ status: 'none', endpointId: '', orgId: '', url: '', events: [], secret: '', createdAt: '' });

export function evolveWebhookEndpoint(state: WebhookEndpointState, event: WebhookEndpointEvent): WebhookEndpointState {
  switch (event.type) {
    case 'WebhookEndpointRegistered': {
      const { endpointId, orgId, url, events, secret, createdAt } = event.data;
      return { status: 'active', endpointId, orgId, url, events, secret, createdAt };
    }
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
 * Register: the URL and its target were checked by the caller (api/routes/webhook-endpoints.ts:
 * scheme, DNS, private ranges); the id and secret come in. Delete: only the organization's live
 * endpoint.
 */
export type WebhookEndpointCommand =
  | Command<'RegisterWebhookEndpoint', { endpointId: string; orgId: string; url: string; events: WebhookEventKind[]; secret: string }, WebhookEndpointMetadata>
  | Command<'DeleteWebhookEndpoint', { endpointId: string; orgId: string }, WebhookEndpointMetadata>;

/**
 * The endpoint decider. Register: `conflict` when the id exists. Delete: `not_found` unless the
 * endpoint is the caller's organization's and not deleted (another organization's ids look absent).
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
        return [{ type: 'WebhookEndpointRegistered', data: { endpointId, orgId, url, events, secret, createdAt: now, createdBy: actor } }];
      }
      case 'DeleteWebhookEndpoint':
        if (state.status !== 'active' || state.orgId !== orgId) throw new DomainError('not_found', `no webhook endpoint ${endpointId}`);
        return [{ type: 'WebhookEndpointDeleted', data: { endpointId, orgId, deletedAt: now, deletedBy: actor } }];
    }
  },
};
