/**
 * Opens the adapters a profile names (DESIGN §2): event store, read store, bus, the store of the
 * rate-limit counters, and the data dir lock. Drivers are imported only when their profile asks
 * for them, so the embedded default loads no MongoDB, EventStoreDB or NATS code.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { InProcessBus } from '../adapters/in-process/bus.js';
import type { NatsBusStatus } from '../adapters/nats/bus.js';
import { MemoryReadStore } from '../adapters/memory/read-store.js';
import { lockDataDirExclusive, lockDataDirShared, type DataDirLock } from '../adapters/sqlite/data-dir-lock.js';
import { SqliteEventStore } from '../adapters/sqlite/event-store.js';
import { SqliteReadStore } from '../adapters/sqlite/read-store.js';
import { READ_MODEL_INDEXES } from '../projections/indexes.js';
import { READ_MODEL_VERSION } from '../projections/version.js';
import { JOB_BODY_STREAM_PREFIX, JOB_REVISION_STREAM_PREFIX } from '../domain/job/streams.js';
import type { Bus } from '../domain/ports/bus.js';
import type { EventStore } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import { isEmbedded, type Profile } from './profile.js';
import { memoryCounters, sqliteCounters, type RateCounterFactory } from '../api/http/auth/rate-counters.js';
import { closeAll } from './close-all.js';

export { closeAll };

export interface Adapters {
  store: EventStore;
  reads: ReadStore;
  /** Opened only for processes with the scheduler or solver role. */
  bus?: Bus;
  /** Current state of the NATS bus's connection (distributed profile); absent for the in-process bus. */
  busStatus?: () => NatsBusStatus;
  rateCounters: RateCounterFactory;
  /** Closes everything opened here, in reverse order, each even when another fails; then throws their error(s). */
  close(): Promise<void>;
}

/**
 * Opens the event store `which` names: the SQLite file `<dataDir>/events.db`, or EventStoreDB.
 * Takes no data dir lock (the admin and audit commands run beside a live service).
 */
export async function openEventStore(which: Profile['eventStore'], dataDir: string): Promise<EventStore> {
  if (which.kind === 'sqlite') return new SqliteEventStore(join(dataDir, 'events.db'));
  const { EventStoreDbEventStore } = await import('../adapters/eventstoredb/event-store.js');
  // Only job bodies and plan revisions are ever deleted: the adapter checks deletion for those streams alone.
  return EventStoreDbEventStore.connect(which.url, {
    namespace: which.namespace,
    deletableStreams: [JOB_BODY_STREAM_PREFIX, JOB_REVISION_STREAM_PREFIX],
  });
}

/** File of the persisted read models in the data dir (PACKING_READ_STORE=sqlite). */
export const READ_MODELS_FILE = 'read-models.db';

/**
 * Opens the persisted read models of `dataDir` (made when missing, emptied when they are of
 * another READ_MODEL_VERSION) with the indexes the read models declare.
 */
export async function openSqliteReadStore(
  dataDir: string,
  file = join(dataDir, READ_MODELS_FILE),
): Promise<SqliteReadStore> {
  const reads = new SqliteReadStore(file, READ_MODEL_VERSION);
  for (const [collection, specs] of Object.entries(READ_MODEL_INDEXES)) await reads.ensureIndexes(collection, specs);
  return reads;
}

/** What {@link openAdapters} hands to the adapters besides the profile. */
export interface AdapterOptions {
  /** The process's logger; the NATS bus writes its connection changes through it. */
  log?: Logger;
  /** Told of each change of the NATS bus's connection state (DESIGN §2, health of the bus). */
  onBusStatus?: (status: NatsBusStatus) => void;
}

/**
 * Opens the adapters of `profile` with files under `dataDir`. Throws DataDirBusy (SQLite event
 * store) when the data dir is held in a way this process cannot share, and the drivers' errors
 * when a server is unreachable (the NATS bus waits for its server instead); whatever was opened
 * before the failure is closed again. `close()` closes every adapter even when one fails, then
 * throws (see {@link closeAll}).
 */
export async function openAdapters(profile: Profile, dataDir: string, options: AdapterOptions = {}): Promise<Adapters> {
  const closers: (() => Promise<void> | void)[] = [];
  const close = (): Promise<void> => closeAll(closers.splice(0));
  try {
    let lock: DataDirLock | undefined;
    if (profile.eventStore.kind === 'sqlite') {
      lock = isEmbedded(profile) ? lockDataDirExclusive(dataDir) : lockDataDirShared(dataDir);
      const held = lock;
      closers.push(() => held.release());
    }
    const store = await openEventStore(profile.eventStore, dataDir);
    const opened = store;
    closers.push(() => opened.close());

    let reads: ReadStore;
    let rateCounters: RateCounterFactory = memoryCounters;
    if (profile.readStore.kind !== 'mongodb') {
      reads = profile.readStore.kind === 'memory' ? new MemoryReadStore() : await openSqliteReadStore(dataDir);
      const opened = reads;
      closers.push(() => opened.close());
      if (!isEmbedded(profile) && profile.eventStore.kind === 'sqlite') {
        // Several processes on this machine share the data dir: they share the counters too.
        const counters = sqliteCounters(join(dataDir, 'rate-limits.db'));
        closers.push(() => counters.close());
        rateCounters = counters.factory;
      }
    } else {
      const { MongoReadStore } = await import('../adapters/mongodb/read-store.js');
      // No indexes here: the projector makes them in the generation it writes (service/mongo-read-models.ts).
      const mongo = await MongoReadStore.connect(profile.readStore.url, profile.readStore.database, {});
      closers.push(() => mongo.close());
      reads = mongo;
      const { mongoCounters } = await import('../api/http/auth/rate-counters.js');
      rateCounters = mongoCounters(mongo.client, profile.readStore.database);
    }

    // Only schedulers (publish) and solvers (consume) use the bus: an API process connects to none.
    let bus: Bus | undefined;
    let busStatus: (() => NatsBusStatus) | undefined;
    if (profile.roles.has('scheduler') || profile.roles.has('solver')) {
      if (profile.bus.kind === 'inproc') bus = new InProcessBus();
      else {
        const { NatsBus } = await import('../adapters/nats/bus.js');
        const nats = await NatsBus.connect({
          servers: profile.bus.url,
          ackWaitMs: profile.bus.ackWaitMs,
          ...(options.log ? { log: options.log.child({ adapter: 'nats-bus' }) } : {}),
          ...(options.onBusStatus ? { onStatus: options.onBusStatus } : {}),
        });
        busStatus = () => nats.status;
        bus = nats;
      }
      const connected = bus;
      closers.push(() => connected.close());
    }
    return { store, reads, ...(bus ? { bus } : {}), ...(busStatus ? { busStatus } : {}), rateCounters, close };
  } catch (err) {
    // The opening error is the one to report; a failing close of what was opened is logged.
    await close().catch((closeErr: unknown) =>
      options.log?.error({ err: closeErr }, 'closing the adapters opened before the failure failed'),
    );
    throw err;
  }
}
