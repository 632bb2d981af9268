/**
 * Reads of the event log's head for read-your-writes across processes (DESIGN §3;
 * AppliedPosition.sync), shared by concurrent callers without weakening the guarantee. A caller
 * needs a head read that began after it asked: that read includes every event stored before the
 * call, by any process. So at most one read runs at a time; callers that ask while one is under
 * way (it began before them) share the next one, which begins as soon as it ends. Under N
 * concurrent requests that is about one head read per store round trip instead of N.
 */
import type { EventStore } from '../domain/ports/event-store.js';

export class SharedHeadRead {
  private running: Promise<number> | undefined;
  private queued: Promise<number> | undefined;

  constructor(private readonly store: Pick<EventStore, 'headPosition'>) {}

  /** The head as of a read that began at or after this call. Rejects with the store's error. */
  read(): Promise<number> {
    if (!this.running) return this.start();
    this.queued ??= this.running.then(
      () => this.startQueued(),
      () => this.startQueued(),
    );
    return this.queued;
  }

  private startQueued(): Promise<number> {
    this.queued = undefined;
    return this.running ?? this.start();
  }

  private start(): Promise<number> {
    const read = this.store.headPosition();
    this.running = read;
    const done = (): void => {
      if (this.running === read) this.running = undefined;
    };
    read.then(done, done);
    return read;
  }
}
