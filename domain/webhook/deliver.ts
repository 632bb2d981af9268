/**
 * The webhook delivery worker: every `pollMs` (and at once when woken) it takes
 * the deliveries due now, POSTs each signed body to its endpoint and records the attempt as an
 * event (domain/webhook/delivery.ts), which also stores when the next attempt is due: the retry
 * schedule lives in the log, so a restart keeps it.
 *
 * The attempt claim: every scheduler process runs a worker, and two of them may find the same
 * attempt due (both dispatchers wake their worker when an event is scheduled, so they often look
 * within a few ms of each other). Before it POSTs, a worker stores `WebhookAttemptClaimed` on the
 * delivery's stream (one append at the revision it read, domain/webhook/delivery.ts); only the
 * worker whose claim was written sends, and no other claims that attempt until the claim's lease
 * (`leaseMs`) ends. The claim's event id names its claimant, so rival claims are different
 * events and the expected revision alone picks the one stored: an append refused by it is a
 * ConcurrencyError on every store. (With one event id for both, EventStoreDB answered the second
 * identical append at the same revision as written, and both workers POSTed.)
 * The lease is longer than any send: the worker cuts its own request short
 * ATTEMPT_RECORD_MARGIN_MS before the lease ends and records it as a failed attempt, leaving that
 * margin to store the attempt. A worker that dies between claim and record leaves the attempt
 * claimed until the lease ends; then another claims it again and sends.
 *
 * At-least-once: a crash after a receiver answered and before the attempt was stored sends the
 * same body (same event id, `Packing-Event-Id`) again once the lease has ended; receivers
 * de-duplicate by the event id. Each attempt number is stored at most once (derived event ids,
 * expected revision), and one worker never sends the same delivery twice at once.
 *
 * Every POST is told to `onAttempt` (the service logs one line for each, with the delivery id,
 * attempt, event id and claim take), also when its record was stored by another worker or the
 * worker stopped before storing it, so the log shows every request a receiver got.
 */
import { randomUUID } from 'node:crypto';
import { serviceActor } from '../decider/actor.js';
import { handleCommand, loadState } from '../decider/handle.js';
import type { EventStore } from '../ports/event-store.js';
import type { WebhookSender } from '../ports/webhook-sender.js';
import { webhookDeliveryDecider, type WebhookDeliveryCommand } from './delivery.js';
import { webhookEndpointDecider } from './endpoint.js';
import type { RetryPolicy } from './retry-policy.js';
import { webhookSignatureHeader } from './signature.js';
import { webhookDeliveryStream, webhookEndpointStream } from './streams.js';

/** Most deliveries sent at once per round. */
export const DELIVERIES_PER_ROUND = 20;

/**
 * The last part of an attempt lease, ms, during which the worker no longer sends but stores the
 * attempt: the store's round trips (with retries on conflicts) and the clock skew between
 * scheduler processes (the lease's end is written by one clock and read by another).
 */
export const ATTEMPT_RECORD_MARGIN_MS = 10_000;

/**
 * What the attempt lease adds to the sender's timeout, ms. The sender's timeout bounds neither the
 * DNS lookup and target check before the connection nor an answer trickling in slower than the
 * timeout (it measures inactivity), so the worker's own cut-off comes ATTEMPT_RECORD_MARGIN_MS
 * after the sender's timeout, and another ATTEMPT_RECORD_MARGIN_MS is left to store the attempt.
 */
export const ATTEMPT_LEASE_MARGIN_MS = 2 * ATTEMPT_RECORD_MARGIN_MS;

/**
 * The lease of an attempt claim for a sender that times out after `sendTimeoutMs`, ms: the
 * timeout plus ATTEMPT_LEASE_MARGIN_MS (30 s for the HTTP sender's 10 s). Longer costs only the
 * wait after a worker died holding a claim, the order of the first retry wait (30 s); shorter
 * would let another worker send while a slow send is still under way.
 */
export function attemptLeaseMs(sendTimeoutMs: number): number {
  return sendTimeoutMs + ATTEMPT_LEASE_MARGIN_MS;
}

