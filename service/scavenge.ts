/**
 * `admin scavenge` (docs/operations.md, "Retention"): makes retention's deletions final on EventStoreDB. A
 * deleted job body (a tombstoned stream) is hidden at once but its events stay in the server's
 * chunk files until a scavenge rewrites them; this starts one (adapters/eventstoredb/scavenge.ts).
 * The embedded SQLite event store needs none: its DELETE overwrites the rows (secure_delete).
 */
import type { ScavengeOptions, ScavengeStarted } from '../adapters/eventstoredb/scavenge.js';
import type { Profile } from './profile.js';

/** The command does not apply to the configured event store (the admin exits 2). */
export class ScavengeRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScavengeRefused';
  }
}

/** Threads a scavenge may be given here. */
export const MAX_SCAVENGE_THREADS = 8;
/** How long the server has to answer the start, ms. */
export const SCAVENGE_START_DEADLINE_MS = 30_000;

/** Starts a scavenge on the node of `url` (the port: adapters/eventstoredb/scavenge.ts). */
export type StartScavenge = (url: string, options: ScavengeOptions) => Promise<ScavengeStarted>;

const startOnEventStoreDb: StartScavenge = async (url, options) =>
  (await import('../adapters/eventstoredb/scavenge.js')).startEventStoreScavenge(url, options);

/**
 * Starts a scavenge of the event store `which` names: `threads` (1 to MAX_SCAVENGE_THREADS) from
 * chunk `startFromChunk` (0: all). Throws ScavengeRefused for the SQLite event store and a
 * RangeError for settings out of range (before any connection), and the server's errors.
 */
export async function scavengeEventStore(
  which: Profile['eventStore'],
  settings: { threads: number; startFromChunk: number },
  start: StartScavenge = startOnEventStoreDb,
): Promise<ScavengeStarted> {
  if (which.kind !== 'eventstoredb') {
    throw new ScavengeRefused(
      'scavenge is an EventStoreDB operation and PACKING_EVENT_STORE is sqlite: the embedded event store overwrites a deleted job body when retention deletes it (secure_delete), there is nothing to scavenge',
    );
  }
  if (!Number.isInteger(settings.threads) || settings.threads < 1 || settings.threads > MAX_SCAVENGE_THREADS) {
    throw new RangeError(`threads must be a whole number from 1 to ${MAX_SCAVENGE_THREADS}, not ${settings.threads}`);
  }
  if (!Number.isInteger(settings.startFromChunk) || settings.startFromChunk < 0) {
    throw new RangeError(`the first chunk must be a whole number ≥ 0, not ${settings.startFromChunk}`);
  }
  return start(which.url, { ...settings, deadlineMs: SCAVENGE_START_DEADLINE_MS });
}
