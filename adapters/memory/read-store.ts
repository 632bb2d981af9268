/**
 * In-memory read store: the embedded profile's read models, rebuilt by replaying the event log
 * at start-up. Documents are stored as structured clones so callers cannot mutate the store.
 */
import type { FindQuery, ReadCollection, ReadDocument, ReadStore } from '../../domain/ports/read-store.js';

class MemoryCollection<T extends ReadDocument> implements ReadCollection<T> {
  private readonly docs = new Map<string, T>();

  async get(id: string): Promise<T | undefined> {
    const doc = this.docs.get(id);
    return doc === undefined ? undefined : structuredClone(doc);
  }

  async put(doc: T): Promise<void> {
    this.docs.set(doc.id, structuredClone(doc));
  }

  async delete(id: string): Promise<void> {
    this.docs.delete(id);
  }

  async find(query: FindQuery<T> = {}): Promise<T[]> {
    const where = Object.entries(query.where ?? {}) as [keyof T, unknown][];
    let out = [...this.docs.values()].filter((d) => where.every(([k, v]) => d[k] === v));
    const key = query.sortBy;
    if (key !== undefined) {
      const sign = query.descending ? -1 : 1;
      out.sort((a, b) => {
        const x = a[key] as unknown as string | number;
        const y = b[key] as unknown as string | number;
        return x < y ? -sign : x > y ? sign : 0;
      });
    }
    if (query.limit !== undefined) out = out.slice(0, query.limit);
    return out.map((d) => structuredClone(d));
  }
}

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

  async checkpoint(projection: string): Promise<number> {
    return this.checkpoints.get(projection) ?? 0;
  }

  async setCheckpoint(projection: string, position: number): Promise<void> {
    this.checkpoints.set(projection, position);
  }
}
