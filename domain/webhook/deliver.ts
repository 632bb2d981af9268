/**
 * The webhook delivery worker (issue 12 item 4): every `pollMs` (and at once when woken) it takes
 * the deliveries due now, POSTs each signed body to its endpoint and records the attempt as an
 * event (domain/webhook/delivery.ts), which also stores when the next attempt is due: the retry
 * schedule lives in the log, so a restart keeps it.
 *
 * At-least-once: a crash after a receiver answered and before the attempt was stored sends the
 * same body (same event id, `Packing-Event-Id`) again after the restart; receivers de-duplicate
 * by the event id. Each attempt number is stored at most once (derived event ids, expected
 * revision), and one worker never sends the same delivery twice at once.
 */
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

export interface WebhookDeliveryDeps {
  store: EventStore;
  /** RFC 3339 now. */
  clock: () => string;
  sender: WebhookSender;
  policy: RetryPolicy;
  /** Time between two looks for due deliveries, ms. */
  pollMs: number;
  /** Ids of up to `limit` pending deliveries whose next attempt is due at `now` (a read model; may lag). */
  due(now: string, limit: number): Promise<string[]>;
  /** Told of each attempt once it is stored. */
  onAttempt?(attempt: { deliveryId: string; attempt: number; statusCode: number | null; error: string | null }): void;
  onError?(err: unknown): void;
}

const SCHEDULER = serviceActor('scheduler');

export class WebhookDelivery {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private readonly inFlight = new Set<string>();
  /** Aborted by `stop`: requests under way end at once instead of waiting for their timeout. */
  private readonly stopping = new AbortController();

  constructor(private readonly deps: WebhookDeliveryDeps) {}

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
        full = (await this.deliverDue()) >= DELIVERIES_PER_ROUND;
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
    const ids = (await this.deps.due(this.deps.clock(), DELIVERIES_PER_ROUND)).filter((id) => !this.inFlight.has(id));
    await Promise.all(ids.map((id) => this.deliverOne(id)));
    return ids.length;
  }

  private async deliverOne(deliveryId: string): Promise<void> {
    this.inFlight.add(deliveryId);
    try {
      const { store, clock } = this.deps;
      const stream = webhookDeliveryStream(deliveryId);
      const { state } = await loadState(store, stream, webhookDeliveryDecider);
      const scheduled = state.scheduled;
      if (state.status !== 'pending' || !scheduled || state.nextAttemptAt === null || state.nextAttemptAt > clock()) return;
      const run = (command: WebhookDeliveryCommand) => handleCommand(store, stream, webhookDeliveryDecider, command);
      const endpoint = (await loadState(store, webhookEndpointStream(scheduled.endpointId), webhookEndpointDecider)).state;
      if (endpoint.status !== 'active') {
        await run({ type: 'DropWebhookDelivery', data: { deliveryId }, metadata: { now: clock(), actor: SCHEDULER } });
        return;
      }
      const attempt = state.attempts + 1;
      const unixSeconds = Math.floor(Date.parse(clock()) / 1000);
      const outcome = await this.deps.sender.send({
        url: endpoint.url,
        body: scheduled.body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'packing-service-webhooks/1',
          'packing-signature': webhookSignatureHeader(endpoint.secret, unixSeconds, scheduled.body),
          'packing-event-id': scheduled.eventId,
          'packing-delivery-attempt': String(attempt),
        },
      }, this.stopping.signal);
      // Cut short by our own stop, not refused by the receiver: not an attempt; it is due again at the next start.
      if (this.stopping.signal.aborted && outcome.statusCode === null) return;
      const done = await run({ type: 'RecordWebhookAttempt', data: { deliveryId, attempt, outcome, policy: this.deps.policy }, metadata: { now: clock(), actor: SCHEDULER } });
      if (done.events.length > 0) this.deps.onAttempt?.({ deliveryId, attempt, ...outcome });
    } catch (err) {
      this.deps.onError?.(err);
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
