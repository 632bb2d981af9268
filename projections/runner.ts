/**
 * Runs projections over one ordered subscription to the global log; checkpoints after each
 * write. `waitFor(position)` gives read-your-writes: a query waits (bounded) until the read
 * models include a command's events (DESIGN §3).
 */
import { EventEmitter } from 'node:events';
import type { EventStore, RecordedEvent, Subscription } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import type { Projection } from './projection.js';
import type { ReadModelProgress } from './progress.js';

export class ProjectionRunner implements ReadModelProgress {
  private readonly applied = new EventEmitter();
  private current = 0;
  private subscription: Subscription<RecordedEvent> | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: Projection[],
  ) {
    this.applied.setMaxListeners(0);
  }

  /** Last global position applied to every read model. */
  get position(): number {
    return this.current;
  }

  /** Replays the log up to its current head; resolves when the read models include it. */
  async catchUp(): Promise<void> {
    const start = Math.min(...(await Promise.all(this.projections.map((p) => this.readStore.checkpoint(p.name)))));
    this.current = start;
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
      if (event.position <= (await this.readStore.checkpoint(p.name))) continue;
      await p.apply(event, this.readStore);
      await this.readStore.setCheckpoint(p.name, event.position);
    }
    this.current = event.position;
    this.applied.emit('event', event);
  }

  /** Calls `listener` with every event after it has been applied to the read models. */
  onApplied(listener: (event: RecordedEvent) => void): () => void {
    this.applied.on('event', listener);
    return () => this.applied.off('event', listener);
  }

  /** Resolves true once the read models include `position`, false after `timeoutMs`. */
  waitFor(position: number, timeoutMs = 5000): Promise<boolean> {
    if (this.current >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = Number.isFinite(timeoutMs) ? setTimeout(() => finish(false), timeoutMs) : undefined;
      const off = this.onApplied(() => {
        if (this.current >= position) finish(true);
      });
      function finish(ok: boolean): void {
        if (timer) clearTimeout(timer);
        off();
        resolve(ok);
      }
    });
  }

  async sync(timeoutMs: number): Promise<boolean> {
    const head = await this.store.headPosition();
    if (this.current >= head) return true;
    this.subscription?.poll?.();
    return this.waitFor(head, timeoutMs);
  }

  async stop(): Promise<void> {
    this.subscription?.close();
    await this.loop;
  }
}