export interface WebhookDeliveryDeps {
  store: EventStore;
  /** RFC 3339 now. */
  clock: () => string;
  sender: WebhookSender;
  policy: RetryPolicy;
  /**
   * How long an attempt claim holds, ms (attemptLeaseMs of the sender's timeout; more than
   * ATTEMPT_RECORD_MARGIN_MS). The lease's end is stored with the claim, so other workers honour
   * it whatever their own setting.
   */
  leaseMs: number;
  /** A new claimant id for each try of an attempt (default: a random UUID). */
  claimantId?: () => string;
  /** Time between two looks for due deliveries, ms. */
  pollMs: number;
  /** Ids of up to `limit` pending deliveries whose next attempt is due at `now` (a read model; may lag). */
  due(now: string, limit: number): Promise<string[]>;
  /** Told of each POST once its outcome is known (see WebhookPost). */
  onAttempt?(post: WebhookPost): void;
  onError?(err: unknown): void;
}

/** One POST of a delivery attempt, as the worker that sent it saw it (its log line). */
export interface WebhookPost {
  deliveryId: string;
  endpointId: string;
  /** `evt_…`, the `Packing-Event-Id` header. */
  eventId: string;
  /** 1-based, the `Packing-Delivery-Attempt` header. */
  attempt: number;
  /** Which claim of this attempt it was sent under (1; 2 or more after a lease ended unrecorded). */
  take: number;
  /** HTTP status of the answer, null when none came. */
  statusCode: number | null;
  error: string | null;
  /** From the claim to the answer (or its absence), ms. */
  ms: number;
  /**
   * Whether this worker stored the attempt's record: false when another worker had (a lease
   * that ended), the store failed, or the worker stopped before it could (the attempt is due
   * again after the lease).
   */
  recorded: boolean;
}

const SCHEDULER = serviceActor('scheduler');

/**
 * The delivery worker (see the top of this file): `start` its loop, `wake` it, `stop` it.
 * The constructor throws a RangeError when `leaseMs` is not more than ATTEMPT_RECORD_MARGIN_MS.
 */
export class WebhookDelivery {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private readonly inFlight = new Set<string>();
  /** Aborted by `stop`: requests under way end at once instead of waiting for their timeout. */
  private readonly stopping = new AbortController();

  private readonly newClaimantId: () => string;

  constructor(private readonly deps: WebhookDeliveryDeps) {
    if (!(deps.leaseMs > ATTEMPT_RECORD_MARGIN_MS))
      throw new RangeError(`leaseMs must exceed ${ATTEMPT_RECORD_MARGIN_MS} ms, got ${deps.leaseMs}`);
    this.newClaimantId = deps.claimantId ?? randomUUID;
  }

  start(): void {
    this.loop = this.run();
  }

  /** Look for due deliveries now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let full = false;
      try {
        const { due, handled } = await this.round();
        // Another round at once only after one that sent something: deliveries another worker
        // holds a claim on (for up to a lease) are looked at again at the next poll, not in a busy loop.
        full = due >= DELIVERIES_PER_ROUND && handled > 0;
      } catch (err) {
        this.deps.onError?.(err);
      }
      if (full || this.stopped) continue;
      if (this.woken) {
        this.woken = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.deps.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
      this.woken = false;
    }
  }

  /** Sends every delivery due now (up to DELIVERIES_PER_ROUND); resolves with how many were due. */
  async deliverDue(): Promise<number> {
    return (await this.round()).due;
  }

  /** One look: how many deliveries were listed due, and how many of them this worker sent or dropped. */
  private async round(): Promise<{ due: number; handled: number }> {
    const ids = (await this.deps.due(this.deps.clock(), DELIVERIES_PER_ROUND)).filter((id) => !this.inFlight.has(id));
    const handled = await Promise.all(ids.map((id) => this.deliverOne(id)));
    return { due: ids.length, handled: handled.filter(Boolean).length };
  }

