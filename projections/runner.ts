/**
 * Runs projections over one ordered subscription to the global log. Events that are already
 * there (a catch-up, a burst) are applied in batches of up to MAX_BATCH: each batch's documents
 * and the projections' checkpoints are written in one `atomically` call of the read store when
 * it has one (SQLite: one transaction), so the stored checkpoints always match the stored
 * documents. `waitFor(position)` gives read-your-writes: a query waits (bounded) until the read
 * models include a command's events (DESIGN §3); listeners hear of events after their batch is
 * stored.
 */
import type { EventStore, RecordedEvent } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import type { Projection } from './projection.js';
import { AppliedPosition } from './applied-position.js';
import type { ReadModelProgress } from './progress.js';

/** Most events applied in one batch (one transaction of a SQLite read store). */
export const MAX_BATCH = 500;

const WAITING = Symbol('waiting');

/** Resolves after the macrotasks queued now: an iterator step not settled by then has to wait for I/O. */
const afterPendingWork = (): Promise<typeof WAITING> => new Promise((resolve) => setImmediate(resolve, WAITING));

export class ProjectionRunner extends AppliedPosition implements ReadModelProgress {
  private loop: Promise<void> | undefined;
  /** Each projection's checkpoint, read once at start and kept here (this runner writes them). */
  private readonly checkpoints = new Map<string, number>();

  constructor(
    store: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: Projection[],
  ) {
    super(store);
  }

  /** Replays the log up to its current head; resolves when the read models include it. */
  async catchUp(): Promise<void> {
    for (const p of this.projections) this.checkpoints.set(p.name, await this.readStore.checkpoint(p.name));
    const start = Math.min(...this.checkpoints.values());
    this.startAt(start);
    const head = await this.store.headPosition();
    this.subscription = this.store.subscribeAll(start);
    this.loop = this.run(this.subscription[Symbol.asyncIterator]());
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

  /** Applies `batch` to every projection not past it, then its checkpoints; all in one store call. */
  private async applyBatch(batch: RecordedEvent[]): Promise<void> {
    const write = async (): Promise<void> => {
      const moved = new Map<string, number>();
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
    await (this.readStore.atomically ? this.readStore.atomically(write) : write());
    for (const event of batch) this.advance(event);
  }

  async stop(): Promise<void> {
    this.subscription?.close();
    await this.loop;
  }
}
