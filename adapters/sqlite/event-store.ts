/**
 * Embedded event store on SQLite (better-sqlite3, WAL). One table holds the global log; the
 * `(stream, revision)` and `event_id` unique keys enforce optimistic concurrency and idempotent
 * appends. Data survives a restart and a kill -9 (an append resolves only once committed, with the
 * appends of the same event-loop turn in one transaction: group commit).
 * Several processes may share the file: subscribers also poll for appends made elsewhere.
 */
import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { openPrivateDatabase } from './private-file.js';
import {
  checkAppendSize,
  ConcurrencyError,
  serializedEventSize,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
} from '../../domain/ports/event-store.js';

/** An event serialized for its row: data and metadata as JSON text. */
interface SerializedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** An append waiting for its group commit. */
interface PendingAppend {
  stream: string;
  events: SerializedEvent[];
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(err: unknown): void;
}

interface Row {
  position: number;
  event_id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

/** How often a subscriber looks for appends by other processes, ms. */
const POLL_MS = 250;

function toRecorded(row: Row): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    stream: row.stream,
    revision: row.revision,
    position: row.position,
    recordedAt: row.recorded_at,
  };
}

export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly appended = new EventEmitter();
  private closed = false;

  /**
   * Opens (creating when missing) the store at `file`, readable by the owner only (0600, also
   * its -wal and -shm); `:memory:` for a throwaway store.
   */
  constructor(file: string, options: { bulkLoad?: boolean } = {}) {
    this.db = openPrivateDatabase(file);
    this.db.pragma('journal_mode = WAL');
    // `bulkLoad` (seeding benchmark logs only, never the service): no fsync per commit.
    this.db.pragma(options.bulkLoad ? 'synchronous = OFF' : 'synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    // Retention erases: a deleted event's bytes are overwritten with zeros, not left in free
    // pages until a VACUUM (docs/operations.md, "Retention"). Measured: no cost on appends beyond the noise.
    this.db.pragma('secure_delete = ON');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position    INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id    TEXT NOT NULL UNIQUE,
        stream      TEXT NOT NULL,
        revision    INTEGER NOT NULL,
        type        TEXT NOT NULL,
        data        TEXT NOT NULL,
        metadata    TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        UNIQUE (stream, revision)
      );`);
    this.appended.setMaxListeners(0);
    const prepare = (sql: string): Database.Statement => this.db.prepare(sql);
    this.statements = {
      byEventId: prepare('SELECT stream, revision, position FROM events WHERE event_id = ?'),
      atRevision: prepare('SELECT revision, position FROM events WHERE stream = ? AND revision = ?'),
      streamHead: prepare('SELECT MAX(revision) AS r FROM events WHERE stream = ?'),
      insert: prepare(
        'INSERT INTO events (event_id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      readStream: prepare('SELECT * FROM events WHERE stream = ? AND revision >= ? ORDER BY revision'),
      readLast: prepare('SELECT * FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1'),
      readAll: prepare('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      head: prepare('SELECT MAX(position) AS p FROM events'),
    };
  }

  /** The store's statements, prepared once when it opens. */
  private readonly statements: Record<
    'byEventId' | 'atRevision' | 'streamHead' | 'insert' | 'readStream' | 'readLast' | 'readAll' | 'head',
    Database.Statement
  >;

  /**
   * Appends `events` to `stream` if its revision is `expected` (ConcurrencyError otherwise);
   * resolves once they are committed (fsync'd, synchronous=FULL). Group commit: appends made in
   * the same turn of the event loop (concurrent requests) share one transaction and one fsync,
   * each in a savepoint of its own, so one append's conflict or error rejects that append alone.
   * Throws EventTooLargeError before queueing a batch larger than MAX_APPEND_BYTES (the port's
   * measure, the same as the EventStoreDB adapter's).
   */
  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append: no events');
    if (this.closed) throw new Error('append: the event store is closed');
    const serialized = events.map((e) => ({
      id: e.id,
      type: e.type,
      data: JSON.stringify(e.data ?? null),
      metadata: JSON.stringify(e.metadata ?? {}),
    }));
    checkAppendSize(
      stream,
      events,
      serialized.map((e) => serializedEventSize(e.id, e.type, e.data, e.metadata)),
    );
    return new Promise<AppendResult>((resolve, reject) => {
      this.pending.push({ stream, events: serialized, expected, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.commitPending());
    });
  }

  /** Appends waiting for the next group commit. */
  private pending: PendingAppend[] = [];

  /** Commits every pending append in one transaction (see append), then settles their promises. */
  private commitPending(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const outcomes: ({ ok: AppendResult } | { err: unknown })[] = [];
    try {
      this.db
        .transaction(() => {
          for (const p of batch) {
            try {
              // A nested transaction function runs in a savepoint: its failure undoes only itself.
              outcomes.push({ ok: this.appendTx(p.stream, p.events, p.expected) });
            } catch (err) {
              outcomes.push({ err });
            }
          }
        })
        .immediate();
    } catch (err) {
      // The commit itself failed (disk full, busy past the timeout): nothing of the batch is stored.
      for (const p of batch) p.reject(err);
      return;
    }
    if (outcomes.some((o) => 'ok' in o && o.ok.written)) this.appended.emit('appended');
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      if ('ok' in o) p.resolve(o.ok);
      else p.reject(o.err);
    });
  }

  private readonly appendTx = (stream: string, events: SerializedEvent[], expected: ExpectedRevision): AppendResult =>
    this.db.transaction((): AppendResult => {
      const first = events[0]!;
      const existing = this.statements.byEventId.get(first.id) as
        { stream: string; revision: number; position: number } | undefined;
      if (existing) {
        if (existing.stream !== stream) {
          throw new Error(`event id ${first.id} already stored in stream ${existing.stream}`);
        }
        const last = this.statements.atRevision.get(stream, existing.revision + events.length - 1) as
          { revision: number; position: number } | undefined;
        return {
          revision: last?.revision ?? existing.revision,
          position: last?.position ?? existing.position,
          written: false,
        };
      }
      const head = this.statements.streamHead.get(stream) as { r: number | null };
      const actual = head.r === null ? 'no_stream' : head.r;
      const ok =
        expected === 'any' ||
        (expected === 'no_stream' && actual === 'no_stream') ||
        (typeof expected === 'number' && actual === expected);
      if (!ok) throw new ConcurrencyError(stream, expected, actual);
      const insert = this.statements.insert;
      let revision = actual === 'no_stream' ? -1 : actual;
      let position = 0;
      const now = new Date().toISOString();
      for (const e of events) {
        revision += 1;
        const info = insert.run(e.id, stream, revision, e.type, e.data, e.metadata, now);
        position = Number(info.lastInsertRowid);
      }
      return { revision, position, written: true };
    })();

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const rows = this.statements.readStream.all(stream, fromRevision) as Row[];
    return rows.map(toRecorded);
  }

  async readLastEvent(stream: string): Promise<RecordedEvent | undefined> {
    const row = this.statements.readLast.get(stream) as Row | undefined;
    return row ? toRecorded(row) : undefined;
  }

  async readAll(after: number, limit: number): Promise<RecordedEvent[]> {
    const rows = this.statements.readAll.all(after, limit) as Row[];
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<number> {
    // The last stored event, not AUTOINCREMENT's counter: a reader waiting for the head must find
    // an event there, also when the newest events were deleted (retention).
    const row = this.statements.head.get() as { p: number | null };
    return row.p ?? 0;
  }

  async deleteStream(stream: string): Promise<number> {
    return this.db.prepare('DELETE FROM events WHERE stream = ?').run(stream).changes;
  }

  subscribeAll(after: number): Subscription<RecordedEvent> {
    let stopped = false;
    let wake: (() => void) | undefined;
    // Set by every append: an append between a read that found nothing and the wait that
    // follows it (both are separated by awaits) must not leave the subscriber asleep for POLL_MS.
    let appendedSinceRead = false;
    const onAppend = (): void => {
      appendedSinceRead = true;
      wake?.();
    };
    this.appended.on('appended', onAppend);
    const stop = (): void => {
      stopped = true;
      this.appended.off('appended', onAppend);
      wake?.();
    };
    const store = this;
    async function* iterate(): AsyncGenerator<RecordedEvent> {
      let position = after;
      try {
        while (!stopped && !store.closed) {
          appendedSinceRead = false;
          const batch = await store.readAll(position, 500);
          for (const e of batch) {
            if (stopped) return;
            position = e.position;
            yield e;
          }
          if (batch.length === 0 && !appendedSinceRead) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, POLL_MS);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = undefined;
          }
        }
      } finally {
        stop();
      }
    }
    const iterator = iterate();
    return { [Symbol.asyncIterator]: () => iterator, close: stop, poll: onAppend };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Appends already made are committed before the file closes.
    this.commitPending();
    this.closed = true;
    this.appended.emit('appended');
    this.db.close();
  }
}
