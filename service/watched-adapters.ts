/**
 * The adapters of one process behind the health watchers (adapters/health/): the dependency
 * states its roles need, the data dir made, the adapters the profile names opened, and the
 * event and read stores wrapped so every failing call and every recovery reaches `/health` and
 * the heartbeat. The NATS bus reports its own state changes; the ones telling it is up again are
 * passed on to `busBack` (the scheduler repairs at once then).
 */
import type { Logger } from 'pino';
import { DependencyHealth, neededBy, type Dependency } from '../adapters/health/dependency-health.js';
import { watchEventStore, watchReadStore, type Watched } from '../adapters/health/watched-stores.js';
import type { NatsBusStatus } from '../adapters/nats/bus.js';
import { makeDataDir } from '../adapters/sqlite/data-dir.js';
import type { EventStore } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import { openAdapters, type Adapters } from './open-adapters.js';
import type { Profile } from './profile.js';

/**
 * The dependency states of a process of `profile` (adapters/health/dependency-health.ts): the
 * stores always, the bus with the scheduler or solver role; `graceMs` before a needed one that is
 * down makes the process down.
 */
export function processHealth(profile: Profile, graceMs: number, log: Logger): DependencyHealth {
  const used: Dependency[] = ['event_store', 'read_store'];
  if (profile.roles.has('scheduler') || profile.roles.has('solver')) used.push('bus');
  return new DependencyHealth({ used, needed: neededBy(profile.roles), graceMs, log });
}

/** What {@link openWatchedAdapters} opened. */
export interface WatchedAdapters {
  /** The adapters as opened (the MongoDB read store is used unwatched by its generation handling). */
  opened: Adapters;
  store: Watched<EventStore>;
  reads: Watched<ReadStore>;
  /** Told each time the bus reports it is up (again); add and remove listeners freely. */
  busBack: Set<() => void>;
}

/**
 * Makes `dataDir` (a warning is logged when its mode is looser than the service's), opens the
 * adapters of `profile` in it and wraps the stores (`decorateStore` first, so the watchers see
 * the faults a test injects). Throws DataDirBusy and the drivers' errors like openAdapters.
 */
export async function openWatchedAdapters(
  profile: Profile,
  dataDir: string,
  health: DependencyHealth,
  options: {
    log: Logger;
    probeMs?: number | undefined;
    decorateStore?: ((store: EventStore) => EventStore) | undefined;
  },
): Promise<WatchedAdapters> {
  const { log } = options;
  const busBack = new Set<() => void>();
  const made = makeDataDir(dataDir);
  if (made.warning) log.warn({ dataDir, mode: made.mode.toString(8) }, made.warning);
  const onBusStatus = (status: NatsBusStatus): void => {
    health.busStatus(status);
    if (status.state === 'up') for (const listener of busBack) listener();
  };
  const opened = await openAdapters(profile, dataDir, { log, onBusStatus });
  const probe = options.probeMs !== undefined ? { probeMs: options.probeMs } : {};
  const store = watchEventStore(
    options.decorateStore ? options.decorateStore(opened.store) : opened.store,
    health,
    probe,
  );
  const reads = watchReadStore(opened.reads, health, probe);
  return { opened, store, reads, busBack };
}
