/**
 * An in-process stand-in for the few MongoDB driver calls MongoReadStore makes, evaluating the
 * query operators it sends ($eq, $ne, $in, $gt/$gte/$lt/$lte, $not, $regex + $options, $and,
 * $or; sort, `{_id: 0}` projection, limit; replaceOne with upsert and its duplicate-key error)
 * as MongoDB documents them: missing = null for equality, ranges only within one BSON type,
 * strings compared as UTF-8 bytes, BSON type order for sorting, undefined fields left out
 * (`ignoreUndefined`). Written apart from domain/ports/read-query.ts, so running the contract
 * through it checks the adapter's translation against a second reading of the semantics. It is
 * not a server: the real one is checked only when MONGODB_URL is set.
 */
import type { MongoClient } from 'mongodb';

type Doc = Record<string, unknown>;

/** Deep copy without undefined fields, as the driver serializes with ignoreUndefined. */
function serialize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : serialize(v)));
  if (typeof value === 'object' && value !== null) {
    const out: Doc = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = serialize(v);
    return out;
  }
  return value;
}

function lookup(doc: Doc, path: string): unknown {
  let v: unknown = doc;
  for (const key of path.split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    v = (v as Doc)[key];
  }
  return v;
}

// BSON comparison order of the types used here.
function bsonType(v: unknown): number {
  if (v === undefined || v === null) return 1;
  if (typeof v === 'number') return 2;
  if (typeof v === 'string') return 3;
  if (Array.isArray(v)) return 5;
  if (typeof v === 'object') return 4;
  if (typeof v === 'boolean') return 8;
  throw new Error(`stand-in: unexpected value ${String(v)}`);
}

function bsonCompare(a: unknown, b: unknown): number {
  const ta = bsonType(a);
  const tb = bsonType(b);
  if (ta !== tb) return ta - tb;
  if (ta === 2) return (a as number) - (b as number);
  if (ta === 3) return Buffer.compare(Buffer.from(a as string, 'utf8'), Buffer.from(b as string, 'utf8'));
  if (ta === 8) return Number(a) - Number(b);
  if (ta === 1) return 0;
  return JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0;
}

function equals(field: unknown, value: unknown): boolean {
  if (value === null) return field === null || field === undefined;
  if (Array.isArray(field) && !Array.isArray(value)) return field.some((f) => equals(f, value));
  return bsonType(field) === bsonType(value) && bsonCompare(field, value) === 0;
}

function range(field: unknown, bound: unknown, test: (c: number) => boolean): boolean {
  // Type bracketing: only values of the bound's type compare.
  return (
    field !== undefined && field !== null && bsonType(field) === bsonType(bound) && test(bsonCompare(field, bound))
  );
}

function operators(field: unknown, ops: Doc): boolean {
  return Object.entries(ops).every(([op, arg]) => {
    switch (op) {
      case '$eq':
        return equals(field, arg);
      case '$ne':
        return !equals(field, arg);
      case '$in':
        return (arg as unknown[]).some((v) => equals(field, v));
      case '$gt':
        return range(field, arg, (c) => c > 0);
      case '$gte':
        return range(field, arg, (c) => c >= 0);
      case '$lt':
        return range(field, arg, (c) => c < 0);
      case '$lte':
        return range(field, arg, (c) => c <= 0);
      case '$not':
        return !operators(field, arg as Doc);
      case '$regex':
        return typeof field === 'string' && new RegExp(arg as string, String(ops['$options'] ?? '')).test(field);
      case '$options':
        return true;
      default:
        throw new Error(`stand-in: operator ${op} not supported`);
    }
  });
}

