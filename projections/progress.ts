/**
 * How far the read models this process reads have come in the event log (DESIGN §3
 * read-your-writes). Two kinds: the ProjectionRunner, which writes the read models itself, and the
 * CheckpointFollower, which watches read models that a projector in another process writes.
 */
import type { RecordedEvent } from '../domain/ports/event-store.js';

export interface ReadModelProgress {
  /** Last global log position the read models include. */
  readonly position: number;
  /** Position the read models held when `catchUp` began (a persisted checkpoint; 0 = the whole log). */
  readonly resumedFrom: number;
  /** Resolves once the read models include the log's head as it was at the call. */
  catchUp(): Promise<void>;
  /** Resolves true once the read models include `position`, false after `timeoutMs` (ms). */
  waitFor(position: number, timeoutMs?: number): Promise<boolean>;
  /** Calls `listener` with every event once the read models include it; returns the unsubscribe. */
  onApplied(listener: (event: RecordedEvent) => void): () => void;
  /**
   * Read-your-writes across processes: resolves true once the read models include every event
   * stored before the call (by any process), false after `timeoutMs` (ms).
   */
  sync(timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}
