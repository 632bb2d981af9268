/**
 * The webhook dispatcher (STYLE 6: publish from the log): follows the stored
 * event log and, for every job settled on a ledger (`JobSettled`), schedules one delivery per
 * live endpoint of the organization subscribed to the event's kind. Deliveries are aggregates
 * with derived ids (domain/webhook/delivery.ts), so the outbox is the log itself: nothing is
 * scheduled for an event that was not stored, and re-reading events after a crash schedules
 * nothing twice.
 *
 * It also finishes a member's removal (roles): on `MemberRemoved` it has the endpoints that member
 * created disabled (`disableEndpointsOf`, a command per endpoint, idempotent). The removal does
 * this itself in the same request; the dispatcher's turn makes it crash-safe, since it handles
 * every event after its checkpoint again after a restart.
 *
 * Its checkpoint (the last log position it handled) is stored in the log too
 * (`WebhookDispatchCheckpointed {position}` on stream `webhook-dispatch`): after an event that
 * scheduled a delivery, and at least every CHECKPOINT_EVERY events. A start resumes there.
 *
 * Several schedulers: every scheduler process runs a dispatcher over the same log, and each
 * schedules the deliveries of every event. Both store the same thing: the delivery's id is
 * derived from the endpoint and the event (deliveryIdOf), its first event has a derived id and is
 * appended only to a stream that does not exist yet (expected revision `no_stream`), so of two
 * dispatchers one stores the delivery and the other stores nothing. They share the checkpoint
 * stream; a checkpoint is only stored above the last one, at the revision it was read at
 * (`checkpoint`), so one dispatcher behind the other never moves it back.
 *
 * A store outage stops nothing (DESIGN §2, distributed profile): the log is read through a
 * resuming subscription (domain/log/resuming-subscription.ts), and the checkpoint read at start
 * and each checkpoint (`checkpoint`) are tried again with backoff until they succeed.
 */
import { serviceActor } from '../decider/actor.js';
import { handleCommand } from '../decider/handle.js';
import { ledgerOrgId } from '../ledger/streams.js';
import { orgIdOfStream } from '../organization/streams.js';
import type { JobOutcome } from '../ledger/pricing.js';
import { ConcurrencyError, type EventStore, type RecordedEvent, type Subscription } from '../ports/event-store.js';
import { SILENT_OUTAGE_LOG, stepOutageLog, subscriptionOutageLog, type OutageLogger } from '../log/outage-log.js';
import { resumingSubscription, type ResubscribeBackoff } from '../log/resuming-subscription.js';
import { retryStep, StepStopped } from '../log/retry-step.js';
import { deliveryIdOf, webhookDeliveryDecider, webhookEventIdOf } from './delivery.js';
import { kindOfOutcome, type WebhookEventKind } from './event-kinds.js';
import { WEBHOOK_DISPATCH_STREAM, webhookDeliveryStream } from './streams.js';

/** Most events handled between two checkpoints when none scheduled a delivery. */
export const CHECKPOINT_EVERY = 1000;

/** Most rounds of `checkpoint` lost to another dispatcher's checkpoint before it gives up. */
export const CHECKPOINT_TRIES = 20;

/** The position a stored `WebhookDispatchCheckpointed` event holds (0 when it holds none). */
export function checkpointPosition(event: RecordedEvent): number {
  return (event.data as { position?: number } | undefined)?.position ?? 0;
}

/** Wait before handling an event again after a step failed (a read model behind, a store error), ms. */
export const DISPATCH_RETRY_MS = 1000;

export interface WebhookDispatchDeps {
  store: EventStore;
  /** RFC 3339 now. */
  clock: () => string;
  /**
   * The ids of the organization's endpoints subscribed to `kind` that were registered before log
   * position `position` and not deleted at it (read once the read models include `position`).
   */
  endpointsFor(orgId: string, kind: WebhookEventKind, position: number): Promise<string[]>;
  /** The job as GET /v1/jobs/{id} shows it, once the read models include `position`; undefined when unknown. */
  jobView(jobId: string, position: number): Promise<Record<string, unknown> | undefined>;
  /**
   * Disables the live endpoints of organization `orgId` created by member `memberId`, who was
   * removed at log position `position` (once the read models include it); resolves with how many
   * it disabled. Absent: removals are not followed.
   */
  disableEndpointsOf?(orgId: string, memberId: string, position: number): Promise<number>;
  /** Told after deliveries were scheduled (the delivery worker looks for due ones at once). */
  onScheduled?(): void;
  /**
   * Told of a failed step: with its event, which is handled again after DISPATCH_RETRY_MS; without
   * one, an unexpected error ended the dispatcher (a bug: store failures are ridden out).
   */
  onError?(err: unknown, event: RecordedEvent | undefined): void;
  /**
   * Where failures of the log itself (the subscription, the checkpoint read and appends, all
   * tried again) and their recovery are logged (domain/log/outage-log.ts); default: nowhere.
   */
  outageLog?: OutageLogger;
  /** Backoff of resubscriptions and checkpoint retries, ms (default 100 ms doubling to 5 s). */
  backoff?: ResubscribeBackoff;
}

/** How the dispatcher names itself in its outage log lines. */
const FOLLOWER = 'webhook dispatcher';

