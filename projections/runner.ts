/**
 * Runs projections over one ordered subscription to the global log. Events that are already
 * there (a catch-up, a burst) are applied in batches of up to MAX_BATCH: each batch's documents
 * and the projections' checkpoints are written in one `atomically` call of the read store when
 * it has one (SQLite: one transaction), so the stored checkpoints always match the stored
 * documents. `waitFor(position)` gives read-your-writes: a query waits (bounded) until the read
 * models include a command's events (DESIGN §3); listeners hear of events after their batch is
 * stored.
 *
 * A store outage stops nothing (DESIGN §2, distributed profile): the log is read through a
 * resuming subscription (domain/log/resuming-subscription.ts), and the checkpoint reads, the head
 * read at start and each batch's read-store write are tried again with backoff until they succeed
 * (domain/log/retry-step.ts), so no event is skipped and no checkpoint passes an unapplied event.
 */
import type { EventStore, RecordedEvent } from '../domain/ports/event-store.js';
import {
  SILENT_OUTAGE_LOG,
  stepOutageLog,
  subscriptionOutageLog,
  type OutageLogger,
} from '../domain/log/outage-log.js';
import { resumingSubscription, type ResubscribeBackoff } from '../domain/log/resuming-subscription.js';
import { retryStep, StepStopped } from '../domain/log/retry-step.js';
import type { FollowerOptions } from './follower-options.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import type { Projection } from './projection.js';
import { AppliedPosition } from './applied-position.js';
import type { ReadModelProgress } from './progress.js';

/** Most events applied in one batch (one transaction of a SQLite read store). */
export const MAX_BATCH = 500;

const WAITING = Symbol('waiting');

/** How the runner names itself in its outage log lines. */
const FOLLOWER = 'projection runner';

/** Resolves after the macrotasks queued now: an iterator step not settled by then has to wait for I/O. */
const afterPendingWork = (): Promise<typeof WAITING> => new Promise((resolve) => setImmediate(resolve, WAITING));

export class ProjectionRunner extends AppliedPosition implements ReadModelProgress {
  private loop: Promise<void> | undefined;
  /** Each projection's checkpoint, read once at start and kept here (this runner writes them). */
  private readonly checkpoints = new Map<string, number>();
  private readonly stopping = new AbortController();
  private readonly log: OutageLogger;
  private readonly backoff: ResubscribeBackoff;

  /** `options`: where store failures are logged, and the backoff of the retries (follower-options.ts). */
  constructor(
    store: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: Projection[],
    options: FollowerOptions = {},
  ) {
    super(store);
    this.log = options.log ?? SILENT_OUTAGE_LOG;
    this.backoff = options.backoff ?? {};
  }

  /** Runs `work` until it succeeds (or the runner stops: StepStopped), logging failures as `step`. */
  private retry<T>(step: string, work: () => Promise<T>): Promise<T> {
    return retryStep(work, {
      ...this.backoff,
      ...stepOutageLog(this.log, FOLLOWER, step),
      signal: this.stopping.signal,
    });
  }

  /**
   * Replays the log up to its current head; resolves when the read models include it. A store
   * that fails meanwhile is waited for (the reads are tried again with backoff).
   */
  async catchUp(): Promise<void> {
    for (const p of this.projections)
      this.checkpoints.set(p.name, await this.retry('read checkpoints', () => this.readStore.checkpoint(p.name)));
    const start = Math.min(...this.checkpoints.values());
    this.startAt(start);
    const head = await this.retry('read the head position', () => this.store.headPosition());
    this.subscription = resumingSubscription(this.store, start, {
      ...this.backoff,
      ...subscriptionOutageLog(this.log, FOLLOWER),
    });
    this.loop = this.run(this.subscription[Symbol.asyncIterator]()).catch((err: unknown) => {
      // Only a stop ends the loop; anything else would be a bug, and must not go unhandled.
      if (!(err instanceof StepStopped))
        this.log.warn({ follower: FOLLOWER, err }, 'projection runner stopped on an unexpected error');
    });
    if (head > start) await this.waitFor(head, Number.POSITIVE_INFINITY);
  }

  /** Takes the events in batches: those already available, up to MAX_BATCH, then applies them. */
  private async run(iterator: AsyncIterator<RecordedEvent>): Promise<void> {
    let pending = iterator.next();
    for (;;) {
      const first = await pending;
      if (first.done) return;
      const batch = [first.value];
      pending = iterator.next();
      // One timer per batch: events that arrive before it fires (already read, or appended in
      // the same turn) join the batch.
      const turn = afterPendingWork();
      while (batch.length < MAX_BATCH) {
        const next = await Promise.race([pending, turn]);
        if (next === WAITING || next.done) break;
        batch.push(next.value);
        pending = iterator.next();
      }
      await this.applyBatch(batch);
      // Let I/O and timers run between batches: a long catch-up must not hold the event loop
      // (start-up answers, timers) nor pile up callbacks that only run once it yields.
      await turn;
    }
  }

  /**
   * Applies `batch` to every projection not past it, then its checkpoints; all in one store call,
   * tried again until it succeeds. A read store without `atomically` keeps what an attempt
   * applied (each projection's progress through the batch), so a retry does not apply it twice.
   */
  private async applyBatch(batch: RecordedEvent[]): Promise<void> {
    const appliedBefore = new Map<string, number>();
    const write = async (): Promise<void> => {
      // Inside a transaction a failed attempt left nothing: start over from the checkpoints.
      const moved = this.readStore.atomically ? new Map<string, number>() : appliedBefore;
      for (const event of batch) {
        for (const p of this.projections) {
          if (event.position <= (moved.get(p.name) ?? this.checkpoints.get(p.name) ?? 0)) continue;
          await p.apply(event, this.readStore);
          moved.set(p.name, event.position);
        }
      }
      for (const [name, position] of moved) await this.readStore.setCheckpoint(name, position);
      for (const [name, position] of moved) this.checkpoints.set(name, position);
    };
    await this.retry('apply a batch to the read models', () =>
      this.readStore.atomically ? this.readStore.atomically(write) : write(),
    );
    for (const event of batch) this.advance(event);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.subscription?.close();
    await this.loop;
  }
}
