/**
 * Decorators around the event store and read store ports that tell DependencyHealth
 * (adapters/health/dependency-health.ts) how the engines answer: an infrastructure failure of a call marks the
 * dependency down (and the error is noted, so the error middleware answers 503 instead of 500),
 * the next success marks it up. A process with little traffic would not notice an engine coming
 * back, so while a dependency is down a light probe (a read of a stream or checkpoint that does
 * not exist) runs every `probeMs`.
 */
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  Subscription,
} from '../../domain/ports/event-store.js';
import type {
  FindQuery,
  IndexSpec,
  ReadCollection,
  ReadDocument,
  ReadFilter,
  ReadStore,
} from '../../domain/ports/read-store.js';
import { isStoreFailure } from '../../domain/ports/store-unavailable.js';
import { noteDependencyFailure, type Dependency, type DependencyHealth } from './dependency-health.js';

/** Default time between two probes of a dependency that is down, ms. */
export const DEFAULT_PROBE_MS = 2000;

/** Name of the stream / projection the probes read (nothing is ever stored under it). */
const PROBE_NAME = 'health-probe';

/** A watched port: `stopWatching()` ends its probing (the composition root calls it when it closes the adapters). */
export type Watched<T> = T & { stopWatching(): void };

/** Options of the watching decorators. */
export interface WatchOptions {
  /** Time between two probes while the dependency is down, ms (default DEFAULT_PROBE_MS). */
  probeMs?: number;
}

/** Reports one dependency's calls to `health`, and probes it while it is down. */
class Watch {
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private readonly off: () => void;

  constructor(
    private readonly health: DependencyHealth,
    private readonly dependency: Dependency,
    private readonly probe: () => Promise<unknown>,
    private readonly probeMs: number,
  ) {
    this.off = health.onChange((d, state) => {
      if (d !== dependency) return;
      if (state === 'down') this.startProbing();
      else this.stopProbing();
    });
    if (health.isDown(dependency)) this.startProbing();
  }

  /** Runs `call`, marking the dependency up when it resolves and down when it fails with an infrastructure failure. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      this.health.markUp(this.dependency);
      return result;
    } catch (err) {
      this.failed(err);
      throw err;
    }
  }

  /**
   * `result` (a call already made), reported like `run`: the hot paths (read-store gets and
   * finds) pass the call's promise itself, so no closure nor async frame is made per call.
   */
  settle<T>(result: Promise<T>): Promise<T> {
    return result.then(this.resolved, this.rejected);
  }

  private readonly resolved = <T>(value: T): T => {
    this.health.markUp(this.dependency);
    return value;
  };

  private readonly rejected = (err: unknown): never => {
    this.failed(err);
    throw err;
  };

  /** Marks the dependency up (a call succeeded). */
  succeeded(): void {
    this.health.markUp(this.dependency);
  }

  /** Notes `err` and marks the dependency down when it is an infrastructure failure. */
  failed(err: unknown): void {
    if (!isStoreFailure(err)) return;
    noteDependencyFailure(err, this.dependency);
    this.health.markDown(this.dependency, err instanceof Error ? err.message : String(err));
  }

  private startProbing(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.probing) return;
      this.probing = true;
      void this.probe()
        .then(
          () => this.health.markUp(this.dependency),
          () => undefined, // still down
        )
        .finally(() => {
          this.probing = false;
        });
    }, this.probeMs);
    this.timer.unref();
  }

  private stopProbing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops probing and listening. */
  stop(): void {
    this.stopProbing();
    this.off();
  }
}

/** `subscription` with each event marking the dependency up and a failure of the iteration reported. */
function watchedSubscription(subscription: Subscription<RecordedEvent>, watch: Watch): Subscription<RecordedEvent> {
  const iterator = subscription[Symbol.asyncIterator]();
  const watched: AsyncIterator<RecordedEvent> = {
    next: async () => {
      try {
        const step = await iterator.next();
        if (!step.done) watch.succeeded();
        return step;
      } catch (err) {
        watch.failed(err);
        throw err;
      }
    },
    ...(iterator.return ? { return: (value?: unknown) => iterator.return!(value) } : {}),
  };
  return {
    [Symbol.asyncIterator]: () => watched,
    close: () => subscription.close(),
    ...(subscription.poll ? { poll: () => subscription.poll!() } : {}),
  };
}

/**
 * `store` reporting to `health` as the `event_store` dependency (see the module comment); the
 * probe reads the last event of a stream that does not exist. Errors pass through unchanged.
 */
