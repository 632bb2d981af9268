/**
 * Read store on SQLite (better-sqlite3, WAL): the embedded profile's read models, persisted with
 * their checkpoints in `<data dir>/read-models.db`, so a restart replays only the events after
 * the checkpoint instead of the whole log. One table per collection (`rm_<name>`:
 * id, the document as JSON, its position), expression indexes from the read models' IndexSpecs,
 * queries translated by read-query-sql.ts with the port's semantics.
 *
 * Documents and checkpoints written inside `atomically` commit together, so after a crash
 * (kill -9, power loss with synchronous=NORMAL) the file holds the read models exactly at their
 * checkpoints and the runner replays the rest. The file is derived data: it can always be
 * deleted and rebuilt from the event log; a `version` that differs from the stored one empties it.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { openPrivateDatabase } from './private-file.js';
import { checkLimit, checkText } from '../../domain/ports/read-query.js';
import type {
  FindQuery,
  IndexSpec,
  ReadCollection,
  ReadDocument,
  ReadFilter,
  ReadStore,
} from '../../domain/ports/read-store.js';
import { CONTAINS_FUNCTION, containsText, toSqlIndex, toSqlOrder, toSqlWhere } from './read-query-sql.js';

const NAME = /^[A-Za-z0-9_]+$/;
const TABLE_PREFIX = 'rm_';

/** Most prepared query statements kept per collection (by SQL text); past it the oldest is dropped. */
const MAX_PREPARED_QUERIES = 64;

const positionOf = (doc: object): number | null => {
  const p = (doc as { position?: unknown }).position;
  return typeof p === 'number' ? p : null;
};

