/**
 * MongoDB read store (DESIGN §2, distributed profile): one collection per read model in one
 * database, the document's `id` as `_id` (results come back as plain documents, without `_id`),
 * and the projections' checkpoints in the `checkpoints` collection of the same database
 * (`{_id: <projection>, position}`).
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
import type { FindQuery, IndexSpec, ReadCollection, ReadDocument, ReadFilter, ReadStore } from '../../domain/ports/read-store.js';
import { checkLimit } from '../../domain/ports/read-query.js';
import { READ_MODEL_INDEXES } from '../../projections/indexes.js';
import { putFilter, toMongoFilter, toMongoIndex, toMongoSort } from './query.js';

/** Name of the collection of the projections' checkpoints (reserved: no read model may use it). */
export const CHECKPOINTS = 'checkpoints';

type Stored = Document & { _id: string };

const isDuplicateKey = (err: unknown): boolean => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;

class MongoCollection<T extends ReadDocument> implements ReadCollection<T> {
  constructor(private readonly docs: Collection<Stored>) {}

  async get(id: string): Promise<T | undefined> {
    const doc = await this.docs.findOne({ _id: id }, { projection: { _id: 0 } });
    return doc === null ? undefined : (doc as unknown as T);
  }

  async put(doc: T): Promise<void> {
    const filter = putFilter(doc as T & { position?: unknown });
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
    return this.docs.countDocuments(toMongoFilter({ where: filter.where, text: filter.text } as ReadFilter<T>));
  }
}

/** The MongoDB read store (see the module comment). */
export class MongoReadStore implements ReadStore {
  /** The driver's client, for other stores sharing the connection (the rate-limit counters). */
  readonly client: MongoClient;
  /** Name of the database holding the read models and checkpoints. */
  readonly database: string;
  private readonly db: Db;

  /** A store on `client`'s database `database`; prefer `connect`, which also creates the indexes. */
  constructor(client: MongoClient, database: string) {
    this.client = client;
    this.database = database;
    this.db = client.db(database);
  }

  /**
   * Connects to `url` (a MongoDB connection string, `MONGODB_URL`), uses database `database`
   * and creates the indexes `indexes` names per collection (default: every read model's,
   * projections/indexes.ts). Undefined fields of documents are left out, not stored as null.
   * Throws the driver's errors when the server is unreachable or an index cannot be built
   * (the client is closed again then).
   */
  static async connect(url: string, database: string, indexes: Readonly<Record<string, readonly IndexSpec[]>> = READ_MODEL_INDEXES): Promise<MongoReadStore> {
    const client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    const store = new MongoReadStore(client, database);
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
    if (name === CHECKPOINTS) throw new Error(`"${CHECKPOINTS}" holds the projections' checkpoints; a read model cannot use that name`);
    return new MongoCollection<T>(this.db.collection<Stored>(name));
  }

  /** createIndexes with the server's default names; an index already built with the same keys is kept. Throws the driver's errors. */
  async ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    if (indexes.length === 0) return;
    await this.db.collection(collection).createIndexes(indexes.map(toMongoIndex));
  }

  /** The `position` of `{_id: projection}` in `checkpoints`, 0 when absent. */
  async checkpoint(projection: string): Promise<number> {
    const doc = await this.db.collection<{ _id: string; position: number }>(CHECKPOINTS).findOne({ _id: projection });
    return doc?.position ?? 0;
  }

  /** Upserts `{_id: projection, position}` in `checkpoints`. */
  async setCheckpoint(projection: string, position: number): Promise<void> {
    await this.db.collection<{ _id: string; position: number }>(CHECKPOINTS).updateOne({ _id: projection }, { $set: { position } }, { upsert: true });
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
