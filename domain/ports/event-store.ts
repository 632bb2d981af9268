/**
 * Event store port (DESIGN §2): append with an expected stream revision, read a stream, read and
 * subscribe to the global log from a position. Appends are idempotent by event id: re-appending a
 * batch whose first event id is already stored is a no-op that returns the original position.
 * Adapters: adapters/sqlite (embedded), adapters/eventstoredb (distributed; how each rule maps onto
 * EventStoreDB is told at the top of adapters/eventstoredb/event-store.ts).
 */

/** An event to append. `id` is a unique id (deterministic where a retry must not duplicate). */
export interface NewEvent {
  id: string;
  type: string;
  data: unknown;
  metadata?: Record<string, unknown>;
}

/** A stored event. `revision` is 0-based within its stream; `position` is 1-based in the global log. */
export interface RecordedEvent<T = unknown> {
  id: string;
  type: string;
  data: T;
  metadata: Record<string, unknown>;
  stream: string;
  revision: number;
  position: number;
  /** RFC 3339 time the store recorded it. */
  recordedAt: string;
}

/**
 * Expected revision of a stream before an append: the revision of its last event,
 * `no_stream` (it must not exist), or `any`.
 */
export type ExpectedRevision = number | 'no_stream' | 'any';

export interface AppendResult {
  /** Revision of the last event of the stream after the append. */
  revision: number;
  /** Global position of the last appended (or already stored) event. */
  position: number;
  /** False when the append was a duplicate of an earlier one (same first event id). */
  written: boolean;
}

/** Thrown when the stream's revision is not the expected one. Callers reload and retry. */
export class ConcurrencyError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, found ${String(actual)}`);
    this.name = 'ConcurrencyError';
  }
}

/** A live subscription to the global log; iterate it, close it to stop. */
export interface Subscription<T> extends AsyncIterable<T> {
  close(): void;
  /**
   * Look for new events now rather than at the next poll (adapters that are told of appends by
   * the server may leave it out). Read-your-writes across processes uses it.
   */
  poll?(): void;
}

export interface EventStore {
  /** Appends events atomically. Throws ConcurrencyError when `expected` does not hold. */
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream from `fromRevision` (default 0), in order; [] when it does not exist. */
  readStream(stream: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /** The last event of a stream, or undefined when it does not exist. */
  readLastEvent(stream: string): Promise<RecordedEvent | undefined>;
  /** Up to `limit` events of the global log after position `after` (exclusive), in order. */
  readAll(after: number, limit: number): Promise<RecordedEvent[]>;
  /**
   * Position of the last stored event, 0 when empty. After deleteStream removed the newest
   * events it is the last one left; positions handed out later are still higher than every
   * earlier one.
   */
  headPosition(): Promise<number>;
  /**
   * Deletes a stream's events for good (retention: spec Job.expires_at); resolves with how many
   * were deleted (0 when it did not exist). Positions are never reused; the stream reads as not
   * existing afterwards. Only for streams no projection or decider needs again (job bodies).
   */
  deleteStream(stream: string): Promise<number>;
  /** Every event after `after` (exclusive), then each new one as it is stored, in log order. */
  subscribeAll(after: number): Subscription<RecordedEvent>;
  close(): Promise<void>;
}
