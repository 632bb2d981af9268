/**
 * Runs projections over one ordered subscription to the global log; checkpoints after each
 * write. `waitFor(position)` gives read-your-writes: a query waits (bounded) until the read
 * models include a command's events (DESIGN §3).
 */
import type { EventStore, RecordedEvent } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import type { Projection } from './projection.js';
import { AppliedPosition } from './applied-position.js';
import type { ReadModelProgress } from './progress.js';

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
    const iterator = this.subscription[Symbol.asyncIterator]();
    this.loop = (async () => {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) await this.apply(next.value);
    })();
    if (head > start) await this.waitFor(head, Number.POSITIVE_INFINITY);
  }

  private async apply(event: RecordedEvent): Promise<void> {
    for (const p of this.projections) {
      if (event.position <= (this.checkpoints.get(p.name) ?? 0)) continue;
      await p.apply(event, this.readStore);
      await this.readStore.setCheckpoint(p.name, event.position);
      this.checkpoints.set(p.name, event.position);
    }
    this.advance(event);
  }

  async stop(): Promise<void> {
    this.subscription?.close();
    await this.loop;
  }
}
