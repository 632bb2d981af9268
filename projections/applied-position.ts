/**
 * How far the read models are, and who waits for them: the position of the last event they
 * include, listeners told of each event once it is included, bounded waits for a position, and
 * read-your-writes across processes (`sync`). The base of the ProjectionRunner (which applies
 * events itself) and of the CheckpointFollower (which watches another process apply them).
 */
import { EventEmitter } from 'node:events';
import type { EventStore, RecordedEvent, Subscription } from '../domain/ports/event-store.js';
import { SharedHeadRead } from './shared-head-read.js';

export abstract class AppliedPosition {
  private readonly emitter = new EventEmitter();
  private current = 0;
  private resumed = 0;
  /** The subscription feeding the read models; `sync` asks it to look for new events at once. */
  protected subscription: Subscription<RecordedEvent> | undefined;
  /** Head reads of `sync`, shared by concurrent callers (projections/shared-head-read.ts). */
  private readonly headRead: SharedHeadRead;

  protected constructor(protected readonly store: EventStore) {
    this.emitter.setMaxListeners(0);
    this.headRead = new SharedHeadRead(store);
  }

  /** Last global log position the read models include. */
  get position(): number {
    return this.current;
  }

  /**
   * Position the read models held when the catch-up began: their checkpoint in a persisted read
   * store, 0 when they were built from the whole log.
   */
  get resumedFrom(): number {
    return this.resumed;
  }

  /** Sets the position without an event (start-up, from a checkpoint). */
  protected startAt(position: number): void {
    this.current = position;
    this.resumed = position;
  }

  /** The read models now include `event`: moves the position and tells the listeners. */
  protected advance(event: RecordedEvent): void {
    this.current = event.position;
    this.emitter.emit('event', event);
  }

  /** Calls `listener` with every event once the read models include it; returns the unsubscribe. */
  onApplied(listener: (event: RecordedEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /** Resolves true once `position` is included, false after `timeoutMs` (ms; Infinity: no limit). */
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

  /**
   * Read-your-writes across processes: resolves true once the read models include every event
   * stored before the call (by any process), false after `timeoutMs` (ms). The head read is
   * shared with the calls made while another one runs (SharedHeadRead). Rejects with the
   * store's error when the head cannot be read.
   */
  async sync(timeoutMs: number): Promise<boolean> {
    const head = await this.headRead.read();
    if (this.current >= head) return true;
    this.subscription?.poll?.();
    return this.waitFor(head, timeoutMs);
  }
}
