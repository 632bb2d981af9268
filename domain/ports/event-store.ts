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

/**
 * Largest append every adapter accepts, bytes, as measured by {@link appendSize}: EventStoreDB's
 * default `MaxAppendSize` (1,048,576 bytes for the whole batch of one append, counted as data +
 * metadata bytes + 2 per character of the type) with 48,576 bytes to spare. The embedded store
 * refuses the same appends, so nothing it accepts is refused by the distributed profile. Bodies
 * that may be larger (job requests and results) are compressed and split: domain/job/body.ts.
 */
export const MAX_APPEND_BYTES = 1_000_000;

/**
 * Bytes of one event as EventStoreDB counts them, from its serialized parts: the UTF-8 bytes of
 * the JSON data and of the JSON metadata, the bytes the EventStoreDB adapter adds to the metadata
 * (`"eventId": id`, counted as the JSON object `{"eventId":…}`, a few bytes more than it adds), and
 * 2 per UTF-16 unit of the type.
 */
export function serializedEventSize(id: string, type: string, dataJson: string, metadataJson: string): number {
  return (
    Buffer.byteLength(dataJson) +
    Buffer.byteLength(metadataJson) +
    Buffer.byteLength(JSON.stringify({ eventId: id })) +
    2 * type.length
  );
}

/** {@link serializedEventSize} of `event`, serialized as the adapters store it (data `undefined` as null). */
export function eventSize(event: NewEvent): number {
  return serializedEventSize(
    event.id,
    event.type,
    JSON.stringify(event.data ?? null),
    JSON.stringify(event.metadata ?? {}),
  );
}

/** Bytes of an append: the sum of its events' {@link eventSize} (what MAX_APPEND_BYTES bounds). */
export function appendSize(events: readonly NewEvent[]): number {
  return events.reduce((sum, e) => sum + eventSize(e), 0);
}

/**
 * Thrown by every adapter's append, before anything is written, when the batch measures more than
 * MAX_APPEND_BYTES. `type` is the type of the batch's largest event, `bytes` the whole batch's
 * size, `limit` MAX_APPEND_BYTES. The API answers it with 413 payload_too_large (api/http/errors.ts).
 */
export class EventTooLargeError extends Error {
  constructor(
    readonly stream: string,
    readonly type: string,
    readonly bytes: number,
    readonly limit: number = MAX_APPEND_BYTES,
  ) {
    super(`append to ${stream}: ${bytes} bytes (largest event ${type}) exceed the limit of ${limit} bytes per append`);
    this.name = 'EventTooLargeError';
  }
}

/**
 * Throws EventTooLargeError when events whose sizes are `sizes` (same order as `events`) exceed
 * MAX_APPEND_BYTES together; adapters call it before writing.
 */
export function checkAppendSize(stream: string, events: readonly NewEvent[], sizes: readonly number[]): void {
  let total = 0;
  let largest = 0;
  sizes.forEach((size, i) => {
    total += size;
    if (size > sizes[largest]!) largest = i;
  });
  if (total > MAX_APPEND_BYTES) throw new EventTooLargeError(stream, events[largest]?.type ?? '', total);
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
  /**
   * Appends events atomically. Throws ConcurrencyError when `expected` does not hold, and
   * EventTooLargeError (writing nothing) when the batch measures more than MAX_APPEND_BYTES.
   */
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
