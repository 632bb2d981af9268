/**
 * In-memory read store: the embedded profile's read models, rebuilt by replaying the event log
 * at start-up. Documents are stored as structured clones so callers cannot mutate the store.
 * Queries run domain/ports/read-query.ts (the port's reference semantics) over the collection;
 * indexes are not needed and ignored.
 */
import { checkText, matchesFilter, runQuery } from '../../domain/ports/read-query.js';
import type {
  FindQuery,
  IndexSpec,
  ReadCollection,
  ReadDocument,
  ReadFilter,
  ReadStore,
} from '../../domain/ports/read-store.js';

const positionOf = (doc: object): number | undefined => {
  const p = (doc as { position?: unknown }).position;
  return typeof p === 'number' ? p : undefined;
};

class MemoryCollection<T extends ReadDocument> implements ReadCollection<T> {
  private readonly docs = new Map<string, T>();

  async get(id: string): Promise<T | undefined> {
    const doc = this.docs.get(id);
    return doc === undefined ? undefined : structuredClone(doc);
  }

  async put(doc: T): Promise<void> {
    const incoming = positionOf(doc);
    const stored = this.docs.get(doc.id);
    const held = stored === undefined ? undefined : positionOf(stored);
    if (incoming !== undefined && held !== undefined && held >= incoming) return;
    this.docs.set(doc.id, structuredClone(doc));
  }

  async delete(id: string): Promise<void> {
    this.docs.delete(id);
  }

  async find(query: FindQuery<T> = {}): Promise<T[]> {
    return runQuery(this.docs.values(), query).map((d) => structuredClone(d));
  }

  async count(filter: ReadFilter<T> = {}): Promise<number> {
    checkText(filter.text as ReadFilter<object>['text']);
    let n = 0;
    for (const d of this.docs.values()) if (matchesFilter(d, filter)) n += 1;
    return n;
  }
}

/** The embedded read store (see the module comment). */
export class MemoryReadStore implements ReadStore {
  private readonly collections = new Map<string, MemoryCollection<ReadDocument>>();
  private readonly checkpoints = new Map<string, number>();

  collection<T extends ReadDocument>(name: string): ReadCollection<T> {
    let c = this.collections.get(name);
    if (!c) {
      c = new MemoryCollection<ReadDocument>();
      this.collections.set(name, c);
    }
    return c as unknown as ReadCollection<T>;
  }

  /** Nothing to do: every query scans the collection in memory. */
  async ensureIndexes(_collection: string, _indexes: readonly IndexSpec[]): Promise<void> {}

  async checkpoint(projection: string): Promise<number> {
    return this.checkpoints.get(projection) ?? 0;
  }

  async setCheckpoint(projection: string, position: number): Promise<void> {
    this.checkpoints.set(projection, Math.max(position, this.checkpoints.get(projection) ?? 0));
  }

  /** Nothing to release. */
  async close(): Promise<void> {}
}
