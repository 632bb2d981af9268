/**
 * EventStoreDB event store (DESIGN §2, distributed profile) on `@eventstore/db-client` 6.2
 * (gRPC; EventStoreDB 22.10 or later, for positions on stream reads). Streams keep their names
 * behind an optional namespace prefix; the global log is `$all` restricted to that namespace.
 *
 * How the port's semantics map onto the server:
 * - Positions are `$all` commit positions (position.ts says why a Number is exact). Forward reads
 *   of `$all` include the event at their start position and catch-up subscriptions start after
 *   it, so readers ask for the event at `after` (or the one before it) and skip up to `after`.
 * - `$all` filtering: subscriptions filter on the server (stream-name prefix = namespace, or "no
 *   system event types" for the empty namespace). Driver 6.2's readAll has no filter option (it
 *   came with the later @kurrent client), so readAll and headPosition read `$all` pages and keep
 *   our events on the client: on a server shared with much other data they scan it all.
 * - Idempotent appends, by event id: our ids become deterministic UUIDs (names.ts) and stay in the
 *   metadata. EventStoreDB itself only recognises a repeat sent with the same expected revision,
 *   and then answers plain success, so it cannot tell us `written: false`; with a later expected
 *   revision (a retry after reload, or `any` once its id cache has moved on) it would store the
 *   events twice. So every append first reads the last `idempotencyWindow` events of the stream
 *   (default 32) and answers `written: false` with the stored batch's position when the first
 *   event id is among them, and looks again on WrongExpectedVersion. Cost: one extra read per
 *   append (of up to 32 events; 2 for a job body). Limit: an original further back than the
 *   window is not seen (with the current revision as expected it is stored again).
 * - Racing appends of one batch: two processes appending the same events (same ids) at the same
 *   expected revision must not both hear `written: true`, since callers take "written" as "this
 *   process won" (a compute slot, an Idempotency-Key claim, a webhook attempt claim). The
 *   server would answer both with success, as a repeat of the same ids at that revision. So an
 *   append at an expected revision (or `no_stream`) sends fresh random UUIDs as server event ids:
 *   the second append then fails WrongExpectedVersion, finds the first's batch by our id in the
 *   metadata, and answers `written: false`. Appends with `any` keep the derived UUIDs, so the
 *   server's own id check still drops a repeat that raced past the tail read.
 * - Size: the server refuses an append whose events measure more than its MaxAppendSize
 *   (default 1,048,576 bytes; data + metadata + 2 per character of the type, summed over the
 *   batch, so splitting a body over the events of ONE append does not help). append measures the
 *   batch the port's way (domain/ports/event-store.ts MAX_APPEND_BYTES, below that default) and
 *   throws EventTooLargeError before sending, exactly where the embedded store throws it.
 * - deleteStream tombstones (hard delete) rather than soft-deletes. A job body is never written
 *   again after retention deleted it, and a tombstone makes sure of that: a late append fails
 *   instead of bringing a deleted body back (a soft-deleted stream is recreated by any append,
 *   from its old revision onwards), and reads answer "deleted" unambiguously.
 * - What `$all` readers see after a delete: EventStoreDB keeps the deleted events in `$all` until
 *   a scavenge removes them (the tombstone, type `$streamDeleted`, stays for good), and delivers
 *   them to subscriptions and `$all` reads like any other. This adapter drops them: before it
 *   hands out an event of a stream that may be deleted (`deletableStreams`) it reads the stream's
 *   metadata (one small read per stream per readAll page, one per event in a subscription;
 *   tombstoned streams are remembered): the metadata stream of a tombstoned stream reads as
 *   deleted, and a truncation or soft delete by someone else is its `$tb` (truncate before). Only
 *   a stream given `$maxAge` or `$maxCount` by someone else is checked by reading its lowest
 *   revision instead. The event itself, often a whole job body, is never read again for the
 *   check. No projection uses job body events
 *   (projections/ names none of `jobbody-`, RequestStored, ResultStored or their PartStored; the API, the process
 *   manager and the solver read bodies with readStream on demand; the same holds for the plan
 *   revisions, `jobrevision-` and PlanRevised), and only those two kinds of stream are ever
 *   deleted, so `deletableStreams: ['jobbody-', 'jobrevision-']` saves those reads for every other stream.
 */
