/**
 * How far the read models are, and who waits for them: the position of the last event they
 * include, listeners told of each event once it is included, and bounded waits for a position.
 * Shared by the ProjectionRunner (which applies events itself) and the CheckpointFollower (which
 * watches another process apply them).
 */
import { EventEmitter } from 'node:events';
import type { RecordedEvent } from '../domain/ports/event-store.js';

export class AppliedPosition {
  private readonly emitter = new EventEmitter();
  private current = 0;

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** Last global log position the read models include. */
  get position(): number {
    return this.current;
  }

  /** Sets the position without an event (start-up, from a checkpoint). */
  startAt(position: number): void {
    this.current = position;
  }

  /** The read models now include `event`: moves the position and tells the listeners. */
  advance(event: RecordedEvent): void {
    this.current = event.position;
    this.emitter.emit('event', event);
  }

  /** Calls `listener` with every event once it is included; returns the unsubscribe. */
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
}
