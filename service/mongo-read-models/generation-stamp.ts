/**
 * What the MongoDB read models' generation handling shares (service/mongo-read-models.ts): the
 * options and their defaults, the indexes of a generation, and the poll of the active stamp
 * (adapters/mongodb/generations.ts).
 */
import type { Logger } from 'pino';
import { ReadModelGenerations, type ActiveStamp } from '../../adapters/mongodb/generations.js';
import type { MongoReadStore } from '../../adapters/mongodb/read-store.js';
import { READ_MODEL_INDEXES } from '../../projections/indexes.js';
import { READ_MODEL_VERSION } from '../../projections/version.js';

/** How long a replaced generation is kept for processes of older code, ms. */
export const DEFAULT_RETIRE_AFTER_MS = 10 * 60_000;
/** How often a process reads the stamp, ms. */
export const DEFAULT_STAMP_POLL_MS = 1_000;

/** Settings of the generation handling; every field has a default. */
export interface GenerationOptions {
  /** The read models' version this code writes (default READ_MODEL_VERSION). */
  version?: string;
  /** How long a replaced generation is kept, ms (default DEFAULT_RETIRE_AFTER_MS). */
  retireAfterMs?: number;
  /** How often the stamp is read, ms (default DEFAULT_STAMP_POLL_MS). */
  pollMs?: number;
  log?: Logger;
}

/** The options with their defaults. */
export const generationSettings = (o: GenerationOptions) => ({
  version: o.version ?? READ_MODEL_VERSION,
  retireAfterMs: o.retireAfterMs ?? DEFAULT_RETIRE_AFTER_MS,
  pollMs: o.pollMs ?? DEFAULT_STAMP_POLL_MS,
  log: o.log,
});

/** Creates the read models' indexes in the collections of `generation`. */
export async function ensureIndexes(reads: MongoReadStore, generation: number): Promise<void> {
  const at = reads.atGeneration(generation);
  for (const [collection, specs] of Object.entries(READ_MODEL_INDEXES)) await at.ensureIndexes(collection, specs);
}

/**
 * Reads the stamp every `pollMs` and hands each one to `seen`, one call at a time. A failed read
 * is logged once (and once again when reads succeed again), never thrown. Returns the stop.
 */
export function watchStamp(
  generations: ReadModelGenerations,
  pollMs: number,
  log: Logger | undefined,
  seen: (stamp: ActiveStamp) => Promise<void> | void,
): () => Promise<void> {
  let stopped = false;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> = Promise.resolve();
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      tick = (async () => {
        try {
          const stamp = await generations.active();
          if (failing) log?.info("the read models' stamp can be read again");
          failing = false;
          if (stamp && !stopped) await seen(stamp);
        } catch (err) {
          if (!failing) log?.warn({ err }, "cannot read or follow the read models' stamp; trying again");
          failing = true;
        }
        schedule();
      })();
    }, pollMs);
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await tick;
  };
}
