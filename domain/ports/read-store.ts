/**
 * Read store port (DESIGN §2): documents of the read models (projections), keyed by `id`, and a
 * checkpoint (last applied global log position) per projection. Adapters: adapters/sqlite
 * (embedded default: persisted beside the event store), adapters/memory (rebuilt by replay at
 * every start) and adapters/mongodb (distributed profile).
 *
 * Queries are small and driver-free: equality and per-field conditions on scalar fields (one
 * level of nesting, `fields.name`), a case-insensitive substring search over named fields, one
 * sort field with `id` as the tie-break, a page size, a keyset cursor and counts. Their exact
 * semantics are those of domain/ports/read-query.ts (which the memory adapter runs); they follow
 * MongoDB's, so the MongoDB adapter can hand them to the database unchanged in meaning.
 */

/** A read-model document. */
export interface ReadDocument {
  id: string;
}

/** Values a filter or a sort can compare. */
export type Scalar = string | number | boolean | null;

type Present<V> = Exclude<V, null | undefined>;

/**
 * Names of the fields of `T` a query can use: its top-level keys, plus `key.sub` one level into
 * object-valued keys (`fields.name`, `createdBy.id`). Arrays are not entered.
 */
export type FieldPath<T> = {
  [K in keyof T & string]: Present<T[K]> extends readonly unknown[]
    ? K
    : Present<T[K]> extends object
      ? K | `${K}.${keyof Present<T[K]> & string}`
      : K;
}[keyof T & string];

/** Type of the value at `path` in `T`; a nested path is null/absent when its parent is. */
export type FieldValue<T, P extends string> = P extends keyof T
  ? T[P]
  : P extends `${infer K}.${infer S}`
    ? K extends keyof T
      ? S extends keyof Present<T[K]>
        ? Present<T[K]>[S] | Extract<T[K], null | undefined>
        : never
      : never
    : never;

/**
 * Conditions on one field; all given ones must hold. A missing field reads as null (so
 * `eq: null` and `in: [null]` match documents without the field). Range conditions hold only
 * between values of the same type (a string field is never `gt` a number) and never on null.
 */
export interface FieldCondition<V> {
  eq?: V;
  in?: readonly V[];
  gt?: Exclude<V, null | boolean>;
  gte?: Exclude<V, null | boolean>;
  lt?: Exclude<V, null | boolean>;
  lte?: Exclude<V, null | boolean>;
  /** true: the field holds a non-null value; false: it is null or absent. */
  exists?: boolean;
}

/** A field's filter: a scalar (equality, `null` = null or absent) or a FieldCondition. */
export type Condition<V> = [V] extends [Scalar] ? V | FieldCondition<V> : never;

/** How a query sees a field's value: an optional (possibly absent) field reads as null. */
export type ReadValue<V> = Exclude<V, undefined> | (undefined extends V ? null : never);

/** Per-field filters, all of which must hold. Entries whose value is `undefined` are ignored. */
export type Where<T> = { [P in FieldPath<T>]?: Condition<ReadValue<FieldValue<T, P>>> };

/** Which documents a find or count selects. */
export interface ReadFilter<T> {
  where?: Where<T>;
  /**
   * Case-insensitive substring search: a document matches when `query` occurs in the string
   * value of at least one of `fields` (non-string values never match). `fields` must not be
   * empty (RangeError). An empty `query` matches every document with a string in one of them.
   */
  text?: { query: string; fields: readonly FieldPath<T>[] };
}

/** Where a page starts: after the document whose sort field is `sortValue` and id is `id`. */
export interface KeysetCursor {
  sortValue: string | number;
  id: string;
}

/**
 * A find: a filter, a sort, a page size and a keyset cursor.
 * - Order: by `sortBy` (default `id`), then by `id`, both ascending or both `descending`.
 *   Null or missing sort values come first ascending (last descending); across types numbers
 *   sort before strings before booleans; strings compare by Unicode code point (UTF-8 bytes).
 * - `after`: only the documents that come after (`sortValue`, `id`) in that order; stable under
 *   inserts and deletes. Documents whose sort field holds another type than `sortValue` (or
 *   null) are not paged through: page only on a field that holds one type in every document.
 * - `limit`: at most this many documents, a positive integer (RangeError otherwise); none = all.
 */
export interface FindQuery<T> extends ReadFilter<T> {
  sortBy?: FieldPath<T>;
  descending?: boolean;
  limit?: number;
  after?: KeysetCursor;
}

/**
 * An index a collection needs: `keys` in order, 1 ascending, -1 descending (`id` is the
 * document key). The memory adapter ignores indexes; the MongoDB adapter creates them.
 */
export interface IndexSpec<P extends string = string> {
  keys: ReadonlyArray<readonly [P, 1 | -1]>;
}

/** The documents of one read model. Every document returned is the caller's own copy. */
export interface ReadCollection<T extends ReadDocument> {
  /** The document with this id, or undefined. */
  get(id: string): Promise<T | undefined>;
  /**
   * Inserts or replaces the document with this id. Guarded by the event position: when `doc`
   * has a numeric `position` (the global log position of the last event applied to it) and the
   * stored document has one at or above it, nothing changes (a replayed event is a no-op).
   */
  put(doc: T): Promise<void>;
  /** Removes the document with this id (nothing when there is none). */
  delete(id: string): Promise<void>;
  /** The documents the query selects, in its order. Throws RangeError for a bad `limit` or empty `text.fields`. */
  find(query?: FindQuery<T>): Promise<T[]>;
  /** How many documents the filter selects. */
  count(filter?: ReadFilter<T>): Promise<number>;
}

/** The read models' documents by collection, and the projections' checkpoints. */
export interface ReadStore {
  /** The collection of read model `name` (the name `checkpoints` is reserved for the checkpoints). */
  collection<T extends ReadDocument>(name: string): ReadCollection<T>;
  /** Creates the indexes `collection` needs when missing (idempotent). */
  ensureIndexes(collection: string, indexes: readonly IndexSpec[]): Promise<void>;
  /** Last global position applied by the named projection, 0 when none. */
  checkpoint(projection: string): Promise<number>;
  /**
   * Records `position` (a global log position) as the last one the named projection applied.
   * Checkpoints only move forward: a position below the stored one leaves it (two projectors
   * writing one store, or a late write, never move a checkpoint back).
   */
  setCheckpoint(projection: string, position: number): Promise<void>;
  /**
   * Optional: runs `work` so that its writes (documents and checkpoints) are stored together or,
   * when it throws, not at all (the error is rethrown). Stores without it write each call alone;
   * their projections stay correct because every write is guarded by the event position.
   */
  atomically?<R>(work: () => Promise<R>): Promise<R>;
  /** Releases connections; the store is unusable afterwards. */
  close(): Promise<void>;
}
