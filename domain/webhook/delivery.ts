/**
 * The webhook delivery aggregate (stream `webhook-delivery-<whd_…>`, issue 12 item 4): one
 * event sent to one endpoint, with every attempt. Its id and event ids are derived from the
 * endpoint and the stored event it announces, so scheduling it twice (a restart of the
 * dispatcher, two dispatchers) stores it once, and each attempt number is recorded at most once.
 *
 * Stored events (never change their names or shapes):
 * - `WebhookDeliveryScheduled {deliveryId, endpointId, orgId, eventId, type, jobId, body,
 *   sourcePosition, scheduledAt}`: `body` is the exact JSON text sent (and signed) every time.
 * - `WebhookDeliveryAttempted {deliveryId, endpointId, orgId, attempt, attemptedAt, statusCode,
 *   error, succeeded, nextAttemptAt}`: `nextAttemptAt` null after a failure means given up.
 * - `WebhookDeliveryDropped {deliveryId, endpointId, orgId, reason, droppedAt}`: the endpoint was
 *   deleted before the delivery succeeded.
 */
import { sha256Hex } from '../digest.js';
import type { Command, CommandMetadata, Decider, DomainEvent } from '../decider/decider.js';
import type { WebhookEventKind } from './event-kinds.js';
import { nextAttemptAt, type RetryPolicy } from './retry-policy.js';

export interface WebhookDeliveryScheduledData {
  deliveryId: string;
  endpointId: string;
  orgId: string;
  /** `evt_…`: the same for every endpoint receiving this event (receivers de-duplicate by it). */
  eventId: string;
  type: WebhookEventKind;
  jobId: string;
  /** The JSON text of `{id, type, created_at, data: {job}}`. */
  body: string;
  /** Global log position of the stored event announced. */
  sourcePosition: number;
  scheduledAt: string;
}

export interface WebhookDeliveryAttemptedData {
  deliveryId: string;
  endpointId: string;
  orgId: string;
  /** 1-based. */
  attempt: number;
  attemptedAt: string;
  /** HTTP status of the answer, null when none came (refused target, DNS, timeout, connection). */
  statusCode: number | null;
  /** Why it failed without an answer, null otherwise. */
  error: string | null;
  /** A 2xx answer. */
  succeeded: boolean;
  /** Next attempt (RFC 3339); null when it succeeded or was given up. */
  nextAttemptAt: string | null;
}

export type WebhookDeliveryEvent =
  | DomainEvent<'WebhookDeliveryScheduled', WebhookDeliveryScheduledData>
  | DomainEvent<'WebhookDeliveryAttempted', WebhookDeliveryAttemptedData>
  | DomainEvent<'WebhookDeliveryDropped', { deliveryId: string; endpointId: string; orgId: string; reason: 'endpoint_deleted'; droppedAt: string }>;

/** `pending` until an attempt succeeds (`succeeded`), the window ends (`failed`) or the endpoint goes (`dropped`). */
export type WebhookDeliveryStatus = 'none' | 'pending' | 'succeeded' | 'failed' | 'dropped';

export interface WebhookDeliveryState {
  status: WebhookDeliveryStatus;
  scheduled: WebhookDeliveryScheduledData | null;
  attempts: number;
  /** RFC 3339; the first attempt is due when scheduled. */
  nextAttemptAt: string | null;
}

export const initialWebhookDelivery = (): WebhookDeliveryState => ({ status: 'none', scheduled: null, attempts: 0, nextAttemptAt: null });

export function evolveWebhookDelivery(state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryScheduled':
      return { status: 'pending', scheduled: event.data, attempts: 0, nextAttemptAt: event.data.scheduledAt };
    case 'WebhookDeliveryAttempted': {
      const { attempt, succeeded, nextAttemptAt } = event.data;
      const status = succeeded ? 'succeeded' : nextAttemptAt === null ? 'failed' : 'pending';
      return { ...state, status, attempts: attempt, nextAttemptAt };
    }
    case 'WebhookDeliveryDropped':
      return { ...state, status: 'dropped', nextAttemptAt: null };
  }
}

/** The delivery of stored event `sourceEventId` to `endpointId`: `whd_` + 24 hex digits. */
export function deliveryIdOf(endpointId: string, sourceEventId: string): string {
  return `whd_${sha256Hex(`${endpointId}\u0000${sourceEventId}`).slice(0, 24)}`;
}

/** The webhook event id of stored event `sourceEventId`: `evt_` + 24 hex digits, the same for every endpoint. */
export function webhookEventIdOf(sourceEventId: string): string {
  return `evt_${sha256Hex(sourceEventId).slice(0, 24)}`;
}

/** The outcome of one attempt, as the sender saw it. */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
}

export type WebhookDeliveryCommand =
  | Command<'ScheduleWebhookDelivery', Omit<WebhookDeliveryScheduledData, 'scheduledAt'>, CommandMetadata>
  | Command<'RecordWebhookAttempt', { deliveryId: string; attempt: number; outcome: AttemptOutcome; policy: RetryPolicy }, CommandMetadata>
  | Command<'DropWebhookDelivery', { deliveryId: string }, CommandMetadata>;

const ok = (statusCode: number | null): boolean => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * The delivery decider; refuses nothing: a command that no longer applies records nothing.
 * Schedule: once (an existing delivery records nothing). Record attempt `n`: only when the
 * delivery is pending and `n` is the next number (another worker recorded it otherwise); a 2xx
 * succeeds, anything else schedules the next attempt by `policy` or gives up. Drop: only pending.
 */
export const webhookDeliveryDecider: Decider<WebhookDeliveryState, WebhookDeliveryCommand, WebhookDeliveryEvent> = {
  initialState: initialWebhookDelivery,
  evolve: evolveWebhookDelivery,
  decide(command, state) {
    const { now } = command.metadata;
    const { deliveryId } = command.data;
    switch (command.type) {
      case 'ScheduleWebhookDelivery':
        if (state.status !== 'none') return [];
        return [{ type: 'WebhookDeliveryScheduled', id: `${deliveryId}:scheduled`, data: { ...command.data, scheduledAt: now } }];
      case 'RecordWebhookAttempt': {
        const { attempt, outcome, policy } = command.data;
        const scheduled = state.scheduled;
        if (state.status !== 'pending' || !scheduled || attempt !== state.attempts + 1) return [];
        const succeeded = ok(outcome.statusCode);
        return [
          {
            type: 'WebhookDeliveryAttempted',
            id: `${deliveryId}:attempt:${attempt}`,
            data: {
              deliveryId,
              endpointId: scheduled.endpointId,
              orgId: scheduled.orgId,
              attempt,
              attemptedAt: now,
              statusCode: outcome.statusCode,
              error: outcome.error,
              succeeded,
              nextAttemptAt: succeeded ? null : nextAttemptAt(policy, scheduled.scheduledAt, attempt, now),
            },
          },
        ];
      }
      case 'DropWebhookDelivery': {
        const scheduled = state.scheduled;
        if (state.status !== 'pending' || !scheduled) return [];
        return [
          {
            type: 'WebhookDeliveryDropped',
            id: `${deliveryId}:dropped`,
            data: { deliveryId, endpointId: scheduled.endpointId, orgId: scheduled.orgId, reason: 'endpoint_deleted', droppedAt: now },
          },
        ];
      }
    }
  },
};