  /** Sends (or drops) one delivery if it is due and this worker's claim on its next attempt is stored; resolves with whether it did. */
  private async deliverOne(deliveryId: string): Promise<boolean> {
    this.inFlight.add(deliveryId);
    try {
      const { store, clock } = this.deps;
      const stream = webhookDeliveryStream(deliveryId);
      const { state } = await loadState(store, stream, webhookDeliveryDecider);
      const scheduled = state.scheduled;
      if (state.status !== 'pending' || !scheduled || state.nextAttemptAt === null || state.nextAttemptAt > clock())
        return false;
      const run = (command: WebhookDeliveryCommand) => handleCommand(store, stream, webhookDeliveryDecider, command);
      const endpoint = (await loadState(store, webhookEndpointStream(scheduled.endpointId), webhookEndpointDecider))
        .state;
      if (endpoint.status !== 'active') {
        const reason = endpoint.status === 'disabled' ? 'endpoint_disabled' : 'endpoint_deleted';
        await run({
          type: 'DropWebhookDelivery',
          data: { deliveryId, reason },
          metadata: { now: clock(), actor: SCHEDULER },
        });
        return true;
      }
      const attempt = state.attempts + 1;
      const claimantId = this.newClaimantId();
      const claimedAt = clock();
      const leaseUntil = new Date(Date.parse(claimedAt) + this.deps.leaseMs).toISOString();
      // Started with the lease, before the claim is stored, so the claim's own latency does not eat into ATTEMPT_RECORD_MARGIN_MS.
      const cutOffMs = this.deps.leaseMs - ATTEMPT_RECORD_MARGIN_MS;
      const cutOff = AbortSignal.timeout(cutOffMs);
      const started = Date.now();
      const claimed = await run({
        type: 'ClaimWebhookAttempt',
        data: { deliveryId, attempt, claimantId, leaseUntil },
        metadata: { now: claimedAt, actor: SCHEDULER },
      });
      // Another worker holds this attempt (or recorded it already): it sends, not this one.
      const claim = claimed.state.claim;
      if (claimed.events.length === 0 || claim?.claimantId !== claimantId || claim.attempt !== attempt) return false;
      const unixSeconds = Math.floor(Date.parse(clock()) / 1000);
      let outcome = await this.deps.sender.send(
        {
          url: endpoint.url,
          body: scheduled.body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'packing-service-webhooks/1',
            'packing-signature': webhookSignatureHeader(endpoint.secret, unixSeconds, scheduled.body),
            'packing-event-id': scheduled.eventId,
            'packing-delivery-attempt': String(attempt),
          },
        },
        AbortSignal.any([this.stopping.signal, cutOff]),
      );
      const post = {
        deliveryId,
        endpointId: scheduled.endpointId,
        eventId: scheduled.eventId,
        attempt,
        take: claim.take,
      };
      // Cut short by our own stop, not refused by the receiver: not an attempt; it is due again once the lease ends.
      if (this.stopping.signal.aborted && outcome.statusCode === null) {
        this.deps.onAttempt?.({ ...post, ...outcome, ms: Date.now() - started, recorded: false });
        return true;
      }
      if (cutOff.aborted && outcome.statusCode === null)
        outcome = { statusCode: null, error: `no answer within ${cutOffMs} ms (the attempt's lease)` };
      const ms = Date.now() - started;
      let recorded = false;
      try {
        const done = await run({
          type: 'RecordWebhookAttempt',
          data: { deliveryId, attempt, outcome, policy: this.deps.policy },
          metadata: { now: clock(), actor: SCHEDULER },
        });
        recorded = done.events.length > 0;
      } finally {
        // Told also when the record failed (the error goes to onError): the POST was made either way.
        this.deps.onAttempt?.({ ...post, ...outcome, ms, recorded });
      }
      return true;
    } catch (err) {
      this.deps.onError?.(err);
      return false;
    } finally {
      this.inFlight.delete(deliveryId);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    this.wakeUp?.();
    await this.loop;
  }
}