export function watchEventStore(
  store: EventStore,
  health: DependencyHealth,
  options: WatchOptions = {},
): Watched<EventStore> {
  const watch = new Watch(
    health,
    'event_store',
    () => store.readLastEvent(PROBE_NAME),
    options.probeMs ?? DEFAULT_PROBE_MS,
  );
  return {
    append: (stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> =>
      watch.run(() => store.append(stream, events, expected)),
    readStream: (stream: string, fromRevision?: number) => watch.run(() => store.readStream(stream, fromRevision)),
    readLastEvent: (stream: string) => watch.run(() => store.readLastEvent(stream)),
    readAll: (after: number, limit: number) => watch.run(() => store.readAll(after, limit)),
    headPosition: () => watch.run(() => store.headPosition()),
    deleteStream: (stream: string) => watch.run(() => store.deleteStream(stream)),
    subscribeAll: (after: number) => watchedSubscription(store.subscribeAll(after), watch),
    close: async () => {
      watch.stop();
      await store.close();
    },
    stopWatching: () => watch.stop(),
  };
}

/**
 * A collection whose calls report to `watch`. A call that throws instead of rejecting is reported
 * the same way (as a rejection).
 */
class WatchedCollection<T extends ReadDocument> implements ReadCollection<T> {
  constructor(
    private readonly inner: ReadCollection<T>,
    private readonly watch: Watch,
  ) {}

  get(id: string): Promise<T | undefined> {
    let result: Promise<T | undefined>;
    try {
      result = this.inner.get(id);
    } catch (err) {
      return this.thrown(err);
    }
    return this.watch.settle(result);
  }

  find(query?: FindQuery<T>): Promise<T[]> {
    let result: Promise<T[]>;
    try {
      result = this.inner.find(query);
    } catch (err) {
      return this.thrown(err);
    }
    return this.watch.settle(result);
  }

  /** A call that threw instead of rejecting, reported and turned into a rejection. */
  // eslint-disable-next-line @typescript-eslint/require-await -- the async function turns the throw into a rejection
  private async thrown(err: unknown): Promise<never> {
    this.watch.failed(err);
    throw err;
  }

  put(doc: T): Promise<void> {
    return this.watch.run(() => this.inner.put(doc));
  }

  delete(id: string): Promise<void> {
    return this.watch.run(() => this.inner.delete(id));
  }

  count(filter?: ReadFilter<T>): Promise<number> {
    return this.watch.run(() => this.inner.count(filter));
  }
}

/**
 * `reads` reporting to `health` as the `read_store` dependency (see the module comment); the
 * probe reads the checkpoint of a projection that does not exist. Errors pass through unchanged.
 */
export function watchReadStore(
  reads: ReadStore,
  health: DependencyHealth,
  options: WatchOptions = {},
): Watched<ReadStore> {
  const watch = new Watch(
    health,
    'read_store',
    () => reads.checkpoint(PROBE_NAME),
    options.probeMs ?? DEFAULT_PROBE_MS,
  );
  // One watched collection per collection object of the store (SQLite and memory keep one per
  // name; MongoDB's resolve their generation at each call), not one per `collection()` call.
  const collections = new WeakMap<ReadCollection<ReadDocument>, ReadCollection<ReadDocument>>();
  const watched: Watched<ReadStore> = {
    collection<T extends ReadDocument>(name: string): ReadCollection<T> {
      const inner = reads.collection<T>(name);
      let outer = collections.get(inner as unknown as ReadCollection<ReadDocument>);
      if (!outer) {
        outer = new WatchedCollection(inner as unknown as ReadCollection<ReadDocument>, watch);
        collections.set(inner as unknown as ReadCollection<ReadDocument>, outer);
      }
      return outer as unknown as ReadCollection<T>;
    },
    ensureIndexes: (collection: string, indexes: readonly IndexSpec[]) =>
      watch.run(() => reads.ensureIndexes(collection, indexes)),
    checkpoint: (projection: string) => watch.run(() => reads.checkpoint(projection)),
    setCheckpoint: (projection: string, position: number) => watch.run(() => reads.setCheckpoint(projection, position)),
    close: async () => {
      watch.stop();
      await reads.close();
    },
    stopWatching: () => watch.stop(),
  };
  if (reads.atomically) {
    const atomically = reads.atomically.bind(reads);
    watched.atomically = <R>(work: () => Promise<R>) => watch.run(() => atomically(work));
  }
  return watched;
}