import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  ErrorType,
  FORWARDS,
  START,
  excludeSystemEvents,
  isCommandError,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type Filter,
  type ReadPosition,
  type MaxAppendSizeExceededError,
  type ReadStreamOptions,
  type StreamMetadata,
  type WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  checkAppendSize,
  eventSize,
  EventTooLargeError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
} from '../../domain/ports/event-store.js';
import { checkNamespace, serverStream } from './names.js';
import { readStart, toPortPosition } from './position.js';
import {
  findStoredBatch,
  toConcurrencyError,
  toDriverExpected,
  toProposedEvent,
  toRecordedEvent,
  type StoredEvent,
} from './records.js';

/** Thrown by a subscription whose server call ended without an error while it was not closed. */
export class SubscriptionEnded extends Error {
  constructor() {
    super('the EventStoreDB subscription ended without being closed (the server ended the call)');
    this.name = 'SubscriptionEnded';
  }
}

/** Options of {@link EventStoreDbEventStore}. */
export interface EventStoreDbOptions {
  /**
   * Prefix of every stream name on the server, stripped on read; `$all` readers see only streams
   * with it. Default '' (the whole server is ours: every non-system event). Must not start with `$`.
   */
  namespace?: string;
  /**
   * Prefixes (of our stream names, without the namespace) of the streams deleteStream may delete;
   * `$all` readers check only these streams' events for deletion. Default `['']`: every stream.
   * The service deletes job bodies and plan revisions only, so `['jobbody-', 'jobrevision-']` is the economical setting.
   */
  deletableStreams?: readonly string[];
  /** How many events from the end of a stream an append searches for a repeated batch. Default 32. */
  idempotencyWindow?: number;
  /**
   * connect() only: the namespace is new, no event of it exists yet. `$all` reads, head searches
   * and subscriptions then start at the current end of `$all` rather than its beginning (tests on
   * a shared server: a fresh random namespace per test).
   */
  freshNamespace?: boolean;
}

/** Events per page of a forward `$all` read (at least). */
const MIN_PAGE = 64;
/** Events per page of a forward `$all` read (at most). */
const MAX_PAGE = 1024;
/**
 * First and largest page of the backward `$all` search for the head; pages grow 4× between. The
 * last event of `$all` is usually ours, so the first page holds one event (every event is read
 * whole, and it may be a job body).
 */
const HEAD_FIRST_PAGE = 1;
const HEAD_MAX_PAGE = 1024;
/** Deletion checks run at once (one small stream read each). */
const CHECK_CONCURRENCY = 16;
/** Streams whose deletion is remembered (oldest forgotten first; forgetting only costs a read). */
const DELETED_MEMORY = 10_000;
/** Tries of deleteStream when the stream grows between counting and tombstoning it. */
const DELETE_ATTEMPTS = 5;

const errorType = (err: unknown): ErrorType | undefined =>
  err instanceof Error && isCommandError(err) ? err.type : undefined;

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of read) out.push(item);
  return out;
}

async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A stream read's outcome: its events, or why there are none. */
type StreamRead = { state: 'ok'; events: StoredEvent[] } | { state: 'not_found' } | { state: 'deleted' };