const SCHEDULER = serviceActor('scheduler');

export class WebhookDispatch {
  private subscription: Subscription<RecordedEvent> | undefined;
  private loop: Promise<void> | undefined;
  private stopped = false;
  private wakeStop: (() => void) | undefined;
  private readonly stopping = new AbortController();

  constructor(private readonly deps: WebhookDispatchDeps) {}

  /** Runs `work` until it succeeds (or the dispatcher stops: StepStopped), logging failures as `step`. */
  private retry<T>(step: string, work: () => Promise<T>): Promise<T> {
    return retryStep(work, {
      ...this.deps.backoff,
      ...stepOutageLog(this.deps.outageLog ?? SILENT_OUTAGE_LOG, FOLLOWER, step),
      signal: this.stopping.signal,
    });
  }

  /** Reads the checkpoint (waiting for the store while it fails) and starts following the log from it. */
  async start(): Promise<void> {
    const last = await this.retry('read the checkpoint', () => this.deps.store.readLastEvent(WEBHOOK_DISPATCH_STREAM));
    const from = (last?.data as { position?: number } | undefined)?.position ?? 0;
    this.subscription = resumingSubscription(this.deps.store, from, {
      ...this.deps.backoff,
      ...subscriptionOutageLog(this.deps.outageLog ?? SILENT_OUTAGE_LOG, FOLLOWER),
    });
    // Store failures are ridden out below; anything else ending the loop must not go unhandled.
    this.loop = this.run(this.subscription).catch((err: unknown) => {
      if (!this.stopped && !(err instanceof StepStopped)) this.deps.onError?.(err, undefined);
    });
  }

  private async run(subscription: Subscription<RecordedEvent>): Promise<void> {
    let sinceCheckpoint = 0;
    for await (const event of subscription) {
      let scheduled = 0;
      for (;;) {
        try {
          scheduled = await this.react(event);
          break;
        } catch (err) {
          if (this.stopped) return;
          this.deps.onError?.(err, event);
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, DISPATCH_RETRY_MS);
            this.wakeStop = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          if (this.stopped) return;
        }
      }
      sinceCheckpoint++;
      if (scheduled > 0 || sinceCheckpoint >= CHECKPOINT_EVERY) {
        await this.retry('store the checkpoint', () => this.checkpoint(event.position));
        sinceCheckpoint = 0;
      }
      if (scheduled > 0) this.deps.onScheduled?.();
    }
  }

  /**
   * Stores `position` as the dispatcher's checkpoint unless the stored one is there or past it
   * (another dispatcher went further): read the last checkpoint, append at its revision, and on a
   * ConcurrencyError (another dispatcher stored one meanwhile) read again; at most
   * CHECKPOINT_TRIES rounds, then the ConcurrencyError is thrown. Resolves with whether it stored.
   */
  async checkpoint(position: number): Promise<boolean> {
    const { store } = this.deps;
    for (let tries = 1; ; tries++) {
      const last = await store.readLastEvent(WEBHOOK_DISPATCH_STREAM);
      if (last && checkpointPosition(last) >= position) return false;
      try {
        const stored = await store.append(
          WEBHOOK_DISPATCH_STREAM,
          [{ id: `webhook-dispatch@${position}`, type: 'WebhookDispatchCheckpointed', data: { position } }],
          last ? last.revision : 'no_stream',
        );
        return stored.written;
      } catch (err) {
        if (!(err instanceof ConcurrencyError) || tries >= CHECKPOINT_TRIES) throw err;
      }
    }
  }

  /** Schedules the deliveries `event` causes (or disables a removed member's endpoints); resolves with how many events it stored. */
  async react(event: RecordedEvent): Promise<number> {
    const removedFrom = event.type === 'MemberRemoved' ? orgIdOfStream(event.stream) : undefined;
    if (removedFrom !== undefined) {
      const { userId } = event.data as { userId: string };
      return (await this.deps.disableEndpointsOf?.(removedFrom, userId, event.position)) ?? 0;
    }
    const orgId = ledgerOrgId(event.stream);
    if (orgId === undefined || event.type !== 'JobSettled') return 0;
    const { jobId, outcome } = event.data as { jobId: string; outcome: JobOutcome };
    const kind = kindOfOutcome(outcome);
    const endpoints = await this.deps.endpointsFor(orgId, kind, event.position);
    if (endpoints.length === 0) return 0;
    const job = await this.deps.jobView(jobId, event.position);
    if (!job) return 0;
    const eventId = webhookEventIdOf(event.id);
    const body = JSON.stringify({ id: eventId, type: kind, created_at: event.recordedAt, data: { job } });
    let stored = 0;
    for (const endpointId of endpoints) {
      const deliveryId = deliveryIdOf(endpointId, event.id);
      const done = await handleCommand(this.deps.store, webhookDeliveryStream(deliveryId), webhookDeliveryDecider, {
        type: 'ScheduleWebhookDelivery',
        data: { deliveryId, endpointId, orgId, eventId, type: kind, jobId, body, sourcePosition: event.position },
        metadata: { now: this.deps.clock(), actor: SCHEDULER },
      });
      stored += done.events.length;
    }
    return stored;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    this.subscription?.close();
    this.wakeStop?.();
    await this.loop;
  }
}