function matches(doc: Doc, filter: Doc): boolean {
  return Object.entries(filter).every(([key, cond]) => {
    if (key === '$and') return (cond as Doc[]).every((f) => matches(doc, f));
    if (key === '$or') {
      if ((cond as Doc[]).length === 0) throw new Error('stand-in: $or needs a nonempty array (as MongoDB says)');
      return (cond as Doc[]).some((f) => matches(doc, f));
    }
    if (key.startsWith('$')) throw new Error(`stand-in: top-level ${key} not supported`);
    const field = lookup(doc, key);
    const isOps =
      typeof cond === 'object' &&
      cond !== null &&
      !Array.isArray(cond) &&
      Object.keys(cond).every((k) => k.startsWith('$'));
    if (isOps && Object.keys(cond).length === 0) return equals(field, cond);
    return isOps ? operators(field, cond as Doc) : equals(field, cond);
  });
}

class StandInCollection {
  readonly docs = new Map<string, Doc>();
  readonly indexes: Doc[] = [];
  /** MongoDB makes a collection on its first insert or index, not on a read. */
  get exists(): boolean {
    return this.docs.size > 0 || this.indexes.length > 0;
  }

  private matching(filter: Doc): Doc[] {
    return [...this.docs.values()].filter((d) => matches(d, filter));
  }

  async findOne(filter: Doc, options: { projection?: Doc } = {}): Promise<Doc | null> {
    const found = this.matching(filter)[0];
    return found === undefined ? null : project(found, options.projection);
  }

  find(
    filter: Doc,
    options: { projection?: Doc; sort?: Record<string, 1 | -1>; limit?: number } = {},
  ): { toArray(): Promise<Doc[]> } {
    let out = this.matching(filter);
    const sort = Object.entries(options.sort ?? {});
    out.sort((a, b) => {
      for (const [key, dir] of sort) {
        const c = bsonCompare(lookup(a, key), lookup(b, key));
        if (c !== 0) return dir * c;
      }
      return 0;
    });
    if (options.limit !== undefined && options.limit !== 0) out = out.slice(0, Math.abs(options.limit));
    return { toArray: async () => out.map((d) => project(d, options.projection)) };
  }

  async countDocuments(filter: Doc = {}, options: { limit?: number } = {}): Promise<number> {
    const n = this.matching(filter).length;
    return options.limit ? Math.min(n, options.limit) : n;
  }

  async replaceOne(
    filter: Doc,
    replacement: Doc,
    options: { upsert?: boolean } = {},
  ): Promise<{ matchedCount: number }> {
    if ('_id' in replacement) throw new Error('stand-in: the adapter sends replacements without _id');
    const found = this.matching(filter)[0];
    if (found) {
      this.docs.set(found['_id'] as string, { _id: found['_id'], ...(serialize(replacement) as Doc) });
      return { matchedCount: 1 };
    }
    if (options.upsert) {
      const id = filter['_id'];
      if (typeof id !== 'string') throw new Error('stand-in: upserts need an _id equality');
      if (this.docs.has(id))
        throw Object.assign(new Error(`E11000 duplicate key error dup key: { _id: "${id}" }`), { code: 11000 });
      this.docs.set(id, { _id: id, ...(serialize(replacement) as Doc) });
    }
    return { matchedCount: 0 };
  }

  /**
   * updateOne with the update operators the adapters send, as MongoDB documents them: `$set`
   * sets fields; `$max` sets a field to the given value when the field is missing or the value
   * is greater in the BSON comparison order, and leaves it otherwise; `$setOnInsert` applies
   * only when the upsert inserts. With `upsert` and no match, the new document starts from the
   * filter's equality conditions on top-level fields (`_id` among them), then the operators apply.
   */
  async updateOne(
    filter: Doc,
    update: Doc,
    options: { upsert?: boolean } = {},
  ): Promise<{ matchedCount: number; modifiedCount: number; upsertedCount: number }> {
    for (const op of Object.keys(update))
      if (!['$set', '$max', '$setOnInsert'].includes(op))
        throw new Error(`stand-in: update operator ${op} not supported`);
    const found = this.matching(filter)[0];
    if (found) {
      const before = JSON.stringify(found);
      applyUpdate(found, update, false);
      return { matchedCount: 1, modifiedCount: JSON.stringify(found) === before ? 0 : 1, upsertedCount: 0 };
    }
    if (!options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
    const doc: Doc = {};
    for (const [k, v] of Object.entries(filter)) {
      const isOps =
        typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).some((key) => key.startsWith('$'));
      if (!k.startsWith('$') && !k.includes('.') && !isOps) doc[k] = serialize(v);
    }
    const id = doc['_id'];
    if (typeof id !== 'string') throw new Error('stand-in: upserts need an _id equality');
    if (this.docs.has(id))
      throw Object.assign(new Error(`E11000 duplicate key error dup key: { _id: "${id}" }`), { code: 11000 });
    applyUpdate(doc, update, true);
    this.docs.set(id, doc);
    return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
  }

