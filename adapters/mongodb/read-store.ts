/**
 * MongoDB read store (DESIGN §2, distributed profile): one collection per read model in one
 * database, the document's `id` as `_id` (results come back as plain documents, without `_id`),
 * and the projections' checkpoints in the `checkpoints` collection of the same database
 * (`{_id: <projection>, position}`). Checkpoints only move forward (`$max`).
 *
 * Every collection name carries the read models' generation as a prefix (`rm3_jobs`,
 * `rm3_checkpoints`; generation 0, the collections written before read models were versioned,
 * has none): a rebuild writes a fresh generation beside the one being served and the store is
 * moved to it (`use`) when the stamp switches (adapters/mongodb/generations.ts).
 *
 * Queries run in the database (adapters/mongodb/query.ts translates them), served by the
 * indexes each read model declares (projections/indexes.ts), created at connect.
 *
 * Writes are guarded by the event position: `put` of a document carrying a numeric `position`
 * is a replaceOne with upsert whose filter matches only a stored document with a lower (or no)
 * position. When the stored one is as new or newer, the filter matches nothing, the upsert
 * tries to insert the same `_id` and the server answers duplicate key (11000): that is the
 * "already applied" no-op. A document without `position` (api_keys) is replaced unconditionally.
 */
import { MongoClient, type Collection, type Db, type Document } from 'mongodb';
import type {
  FindQuery,
  IndexSpec,
  ReadCollection,
  ReadDocument,
  ReadFilter,
  ReadStore,
} from '../../domain/ports/read-store.js';
import { checkLimit } from '../../domain/ports/read-query.js';
import { READ_MODEL_INDEXES } from '../../projections/indexes.js';
import { generationPrefix } from './generation-names.js';
import { putFilter, toMongoFilter, toMongoIndex, toMongoSort } from './query.js';

/** Name of the collection of the projections' checkpoints (reserved: no read model may use it). */
export const CHECKPOINTS = 'checkpoints';

type Stored = Document & { _id: string };

/**
 * The driver's connection settings (MongoDB Node.js driver 7, node_modules/mongodb). The driver
 * reconnects on its own for as long as the client is open: each server is monitored every
 * `heartbeatFrequencyMS` whether it answers or not. An operation waits at most
 * `serverSelectionTimeoutMS` for a usable server and then rejects (MongoServerSelectionError);
 * an operation already sent over a connection that goes silent rejects once the monitor's
 * heartbeat times out (`connectTimeoutMS` + `heartbeatFrequencyMS`: the pool is cleared with
 * its in-use connections interrupted), so a caller gets an error it can retry, never a hang.
 * Reads and writes are retried once by the driver after a network error or a primary change.
 * Worst case with these values, from the server going silent to the caller's error: 5 s to the
 * next heartbeat + 10 s for it to time out + 10 s of server selection for the driver's retry
 * (measured 25 s against a wire stand-in; test/adapters/mongodb-connection.test.ts).
 * An option named in the connection string wins over the value here (clientOptions).
 */
export const MONGO_CLIENT_OPTIONS = {
  ignoreUndefined: true,
  serverSelectionTimeoutMS: 10_000,
  connectTimeoutMS: 10_000,
  heartbeatFrequencyMS: 5_000,
  retryReads: true,
  retryWrites: true,
} as const;

/**
 * The client options for `url`: MONGO_CLIENT_OPTIONS less those the connection string names
 * (the driver lets constructor options override the string's; here the operator's string wins).
 */
export function clientOptions(url: string): Partial<typeof MONGO_CLIENT_OPTIONS> {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const named = new Set([...new URLSearchParams(query).keys()].map((k) => k.toLowerCase()));
  return Object.fromEntries(Object.entries(MONGO_CLIENT_OPTIONS).filter(([k]) => !named.has(k.toLowerCase())));
}

const isDuplicateKey = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;

class MongoCollection<T extends ReadDocument> implements ReadCollection<T> {
  /** `resolve` names the driver's collection of the generation the store serves now. */
  constructor(private readonly resolve: () => Collection<Stored>) {}

  private get docs(): Collection<Stored> {
    return this.resolve();
  }

  async get(id: string): Promise<T | undefined> {
    const doc = await this.docs.findOne({ _id: id }, { projection: { _id: 0 } });
    return doc === null ? undefined : (doc as unknown as T);
  }

