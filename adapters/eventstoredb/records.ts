/**
 * Conversions between the port's events and EventStoreDB's: events to append, recorded events
 * read back, expected revisions and the driver's WrongExpectedVersionError. Pure functions.
 */
import {
  ANY,
  NO_STREAM,
  type ExpectedRevision as DriverExpectedRevision,
  type JSONEventData,
  type JSONType,
  type WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  ConcurrencyError,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
} from '../../domain/ports/event-store.js';
import { eventUuid, portStream } from './names.js';
import { toPortPosition } from './position.js';

/** Metadata key holding our event id (EventStoreDB's own id is the derived UUID). */
export const EVENT_ID_KEY = 'eventId';

/**
 * What this adapter reads of an event from the driver (its RecordedEvent, structurally): stream
 * name on the server, UUID, 0-based revision, type, creation time, parsed JSON data and metadata,
 * and the `$all` position (on stream reads only from servers newer than 22.6).
 */
export interface StoredEvent {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  created: Date;
  data: unknown;
  metadata?: unknown;
  position?: { commit: bigint; prepare: bigint };
}

/**
 * The JSON event EventStoreDB stores for `event` in store namespace `namespace`: id = the UUID
 * derived from our id, or `serverId` when given (appends at an expected revision, see the
 * adapter's notes on racing appends); our id is kept in metadata under `eventId`. Throws an Error
 * when the event's own metadata already uses that key.
 */
export function toProposedEvent(namespace: string, event: NewEvent, serverId?: string): JSONEventData {
  if (event.metadata && EVENT_ID_KEY in event.metadata) {
    throw new Error(`event ${event.id}: metadata key ${EVENT_ID_KEY} is reserved by the EventStoreDB adapter`);
  }
  return {
    id: serverId ?? eventUuid(namespace, event.id),
    contentType: 'application/json',
    type: event.type,
    // JSON.stringify(undefined) is not JSON; null is.
    data: (event.data ?? null) as JSONType,
    metadata: { ...event.metadata, [EVENT_ID_KEY]: event.id },
  };
}

/**
 * The port's view of a stored event, or undefined when it is not one of ours: outside the
 * namespace, in a system stream, or of a system type (`$…`: tombstones, metadata, links).
 * The id is the `eventId` of its metadata (else the UUID, for events written by others).
 * Throws an Error when the event carries no `$all` position (EventStoreDB 22.6 or older).
 */
export function toRecordedEvent(namespace: string, event: StoredEvent): RecordedEvent | undefined {
  const stream = portStream(namespace, event.streamId);
  if (stream === undefined || event.type.startsWith('$')) return undefined;
  if (!event.position)
    throw new Error(
      `event ${event.id} of ${event.streamId} has no $all position: EventStoreDB 22.10 or later is needed`,
    );
  let id = event.id;
  let metadata: Record<string, unknown> = {};
  if (
    event.metadata &&
    typeof event.metadata === 'object' &&
    !Array.isArray(event.metadata) &&
    !(event.metadata instanceof Uint8Array)
  ) {
    const { [EVENT_ID_KEY]: ours, ...rest } = event.metadata as Record<string, unknown>;
    if (typeof ours === 'string') id = ours;
    metadata = rest;
  }
  return {
    id,
    type: event.type,
    data: event.data,
    metadata,
    stream,
    revision: Number(event.revision),
    position: toPortPosition(event.position.commit),
    recordedAt: event.created.toISOString(),
  };
}

/**
 * The driver's expected revision for the port's: a revision number → that BigInt, `no_stream` →
 * NO_STREAM, `any` → ANY. Throws a RangeError for a number that is not a non-negative integer.
 */
export function toDriverExpected(expected: ExpectedRevision): DriverExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (!Number.isSafeInteger(expected) || expected < 0)
    throw new RangeError(`expected revision must be a non-negative integer, got ${expected}`);
  return BigInt(expected);
}

/** The port's ConcurrencyError for the driver's WrongExpectedVersionError on our stream `stream`. */
export function toConcurrencyError(
  stream: string,
  expected: ExpectedRevision,
  err: Pick<WrongExpectedVersionError, 'actualVersion'>,
): ConcurrencyError {
  const actual = typeof err.actualVersion === 'bigint' ? Number(err.actualVersion) : 'no_stream';
  return new ConcurrencyError(stream, expected, actual);
}

/**
 * Where a batch of `count` events whose first id is `firstId` was stored, found in `tail` (the
 * last events of the stream, newest first): the revision and position of its last event (of its
 * first when the stream ends before that), or undefined when `firstId` is not in `tail`.
 */
export function findStoredBatch(
  tail: readonly RecordedEvent[],
  firstId: string,
  count: number,
): { revision: number; position: number } | undefined {
  const first = tail.find((e) => e.id === firstId);
  if (!first) return undefined;
  const last = tail.find((e) => e.revision === first.revision + count - 1) ?? first;
  return { revision: last.revision, position: last.position };
}
