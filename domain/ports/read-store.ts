/**
 * Read store port (DESIGN §2): documents of the read models (projections), keyed by `id`, and a
 * checkpoint (last applied global log position) per projection. Adapters: adapters/memory
 * (embedded, rebuilt by replay at start-up); MongoDB later.
 */

/** A read-model document. */
export interface ReadDocument {
  id: string;
}

/** Query of a collection: equality filter, one sort field, a page size. */
export interface FindQuery<T> {
  where?: Partial<T>;
  sortBy?: keyof T & string;
  descending?: boolean;
  limit?: number;
}

export interface ReadCollection<T extends ReadDocument> {
  get(id: string): Promise<T | undefined>;
  /** Inserts or replaces the document with this id. */
  put(doc: T): Promise<void>;
  delete(id: string): Promise<void>;
  find(query?: FindQuery<T>): Promise<T[]>;
}

export interface ReadStore {
  collection<T extends ReadDocument>(name: string): ReadCollection<T>;
  /** Last global position applied by the named projection, 0 when none. */
  checkpoint(projection: string): Promise<number>;
  setCheckpoint(projection: string, position: number): Promise<void>;
}