  async put(doc: T): Promise<void> {
    const filter = putFilter(doc);
    const replacement = doc as unknown as Document;
    try {
      await this.docs.replaceOne(filter, replacement, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // The stored document is as new or newer: nothing to do. Unless two writers raced to
      // insert it and ours is the newer one: then the guarded replace (no upsert) applies it.
      await this.docs.replaceOne(filter, replacement);
    }
  }

  async delete(id: string): Promise<void> {
    await this.docs.deleteOne({ _id: id });
  }

  async find(query: FindQuery<T> = {}): Promise<T[]> {
    checkLimit(query.limit);
    const cursor = this.docs.find(toMongoFilter(query), {
      projection: { _id: 0 },
      sort: toMongoSort(query),
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    });
    return (await cursor.toArray()) as unknown as T[];
  }

  async count(filter: ReadFilter<T> = {}): Promise<number> {
    return this.docs.countDocuments(toMongoFilter({ where: filter.where, text: filter.text }));
  }
}

/** The MongoDB read store (see the module comment). */
export class MongoReadStore implements ReadStore {
  /** The driver's client, for other stores sharing the connection (the rate-limit counters). */
  readonly client: MongoClient;
  /** Name of the database holding the read models and checkpoints. */
  readonly database: string;
  private readonly db: Db;
  private prefix: string;
  private current: number;

  /**
   * A store on `client`'s database `database` serving read-model generation `generation`
   * (default 0: unprefixed names); prefer `connect`, which also creates the indexes.
   */
  constructor(client: MongoClient, database: string, generation = 0) {
    this.client = client;
    this.database = database;
    this.db = client.db(database);
    this.current = generation;
    this.prefix = generationPrefix(generation);
  }

  /** The generation of the read models this store reads and writes. */
  get generation(): number {
    return this.current;
  }

  /**
   * Moves the store to the collections of `generation`: every read, write and checkpoint after
   * the call (through collections handed out before it too) goes there. Indexes are not made.
   */
  use(generation: number): void {
    this.current = generation;
    this.prefix = generationPrefix(generation);
  }

  /** A second store on the same client and database, held at `generation` (a rebuild writes through one). */
  atGeneration(generation: number): MongoReadStore {
    return new MongoReadStore(this.client, this.database, generation);
  }

  /**
   * Connects to `url` (a MongoDB connection string, `MONGODB_URL`; settings `clientOptions`),
   * uses database `database` at read-model generation `generation` and creates the indexes
   * `indexes` names per collection (default: every read model's, projections/indexes.ts) there.
   * Undefined fields of documents are left out, not stored as null.
   * Throws the driver's errors when the server is unreachable or an index cannot be built
   * (the client is closed again then).
   */
  static async connect(
    url: string,
    database: string,
    indexes: Readonly<Record<string, readonly IndexSpec[]>> = READ_MODEL_INDEXES,
    generation = 0,
  ): Promise<MongoReadStore> {
    const client = new MongoClient(url, clientOptions(url));
    await client.connect();
    const store = new MongoReadStore(client, database, generation);
    try {
      for (const [name, specs] of Object.entries(indexes)) await store.ensureIndexes(name, specs);
    } catch (err) {
      await client.close();
      throw err;
    }
    return store;
  }

  /** Throws Error for the reserved name `checkpoints`. */
  collection<T extends ReadDocument>(name: string): ReadCollection<T> {
    if (name === CHECKPOINTS)
      throw new Error(`"${CHECKPOINTS}" holds the projections' checkpoints; a read model cannot use that name`);
    return new MongoCollection<T>(() => this.db.collection<Stored>(this.prefix + name));
  }

  /** createIndexes with the server's default names; an index already built with the same keys is kept. Throws the driver's errors. */
  async ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    if (indexes.length === 0) return;
    await this.db.collection(this.prefix + collection).createIndexes(indexes.map(toMongoIndex));
  }

  private checkpoints(): Collection<{ _id: string; position: number }> {
    return this.db.collection<{ _id: string; position: number }>(this.prefix + CHECKPOINTS);
  }

  /** The `position` of `{_id: projection}` in `checkpoints`, 0 when absent. */
  async checkpoint(projection: string): Promise<number> {
    const doc = await this.checkpoints().findOne({ _id: projection });
    return doc?.position ?? 0;
  }

  /**
   * Upserts `{_id: projection, position}` in `checkpoints` with `$max`: a position below the
   * stored one leaves it (two projectors, or a late write, never move a checkpoint back).
   */
  async setCheckpoint(projection: string, position: number): Promise<void> {
    await this.checkpoints().updateOne({ _id: projection }, { $max: { position } }, { upsert: true });
  }

  /** Drops the whole database (tests give each store a fresh one). */
  async dropDatabase(): Promise<void> {
    await this.db.dropDatabase();
  }

  /** Closes the client (and so every store sharing it). */
  async close(): Promise<void> {
    await this.client.close();
  }
}