class SqliteCollection<T extends ReadDocument> implements ReadCollection<T> {
  private readonly getRow: Database.Statement<[string], { doc: string }>;
  private readonly putRow: Database.Statement<[string, string, number | null]>;
  private readonly deleteRow: Database.Statement<[string]>;
  /** The finds' and counts' statements by SQL text: a query's shape repeats, its values are bound. */
  private readonly queries = new Map<string, Database.Statement<unknown[]>>();

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
  ) {
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL, position INTEGER) WITHOUT ROWID`,
    );
    this.getRow = db.prepare(`SELECT doc FROM ${table} WHERE id = ?`);
    // The position guard of the port: a document with a position replaces only an older one.
    this.putRow = db.prepare(
      `INSERT INTO ${table} (id, doc, position) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, position = excluded.position
       WHERE excluded.position IS NULL OR ${table}.position IS NULL OR ${table}.position < excluded.position`,
    );
    this.deleteRow = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  }

  async get(id: string): Promise<T | undefined> {
    const row = this.getRow.get(id);
    return row === undefined ? undefined : (JSON.parse(row.doc) as T);
  }

  async put(doc: T): Promise<void> {
    this.putRow.run(doc.id, JSON.stringify(doc), positionOf(doc));
  }

  async delete(id: string): Promise<void> {
    this.deleteRow.run(id);
  }

  async find(query: FindQuery<T> = {}): Promise<T[]> {
    checkLimit(query.limit);
    checkText(query.text as ReadFilter<object>['text']);
    const where = toSqlWhere(query);
    const limit = query.limit === undefined ? '' : ` LIMIT ${query.limit}`;
    const rows = this.prepared(
      `SELECT doc FROM ${this.table} WHERE ${where.sql} ORDER BY ${toSqlOrder(query)}${limit}`,
    ).all(...where.params) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc) as T);
  }

  async count(filter: ReadFilter<T> = {}): Promise<number> {
    checkText(filter.text as ReadFilter<object>['text']);
    const where = toSqlWhere(filter);
    const row = this.prepared(`SELECT count(*) AS n FROM ${this.table} WHERE ${where.sql}`).get(...where.params) as {
      n: number;
    };
    return row.n;
  }

  /** The statement of `sql`, prepared at its first use and kept (MAX_PREPARED_QUERIES per collection). */
  private prepared(sql: string): Database.Statement<unknown[]> {
    let statement = this.queries.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[]>(sql);
      if (this.queries.size >= MAX_PREPARED_QUERIES) this.queries.delete(this.queries.keys().next().value!);
      this.queries.set(sql, statement);
    }
    return statement;
  }
}

/** The persisted read store (see the module comment). */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly collections = new Map<string, SqliteCollection<ReadDocument>>();
  private readonly getCheckpoint: Database.Statement<[string], { position: number }>;
  private readonly putCheckpoint: Database.Statement<[string, number]>;
  private depth = 0;

  /**
   * Opens (creating when missing) the read store in `file` (`:memory:` for a throwaway one).
   * `version` names the shape of the read models: when the file holds another one, every read
   * model and checkpoint in it is dropped (they are rebuilt from the log) and `reset` is true.
   */
  constructor(file: string, version: string) {
    this.db = openPrivateDatabase(file);
    this.db.pragma('journal_mode = WAL');
    // Derived data: a crash may lose the last commits, never consistency (WAL), and the runner
    // replays from the checkpoint that committed with the documents.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.function(CONTAINS_FUNCTION, { deterministic: true }, (value: unknown, type: unknown, needle: unknown) =>
      containsText(value, type, String(needle)),
    );
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS checkpoints (projection TEXT PRIMARY KEY, position INTEGER NOT NULL);
    `);
    const stored = (
      this.db.prepare(`SELECT value FROM meta WHERE key = 'version'`).get() as { value: string } | undefined
    )?.value;
    this.reset = stored !== undefined && stored !== version;
    if (stored !== version) {
      this.db.transaction(() => {
        for (const table of this.tables()) this.db.exec(`DROP TABLE ${table}`);
        this.db.exec('DELETE FROM checkpoints');
        this.db
          .prepare(
            `INSERT INTO meta (key, value) VALUES ('version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
          )
          .run(version);
      })();
    }
    this.getCheckpoint = this.db.prepare('SELECT position FROM checkpoints WHERE projection = ?');
    this.putCheckpoint = this.db.prepare(
      'INSERT INTO checkpoints (projection, position) VALUES (?, ?) ON CONFLICT (projection) DO UPDATE SET position = MAX(position, excluded.position)',
    );
  }

  /** True when the file held read models of another version and they were dropped at open. */
  readonly reset: boolean;

  private tables(): string[] {
    const rows = this.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\'`)
      .all() as { name: string }[];
    return rows.map((r) => r.name);
  }

  /** Names of the collections the file holds (for comparisons and dumps). */
  collectionNames(): string[] {
    return this.tables()
      .map((t) => t.slice(TABLE_PREFIX.length))
      .sort();
  }

  /** The collection `name` (letters, digits, `_`; RangeError otherwise), its table made when missing. */
  collection<T extends ReadDocument>(name: string): ReadCollection<T> {
    let c = this.collections.get(name);
    if (!c) {
      if (!NAME.test(name)) throw new RangeError(`not a collection name: ${JSON.stringify(name)}`);
      c = new SqliteCollection<ReadDocument>(this.db, TABLE_PREFIX + name);
      this.collections.set(name, c);
    }
    return c as unknown as ReadCollection<T>;
  }

  /** Creates an expression index per spec (named by its definition, so a changed spec gets a new one). */
  async ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    this.collection(collection);
    const table = TABLE_PREFIX + collection;
    for (const spec of indexes) {
      const columns = toSqlIndex(spec);
      const name = `${table}_${createHash('sha256').update(columns).digest('hex').slice(0, 12)}`;
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${columns})`);
    }
  }

  async checkpoint(projection: string): Promise<number> {
    return this.getCheckpoint.get(projection)?.position ?? 0;
  }

  async setCheckpoint(projection: string, position: number): Promise<void> {
    this.putCheckpoint.run(projection, position);
  }

  /**
   * Runs `work` in one transaction: its writes (documents and checkpoints) commit together, or
   * none does when it throws (the error is rethrown). Nested calls join the outer transaction.
   */
  async atomically<R>(work: () => Promise<R>): Promise<R> {
    if (this.depth > 0) return work();
    this.db.exec('BEGIN IMMEDIATE');
    this.depth += 1;
    try {
      const result = await work();
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    } finally {
      this.depth -= 1;
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
