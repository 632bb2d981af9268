/**
 * Follows read models written by a projector in another process (distributed profile, MongoDB):
 * reads the event log itself and announces each event once every projection's checkpoint in the
 * shared read store has reached it, so `?wait=` and read-your-writes work in API and scheduler
 * processes that project nothing themselves.
 */
import { EventEmitter } from 'node:events';
import type { EventStore, RecordedEvent, Subscription } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import type { ReadModelProgress } from './progress.js';

/** How often the shared checkpoints are read while an event waits for them, ms. */
const CHECKPOINT_POLL_MS = 50;

export class CheckpointFollower implements ReadModelProgress {
  private readonly applied = new EventEmitter();
  private current = 0;
  private stopped = false;
  private subscription: Subscription<RecordedEvent> | undefined;
  private loop: Promise<void> | undefined;

  /** `projections`: names of the projections whose checkpoints must all reach an event. */
  constructor(
    private readonly store: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: readonly string[],
  ) {
    this.applied.setMaxListeners(0);
  }

  get position(): number {
    return this.current;
  }

  private async sharedCheckpoint(): Promise<number> {
    return Math.min(...(await Promise.all(this.projections.map((p) => this.readStore.checkpoint(p)))));
  }

  async catchUp(): Promise<void> {
    const head = await this.store.headPosition();
    // The projector may be behind, or not started yet: wait for it, with a word in the log every
    // few seconds from the caller's side (it sees catchUp still pending).
    for (;;) {
      this.current = await this.sharedCheckpoint();
      if (this.current >= head || this.stopped) break;
      await new Promise((r) => setTimeout(r, CHECKPOINT_POLL_MS));
    }
    this.subscription = this.store.subscribeAll(this.current);
    const iterator = this.subscription[Symbol.asyncIterator]();
    this.loop = (async () => {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        const event = next.value;
        while (!this.stopped && (await this.sharedCheckpoint()) < event.position) await new Promise((r) => setTimeout(r, CHECKPOINT_POLL_MS));
        if (this.stopped) return;
        this.current = event.position;
        this.applied.emit('event', event);
      }
    })();
  }

  onApplied(listener: (event: RecordedEvent) => void): () => void {
    this.applied.on('event', listener);
    return () => this.applied.off('event', listener);
  }

  waitFor(position: number, timeoutMs = 5000): Promise<boolean> {
    if (this.current >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), timeoutMs);
      const off = this.onApplied(() => {
        if (this.current >= position) finish(true);
      });
      function finish(ok: boolean): void {
        clearTimeout(timer);
        off();
        resolve(ok);
      }
    });
  }

  async sync(timeoutMs: number): Promise<boolean> {
    const head = await this.store.headPosition();
    this.subscription?.poll?.();
    return this.waitFor(head, timeoutMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.subscription?.close();
    await this.loop;
  }
}