  async insertOne(doc: Doc): Promise<{ insertedId: unknown }> {
    const id = doc['_id'];
    if (typeof id !== 'string') throw new Error('stand-in: inserts here carry a string _id');
    if (this.docs.has(id))
      throw Object.assign(new Error(`E11000 duplicate key error dup key: { _id: "${id}" }`), { code: 11000 });
    this.docs.set(id, serialize(doc) as Doc);
    return { insertedId: id };
  }

  async deleteOne(filter: Doc): Promise<void> {
    const found = this.matching(filter)[0];
    if (found) this.docs.delete(found['_id'] as string);
  }

  async createIndexes(specs: { key: Doc }[]): Promise<string[]> {
    for (const s of specs)
      if (!this.indexes.some((i) => JSON.stringify(i) === JSON.stringify(s.key))) this.indexes.push(s.key);
    return specs.map((s) =>
      Object.entries(s.key)
        .map(([k, d]) => `${k}_${d}`)
        .join('_'),
    );
  }
}

/** Applies `$set`, `$max` and (on insert) `$setOnInsert` to top-level fields of `doc`, in place. */
function applyUpdate(doc: Doc, update: Doc, inserting: boolean): void {
  for (const [k, v] of Object.entries((update['$set'] ?? {}) as Doc)) if (v !== undefined) doc[k] = serialize(v);
  if (inserting)
    for (const [k, v] of Object.entries((update['$setOnInsert'] ?? {}) as Doc))
      if (v !== undefined) doc[k] = serialize(v);
  for (const [k, v] of Object.entries((update['$max'] ?? {}) as Doc)) {
    if (!(k in doc) || bsonCompare(v, doc[k]) > 0) doc[k] = serialize(v);
  }
}

function project(doc: Doc, projection: Doc | undefined): Doc {
  const copy = structuredClone(doc);
  if (projection?.['_id'] === 0) delete copy['_id'];
  return copy;
}

/** A stand-in database: named collections, dropped all at once. */
export class StandInDb {
  readonly collections = new Map<string, StandInCollection>();

  collection(name: string): StandInCollection {
    let c = this.collections.get(name);
    if (!c) {
      c = new StandInCollection();
      this.collections.set(name, c);
    }
    return c;
  }

  async dropDatabase(): Promise<boolean> {
    this.collections.clear();
    return true;
  }

  /** As the driver's: `{name, type}` of every collection (here: every one used and not dropped). */
  listCollections(): { toArray(): Promise<{ name: string; type: string }[]> } {
    const names = [...this.collections]
      .filter(([, c]) => c.exists)
      .map(([name]) => name)
      .sort();
    return { toArray: async () => names.map((name) => ({ name, type: 'collection' })) };
  }

  /** As the driver's: true when it existed; a missing namespace is not an error (driver 7). */
  async dropCollection(name: string): Promise<boolean> {
    const existed = this.collections.get(name)?.exists ?? false;
    this.collections.delete(name);
    return existed;
  }
}

/** A stand-in client (cast to MongoClient for MongoReadStore's constructor) and its databases. */
export function mongoStandIn(): { client: MongoClient; dbs: Map<string, StandInDb> } {
  const dbs = new Map<string, StandInDb>();
  const client = {
    db(name: string): StandInDb {
      let db = dbs.get(name);
      if (!db) {
        db = new StandInDb();
        dbs.set(name, db);
      }
      return db;
    },
    async close(): Promise<void> {},
  };
  return { client: client as unknown as MongoClient, dbs };
}
