/**
 * Follows read models written by a projector in another process (distributed profile, MongoDB):
 * reads the event log itself and announces each event once every projection's checkpoint in the
 * shared read store has reached it, so `?wait=` and read-your-writes work in API and scheduler
 * processes that project nothing themselves.
 */
import type { EventStore } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import { AppliedPosition } from './applied-position.js';
import type { ReadModelProgress } from './progress.js';

/** How often the shared checkpoints are read while an event waits for them, ms. */
const CHECKPOINT_POLL_MS = 50;

export class CheckpointFollower extends AppliedPosition implements ReadModelProgress {
  private stopped = false;
  private loop: Promise<void> | undefined;

  /** `projections`: names of the projections whose checkpoints must all reach an event. */
  constructor(
    store: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: readonly string[],
  ) {
    super(store);
  }

  private async sharedCheckpoint(): Promise<number> {
    return Math.min(...(await Promise.all(this.projections.map((p) => this.readStore.checkpoint(p)))));
  }

  async catchUp(): Promise<void> {
    const head = await this.store.headPosition();
    // The projector may be behind, or not started yet: wait for it, with a word in the log every
    // few seconds from the caller's side (it sees catchUp still pending).
    for (;;) {
      this.startAt(await this.sharedCheckpoint());
      if (this.position >= head || this.stopped) break;
      await new Promise((r) => setTimeout(r, CHECKPOINT_POLL_MS));
    }
    this.subscription = this.store.subscribeAll(this.position);
    const iterator = this.subscription[Symbol.asyncIterator]();
    this.loop = (async () => {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        const event = next.value;
        while (!this.stopped && (await this.sharedCheckpoint()) < event.position) await new Promise((r) => setTimeout(r, CHECKPOINT_POLL_MS));
        if (this.stopped) return;
        this.advance(event);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.subscription?.close();
    await this.loop;
  }
}
