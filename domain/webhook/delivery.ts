/**
 * The webhook delivery aggregate (stream `webhook-delivery-<whd_…>`): one
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
 *   deleted (`endpoint_deleted`) or disabled (`endpoint_disabled`) before the delivery succeeded.
 * - `WebhookAttemptClaimed {deliveryId, endpointId, orgId, attempt, claimantId, claimedAt,
 *   leaseUntil}`: the attempt claim (lease) a worker stores before it POSTs, so that of several
 *   scheduler processes only one sends each attempt; the webhooks read model ignores it. Its
 *   event id names the claimant (claimEventId; ids stored before it did end at the take).
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

/**
 * Attempt `attempt` is being sent by `claimantId` until `leaseUntil` (the attempt claim): no other
 * worker sends it before the lease ends, and after it (the sender died between claim and record)
 * another may claim the same attempt again.
 */
export interface WebhookAttemptClaimedData {
  deliveryId: string;
  endpointId: string;
  orgId: string;
  /** 1-based: the attempt about to be sent. */
  attempt: number;
  /** Who sends it: an id the worker draws for this one try. */
  claimantId: string;
  /** RFC 3339. */
  claimedAt: string;
  /** RFC 3339 end of the lease. */
  leaseUntil: string;
}

export type WebhookDeliveryEvent =
  | DomainEvent<'WebhookDeliveryScheduled', WebhookDeliveryScheduledData>
  | DomainEvent<'WebhookDeliveryAttempted', WebhookDeliveryAttemptedData>
  | DomainEvent<
      'WebhookDeliveryDropped',
      { deliveryId: string; endpointId: string; orgId: string; reason: WebhookDropReason; droppedAt: string }
    >
  | DomainEvent<'WebhookAttemptClaimed', WebhookAttemptClaimedData>;

/** Why a pending delivery was dropped: its endpoint was deleted, or disabled (its creator left the organization). */
export type WebhookDropReason = 'endpoint_deleted' | 'endpoint_disabled';

/** `pending` until an attempt succeeds (`succeeded`), the window ends (`failed`) or the endpoint goes (`dropped`). */
export type WebhookDeliveryStatus = 'none' | 'pending' | 'succeeded' | 'failed' | 'dropped';

/** The latest claim on the next attempt; `take` counts the claims of that attempt (1 = first, 2 = claimed again after a lease ended). */
export interface WebhookAttemptClaim {
  attempt: number;
  claimantId: string;
  /** RFC 3339. */
  leaseUntil: string;
  take: number;
}

export interface WebhookDeliveryState {
  status: WebhookDeliveryStatus;
  scheduled: WebhookDeliveryScheduledData | null;
  attempts: number;
  /** RFC 3339; the first attempt is due when scheduled. */
  nextAttemptAt: string | null;
  /** The claim on attempt `attempts + 1`, null when none was made since the last recorded attempt. */
  claim: WebhookAttemptClaim | null;
}

export const initialWebhookDelivery = (): WebhookDeliveryState => ({
  status: 'none',
  scheduled: null,
  attempts: 0,
  nextAttemptAt: null,
  claim: null,
});

export function evolveWebhookDelivery(state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryScheduled':
      return {
        status: 'pending',
        scheduled: event.data,
        attempts: 0,
        nextAttemptAt: event.data.scheduledAt,
        claim: null,
      };
    case 'WebhookDeliveryAttempted': {
      const { attempt, succeeded, nextAttemptAt } = event.data;
      const status = succeeded ? 'succeeded' : nextAttemptAt === null ? 'failed' : 'pending';
      return { ...state, status, attempts: attempt, nextAttemptAt, claim: null };
    }
    case 'WebhookDeliveryDropped':
      return { ...state, status: 'dropped', nextAttemptAt: null, claim: null };
    case 'WebhookAttemptClaimed': {
      const { attempt, claimantId, leaseUntil } = event.data;
      const take = state.claim?.attempt === attempt ? state.claim.take + 1 : 1;
      return { ...state, claim: { attempt, claimantId, leaseUntil, take } };
    }
  }
}

/** The delivery of stored event `sourceEventId` to `endpointId`: `whd_` + 24 hex digits. */
export function deliveryIdOf(endpointId: string, sourceEventId: string): string {
  return `whd_${sha256Hex(`${endpointId}\u0000${sourceEventId}`).slice(0, 24)}`;
}

/**
 * The event id of claim number `take` of attempt `attempt` by `claimantId`: unique per claimant, so
 * of rival claims at one revision the store keeps one (see webhookDeliveryDecider).
 */
export function claimEventId(deliveryId: string, attempt: number, take: number, claimantId: string): string {
  return `${deliveryId}:claim:${attempt}:${take}:${claimantId}`;
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
  | Command<
      'RecordWebhookAttempt',
      { deliveryId: string; attempt: number; outcome: AttemptOutcome; policy: RetryPolicy },
      CommandMetadata
    >
  /** `reason` defaults to `endpoint_deleted`. */
  | Command<'DropWebhookDelivery', { deliveryId: string; reason?: WebhookDropReason }, CommandMetadata>
  | Command<
      'ClaimWebhookAttempt',
      { deliveryId: string; attempt: number; claimantId: string; leaseUntil: string },
      CommandMetadata
    >;

const ok = (statusCode: number | null): boolean => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * The delivery decider; refuses nothing: a command that no longer applies records nothing.
 * Schedule: once (an existing delivery records nothing). Record attempt `n`: only when the
 * delivery is pending and `n` is the next number (another worker recorded it otherwise); a 2xx
 * succeeds, anything else schedules the next attempt by `policy` or gives up. Drop: only pending.
 * Claim attempt `n` (the attempt claim, before the POST): only when the delivery is pending, `n`
 * is the next number, it is due at `now`, and no claim on `n` whose lease runs past `now` stands
 * (whoever holds it, the claimant itself included: a standing claim is never renewed). The
 * event id names the attempt, the take and the claimant (`<deliveryId>:claim:<n>:<take>:<claimantId>`):
 * two workers deciding on the same state propose two different events at the same expected
 * revision, and the store keeps one and refuses the other (ConcurrencyError), whatever its
 * idempotency can tell. With one id for both, a store may answer the second "already stored,
 * written" (EventStoreDB does for an identical append at the same expected revision), and both
 * workers would send. A claim made again after a lease ended is a new event (the next take).
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
        return [
          {
            type: 'WebhookDeliveryScheduled',
            id: `${deliveryId}:scheduled`,
            data: { ...command.data, scheduledAt: now },
          },
        ];
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
      case 'ClaimWebhookAttempt': {
        const { attempt, claimantId, leaseUntil } = command.data;
        const scheduled = state.scheduled;
        if (state.status !== 'pending' || !scheduled || attempt !== state.attempts + 1) return [];
        if (state.nextAttemptAt === null || Date.parse(state.nextAttemptAt) > Date.parse(now)) return [];
        const held = state.claim?.attempt === attempt ? state.claim : null;
        if (held && Date.parse(held.leaseUntil) > Date.parse(now)) return [];
        const take = (held?.take ?? 0) + 1;
        return [
          {
            type: 'WebhookAttemptClaimed',
            id: claimEventId(deliveryId, attempt, take, claimantId),
            data: {
              deliveryId,
              endpointId: scheduled.endpointId,
              orgId: scheduled.orgId,
              attempt,
              claimantId,
              claimedAt: now,
              leaseUntil,
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
            data: {
              deliveryId,
              endpointId: scheduled.endpointId,
              orgId: scheduled.orgId,
              reason: 'endpoint_deleted',
              droppedAt: now,
            },
          },
        ];
      }
    }
  },
};