export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly namespace: string;
  private readonly deletable: readonly string[];
  private readonly window: number;
  /** Our streams known deleted below a revision (Infinity: tombstoned). Deletion never undoes. */
  private readonly deletedBelow = new Map<string, number>();
  private readonly subscriptions = new Set<() => void>();
  /** Port position at or below which no event of the namespace lies (freshNamespace), else 0. */
  private floor = 0;
  private closed = false;

  /**
   * A store on the server at `url`, an EventStoreDB connection string (`esdb://host:2113?tls=false`;
   * with TLS, user credentials that may read `$all`). Connects lazily; {@link connect} checks the
   * server first. Throws an Error for a malformed URL or a namespace starting with `$`.
   */
  constructor(url: string, options: EventStoreDbOptions = {}) {
    this.namespace = checkNamespace(options.namespace ?? '');
    this.deletable = options.deletableStreams ?? [''];
    this.window = Math.max(1, options.idempotencyWindow ?? 32);
    this.client = EventStoreDBClient.connectionString(url);
  }

  /**
   * Connects to `url` and reads the end of `$all` (which also proves the server answers and may
   * be read); with `freshNamespace`, remembers it as where this namespace begins. Throws the
   * driver's error (e.g. UnavailableError, AccessDeniedError) after closing the client.
   */
  static async connect(url: string, options: EventStoreDbOptions = {}): Promise<EventStoreDbEventStore> {
    const store = new EventStoreDbEventStore(url, options);
    try {
      const [last] = await collect(store.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }));
      if (options.freshNamespace && last?.event) store.floor = toPortPosition(last.event.position.commit);
      return store;
    } catch (err) {
      await store.client.dispose();
      throw err;
    }
  }

  /**
   * Appends `events` atomically to `stream`, expecting revision `expected`; resolves with the
   * revision and `$all` position of the last event. A batch whose first id is among the stream's
   * last `idempotencyWindow` events is not written again: `written: false`, with that batch's
   * position. Throws ConcurrencyError (with the actual revision) when `expected` does not hold,
   * an Error when the stream was deleted (tombstoned: it cannot be written again), for an empty
   * batch, or the driver's errors. Throws EventTooLargeError before sending a batch larger than
   * MAX_APPEND_BYTES (the port's measure: what the server counts against its MaxAppendSize, our
   * `eventId` metadata included), and when a server configured with a smaller MaxAppendSize
   * refuses it (then with the server's limit).
   */
  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append: no events');
    const sizes = events.map(eventSize);
    checkAppendSize(stream, events, sizes);
    const name = serverStream(this.namespace, stream);
    // Fresh server ids at an expected revision: a racing repeat fails instead of hearing success (module notes).
    const racing = expected !== 'any';
    const proposed = events.map((e) => toProposedEvent(this.namespace, e, racing ? randomUUID() : undefined));
    const expectedRevision = toDriverExpected(expected);
    const first = events[0]!;
    const before = await this.findStored(stream, name, first.id, events.length);
    if (before) return { ...before, written: false };
    try {
      const result = await this.client.appendToStream(name, proposed, { expectedRevision });
      if (!result.position) throw new Error(`append to ${stream}: the server returned no $all position`);
      return {
        revision: Number(result.nextExpectedRevision),
        position: toPortPosition(result.position.commit),
        written: true,
      };
    } catch (err) {
      const type = errorType(err);
      if (type === ErrorType.WRONG_EXPECTED_VERSION) {
        // The events may have been stored meanwhile, by a concurrent run of the same step.
        const stored = await this.findStored(stream, name, first.id, events.length);
        if (stored) return { ...stored, written: false };
        throw toConcurrencyError(stream, expected, err as WrongExpectedVersionError);
      }
      if (type === ErrorType.STREAM_DELETED) throw this.deletedError(stream, err);
      if (type === ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED) {
        const largest = sizes.indexOf(Math.max(...sizes));
        const total = sizes.reduce((a, b) => a + b, 0);
        throw new EventTooLargeError(
          stream,
          events[largest]!.type,
          total,
          (err as MaxAppendSizeExceededError).maxAppendSize,
        );
      }
      throw err;
    }
  }

  /** Events of `stream` from `fromRevision` (default 0), in order; [] when it does not exist or was deleted. */
  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const from = BigInt(Math.max(0, Math.floor(fromRevision)));
    const read = await this.readServerStream(serverStream(this.namespace, stream), {
      fromRevision: from,
      direction: FORWARDS,
    });
    return read.state === 'ok' ? this.ours(read.events) : [];
  }

  /** The last event of `stream`, or undefined when it does not exist or was deleted. */
  async readLastEvent(stream: string): Promise<RecordedEvent | undefined> {
    const read = await this.readServerStream(serverStream(this.namespace, stream), {
      fromRevision: END,
      direction: BACKWARDS,
      maxCount: 1,
    });
    return read.state === 'ok' ? this.ours(read.events)[0] : undefined;
  }

  /**
   * Up to `limit` of our events after position `after` (exclusive), in log order, without events
   * of deleted streams. Reads `$all` forwards in pages from the event at `after` (the read
   * includes its start) and keeps the namespace's events on the client.
   */
  async readAll(after: number, limit: number): Promise<RecordedEvent[]> {
    if (limit <= 0) return [];
    let seen = Math.max(after, this.floor);
    let from: ReadPosition = readStart(seen);
    const pageSize = Math.min(Math.max(limit, MIN_PAGE), MAX_PAGE);
    const out: RecordedEvent[] = [];
    for (;;) {
      const page: AllStreamResolvedEvent[] = await collect(
        this.client.readAll({ fromPosition: from, maxCount: pageSize, direction: FORWARDS }),
      );
      const candidates: RecordedEvent[] = [];
      const start = seen;
      for (const { event } of page) {
        if (!event) continue;
        const position = toPortPosition(event.position.commit);
        if (position <= seen) continue;
        seen = position;
        from = event.position;
        const recorded = toRecordedEvent(this.namespace, event);
        if (recorded) candidates.push(recorded);
      }
      for (const e of await this.withoutDeleted(candidates)) {
        out.push(e);
        if (out.length === limit) return out;
      }
      if (page.length < pageSize || seen === start) return out;
    }
  }

  /**
   * Position of our last event that still exists, 0 when there is none: `$all` read backwards
   * from its end in growing pages until one of ours turns up (a scan of the whole log when the
   * namespace is empty, unless it was connected as fresh).
   */
  async headPosition(): Promise<number> {
    let from: ReadPosition = END;
    let seen = Number.POSITIVE_INFINITY;
    for (let pageSize = HEAD_FIRST_PAGE; ; pageSize = Math.min(pageSize * 4, HEAD_MAX_PAGE)) {
      const page: AllStreamResolvedEvent[] = await collect(
        this.client.readAll({ fromPosition: from, maxCount: pageSize, direction: BACKWARDS }),
      );
      const start = seen;
      for (const { event } of page) {
        if (!event) continue;
        const position = toPortPosition(event.position.commit);
        if (position >= seen) continue;
        if (position <= this.floor) return 0;
        seen = position;
        from = event.position;
        const recorded = toRecordedEvent(this.namespace, event);
        if (recorded && !(await this.isDeleted(recorded))) return position;
      }
      if (page.length < pageSize || seen === start) return 0;
    }
  }

  /**
   * Tombstones `stream` (see the module comment for why not a soft delete) and resolves with how
   * many events it held, counted just before with the tombstone expecting that last revision
   * (0 when it did not exist or was deleted already). Throws an Error for a stream outside
   * `deletableStreams`, and the driver's errors.
   */
  async deleteStream(stream: string): Promise<number> {
    if (!this.mayBeDeleted(stream)) {
      throw new Error(`deleteStream(${stream}): not among the deletable streams ${JSON.stringify(this.deletable)}`);
    }
    const name = serverStream(this.namespace, stream);
    for (let attempt = 1; ; attempt++) {
      const [first, last] = await Promise.all([
        this.readServerStream(name, { fromRevision: START, direction: FORWARDS, maxCount: 1 }),
        this.readServerStream(name, { fromRevision: END, direction: BACKWARDS, maxCount: 1 }),
      ]);
      if (first.state === 'deleted' || last.state === 'deleted') this.markDeleted(stream, Number.POSITIVE_INFINITY);
      if (first.state !== 'ok' || last.state !== 'ok') return 0;
      const [oldest] = first.events;
      const [newest] = last.events;
      if (!oldest || !newest) return 0;
      try {
        await this.client.tombstoneStream(name, { expectedRevision: newest.revision });
        this.markDeleted(stream, Number.POSITIVE_INFINITY);
        return Number(newest.revision - oldest.revision) + 1;
      } catch (err) {
        const type = errorType(err);
        if (type === ErrorType.STREAM_DELETED) {
          this.markDeleted(stream, Number.POSITIVE_INFINITY);
          return 0; // another process deleted it first
        }
        if (type !== ErrorType.WRONG_EXPECTED_VERSION || attempt >= DELETE_ATTEMPTS) throw err;
      }
    }
  }

  /**
   * Our events after `after` (exclusive), then each new one as it is stored, in log order, without
   * events of deleted streams: one catch-up subscription to `$all` with the namespace filter,
   * iterated in order. It ends when closed (or the store is); otherwise only with an error, which
   * callers answer by subscribing again (domain/log/resuming-subscription.ts):
   * - a lost connection: the driver's gRPC stream errors with UNAVAILABLE, which its Subscription
   *   (streams/utils/Subscription.js `initialize`) re-emits as an UnavailableError, thrown here by
   *   the iteration. The driver does not resume the stream; it drops the channel
   *   (Client/index.js `handleError`, reached from `GRPCStreamCreator`'s `finished` callback and
   *   from `execute`) for UNAVAILABLE, CANCELLED and NotLeader, so the next call (the
   *   resubscription) opens a new channel, to the leader for NotLeader;
   * - the server ending the call without an error (a node shutting down may end its streams
   *   cleanly): a catch-up subscription never ends by itself, so this is thrown as
   *   {@link SubscriptionEnded} rather than ending the iteration silently;
   * - a failing deletion check (a stream read) or start-position read: its error is thrown too.
   */
  subscribeAll(after: number): Subscription<RecordedEvent> {
    let stopped = false;
    let subscription: AllStreamSubscription | undefined;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      this.subscriptions.delete(stop);
      // Ends the driver's stream, so a pending iteration step returns.
      void subscription?.unsubscribe().catch(() => undefined);
    };
    this.subscriptions.add(stop);
    if (this.closed) stop();
    const store = this;
    async function* iterate(): AsyncGenerator<RecordedEvent> {
      if (stopped) return;
      let seen = Math.max(after, store.floor);
      try {
        const fromPosition = await store.subscriptionStart(seen);
        if (stopped) return;
        subscription = store.client.subscribeToAll({ fromPosition, filter: store.filter() });
        for await (const resolved of subscription) {
          if (stopped) return;
          const event = resolved.event;
          if (!event) continue;
          const position = toPortPosition(event.position.commit);
          if (position <= seen) continue;
          seen = position;
          const recorded = toRecordedEvent(store.namespace, event);
          if (!recorded || (await store.isDeleted(recorded))) continue;
          if (stopped) return;
          yield recorded;
        }
        if (!stopped) throw new SubscriptionEnded();
      } catch (err) {
        // Closing cancels the call underneath; that is an end, not a failure.
        if (!stopped) throw err;
      } finally {
        stop();
      }
    }
    const iterator = iterate();
    return { [Symbol.asyncIterator]: () => iterator, close: stop };
  }

  /** Ends every subscription of this store and disposes the client. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stop of [...this.subscriptions]) stop();
    await this.client.dispose();
  }

  /** The server-side `$all` filter of the namespace. */
  private filter(): Filter {
    return this.namespace === '' ? excludeSystemEvents() : streamNameFilter({ prefixes: [this.namespace] });
  }

  /**
   * Where a subscription to events after `after` starts. A catch-up subscription begins after
   * the first event at or past the position it is given; when the event at `after` is gone
   * (deleted and scavenged) that would skip the event following it, so it is given the event
   * just before `after` instead (a backward read from `after` excludes it), and the iteration
   * skips up to `after`.
   */
  private async subscriptionStart(after: number): Promise<ReadPosition> {
    if (after <= 0) return START;
    const [before] = await collect(
      this.client.readAll({ direction: BACKWARDS, fromPosition: readStart(after), maxCount: 1 }),
    );
    return before?.event?.position ?? START;
  }

  /** Reads a stream on the server; a missing or deleted stream is an outcome, not an error. */
  private async readServerStream(name: string, options: ReadStreamOptions): Promise<StreamRead> {
    try {
      const events: StoredEvent[] = [];
      for await (const { event } of this.client.readStream(name, options)) if (event) events.push(event);
      return { state: 'ok', events };
    } catch (err) {
      const type = errorType(err);
      if (type === ErrorType.STREAM_NOT_FOUND) return { state: 'not_found' };
      if (type === ErrorType.STREAM_DELETED) return { state: 'deleted' };
      throw err;
    }
  }

  private ours(events: readonly StoredEvent[]): RecordedEvent[] {
    const out: RecordedEvent[] = [];
    for (const e of events) {
      const recorded = toRecordedEvent(this.namespace, e);
      if (recorded) out.push(recorded);
    }
    return out;
  }

  /**
   * The revision and position of the stored batch starting with event id `firstId` when it is
   * among the stream's last events, else undefined. Throws the deleted-stream Error.
   */
  private async findStored(
    stream: string,
    name: string,
    firstId: string,
    count: number,
  ): Promise<{ revision: number; position: number } | undefined> {
    const tail = await this.readServerStream(name, {
      fromRevision: END,
      direction: BACKWARDS,
      maxCount: Math.max(this.window, count),
    });
    if (tail.state === 'deleted') throw this.deletedError(stream);
    return tail.state === 'ok' ? findStoredBatch(this.ours(tail.events), firstId, count) : undefined;
  }

  private deletedError(stream: string, cause?: unknown): Error {
    return new Error(`stream ${stream} was deleted for good (deleteStream tombstones it); it cannot be written again`, {
      cause,
    });
  }

  private mayBeDeleted(stream: string): boolean {
    return this.deletable.some((prefix) => stream.startsWith(prefix));
  }

  private markDeleted(stream: string, below: number): void {
    const known = this.deletedBelow.get(stream) ?? 0;
    this.deletedBelow.delete(stream);
    this.deletedBelow.set(stream, Math.max(known, below));
    if (this.deletedBelow.size > DELETED_MEMORY) this.deletedBelow.delete(this.deletedBelow.keys().next().value!);
  }

  private gone(e: RecordedEvent): boolean {
    return e.revision < (this.deletedBelow.get(e.stream) ?? 0);
  }

  /** Whether `e` was deleted since it was written (tombstone, or truncation by someone else). */
  private async isDeleted(e: RecordedEvent): Promise<boolean> {
    return (await this.withoutDeleted([e])).length === 0;
  }

  /**
   * `events` without those whose stream was deleted (or truncated) since. For each deletable
   * stream among them, one look at what the server still holds ({@link deletedBelowOnServer}):
   * tombstoned → all are gone; truncated before a revision → those below it are gone.
   */
  private async withoutDeleted(events: readonly RecordedEvent[]): Promise<RecordedEvent[]> {
    const lowest = new Map<string, { revision: number; highest: number }>();
    for (const e of events) {
      if (!this.mayBeDeleted(e.stream) || this.gone(e)) continue;
      const seen = lowest.get(e.stream);
      lowest.set(e.stream, {
        revision: Math.min(seen?.revision ?? e.revision, e.revision),
        highest: Math.max(seen?.highest ?? e.revision, e.revision),
      });
    }
    await forEachLimited([...lowest], CHECK_CONCURRENCY, async ([stream, range]) => {
      const below = await this.deletedBelowOnServer(stream, range);
      if (below > 0) this.markDeleted(stream, below);
    });
    return events.filter((e) => !this.gone(e));
  }

  /**
   * The revision of `stream` below which the server no longer holds its events (Infinity:
   * tombstoned; 0: all there), told by the stream's metadata: reading the metadata stream of a
   * tombstoned stream answers "deleted", and a truncation or soft delete sets `$tb`. Only when
   * the metadata holds `$maxAge` or `$maxCount` (events expire without a trace in `$tb`) is the
   * stream itself read, one event from `range.revision` (the lowest revision asked about).
   */
  private async deletedBelowOnServer(stream: string, range: { revision: number; highest: number }): Promise<number> {
    const name = serverStream(this.namespace, stream);
    let metadata: StreamMetadata | undefined;
    try {
      ({ metadata } = await this.client.getStreamMetadata(name));
    } catch (err) {
      if (errorType(err) === ErrorType.STREAM_DELETED) return Number.POSITIVE_INFINITY;
      throw err;
    }
    if (metadata?.maxAge === undefined && metadata?.maxCount === undefined) {
      const truncateBefore = Number(metadata?.truncateBefore ?? 0);
      return Number.isFinite(truncateBefore) && truncateBefore > 0 ? truncateBefore : 0;
    }
    const read = await this.readServerStream(name, {
      fromRevision: BigInt(range.revision),
      direction: FORWARDS,
      maxCount: 1,
    });
    if (read.state === 'deleted') return Number.POSITIVE_INFINITY;
    const first = read.state === 'ok' ? read.events[0] : undefined;
    if (!first) return range.highest + 1;
    return first.revision > BigInt(range.revision) ? Number(first.revision) : 0;
  }
}
