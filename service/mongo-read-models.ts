/**
 * Versioned read models on MongoDB (distributed profile), with the semantics of the SQLite
 * ones (projections/version.ts): read models of another READ_MODEL_VERSION are never served
 * as if they were current; they are rebuilt from the whole event log. The API processes must
 * keep answering meanwhile, so a rebuild writes a FRESH generation of collections beside the
 * served one and then switches the stamp (adapters/mongodb/generations.ts) in one update:
 *
 * - the projector (`MongoProjector`, role `projector`) builds at start when the stamp names
 *   another version (or none), switches, and later follows a switch made by another builder
 *   (`admin rebuild-read-models`) by restarting its projections on the new generation;
 * - the other processes (`followGenerations`) move their read store to the new generation as
 *   soon as they read a stamp of their own version; a stamp of another version (a newer
 *   deployment's projector) is logged and they keep serving the generation they have;
 * - the replaced generation is kept `retireAfterMs` for processes still running older code,
 *   then dropped by the projector (at its next start at the latest).
 */
import type { Logger } from 'pino';
import { ReadModelGenerations, type ActiveStamp, type BuildStamp } from '../adapters/mongodb/generations.js';
import type { MongoReadStore } from '../adapters/mongodb/read-store.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { AppliedPosition } from '../projections/applied-position.js';
import { PROJECTIONS } from '../projections/all.js';
import { READ_MODEL_INDEXES } from '../projections/indexes.js';
import type { ReadModelProgress } from '../projections/progress.js';
import { ProjectionRunner } from '../projections/runner.js';
import { READ_MODEL_VERSION } from '../projections/version.js';

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

const settings = (o: GenerationOptions) => ({
  version: o.version ?? READ_MODEL_VERSION,
  retireAfterMs: o.retireAfterMs ?? DEFAULT_RETIRE_AFTER_MS,
  pollMs: o.pollMs ?? DEFAULT_STAMP_POLL_MS,
  log: o.log,
});

/** Creates the read models' indexes in the collections of `generation`. */
async function ensureIndexes(reads: MongoReadStore, generation: number): Promise<void> {
  const at = reads.atGeneration(generation);
  for (const [collection, specs] of Object.entries(READ_MODEL_INDEXES)) await at.ensureIndexes(collection, specs);
}

/**
 * Reads the stamp every `pollMs` and hands each one to `seen`, one call at a time. A failed read
 * is logged once (and once again when reads succeed again), never thrown. Returns the stop.
 */
function watchStamp(
  generations: ReadModelGenerations,
  pollMs: number,
  log: Logger | undefined,
  seen: (stamp: ActiveStamp) => Promise<void>,
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

/**
 * Keeps a follower process's read store (`reads`, written by a projector elsewhere) on the
 * active generation: moves it at once to the stamped generation, then to each new one stamped
 * with this code's version. Resolves to the stop. Throws the driver's errors at the first read.
 */
export async function followGenerations(
  reads: MongoReadStore,
  options: GenerationOptions = {},
): Promise<() => Promise<void>> {
  const { version, pollMs, log } = settings(options);
  const generations = new ReadModelGenerations(reads.client.db(reads.database));
  const first = await generations.active();
  if (first) {
    reads.use(first.generation);
    if (first.version !== version)
      log?.warn(
        { generation: first.generation, storedVersion: first.version, version },
        'the active read models are of another version than this code; serving them until a projector of this version switches',
      );
  }
  let ignored = -1;
  return watchStamp(generations, pollMs, log, async (stamp) => {
    if (stamp.generation === reads.generation) return;
    if (stamp.version === version) {
      const from = reads.generation;
      reads.use(stamp.generation);
      log?.info({ from, generation: stamp.generation, version }, 'read models switched to a new generation');
    } else if (ignored !== stamp.generation) {
      ignored = stamp.generation;
      log?.warn(
        { generation: stamp.generation, storedVersion: stamp.version, serving: reads.generation, version },
        'read models of another version are active; this process keeps serving its generation until it is replaced by one of that version',
      );
    }
  });
}

/**
 * The projector of the MongoDB read models (role `projector`): a ProjectionRunner on the
 * active generation, or first on a fresh one when the stamp names another version (see the
 * module comment). Its position only moves forward across generations.
 */
export class MongoProjector extends AppliedPosition implements ReadModelProgress {
  private readonly options: ReturnType<typeof settings>;
  private readonly generations: ReadModelGenerations;
  private runner: ProjectionRunner | undefined;
  private offApplied: (() => void) | undefined;
  private stopWatch: (() => Promise<void>) | undefined;
  private resumedAt = 0;
  private started = false;
  private retiredFor = '';
  private ignored = -1;

  constructor(
    store: EventStore,
    private readonly reads: MongoReadStore,
    options: GenerationOptions = {},
  ) {
    super(store);
    this.options = settings(options);
    this.generations = new ReadModelGenerations(reads.client.db(reads.database));
  }

  override get resumedFrom(): number {
    return this.resumedAt;
  }

  /** Generation this projector writes. */
  get generation(): number {
    return this.reads.generation;
  }

  /**
   * Resolves once the active generation of this version includes the log's head (after a
   * rebuild and its switch when one was needed). Throws the driver's and the store's errors.
   */
  async catchUp(): Promise<void> {
    const { version, retireAfterMs, log } = this.options;
    const active = (await this.generations.active()) ?? (await this.generations.stampEmpty(version));
    if (active.version === version) {
      await this.runOn(active.generation);
    } else {
      const build = await this.generations.claimBuild(version, true);
      log?.info(
        { from: active.generation, fromVersion: active.version, generation: build.generation, version },
        'read models of another version: rebuilding them from the event log into a fresh generation',
      );
      await this.runOn(build.generation);
      await this.switchFrom(build, active, retireAfterMs);
    }
    await this.dropRetired();
    this.stopWatch = watchStamp(this.generations, this.options.pollMs, log, (stamp) => this.follow(stamp));
  }

  private async switchFrom(build: BuildStamp, from: ActiveStamp, retireAfterMs: number): Promise<void> {
    const { log, version } = this.options;
    const result = await this.generations.switchTo(build, from, retireAfterMs);
    if (result.switched)
      log?.info(
        { from: from.generation, generation: build.generation, version, position: this.position },
        'read models rebuilt; the new generation is active',
      );
    else await this.follow(result.active);
  }

  /** Starts projecting into `generation` (after stopping the runner of the previous one) and waits for the head. */
  private async runOn(generation: number): Promise<void> {
    await this.stopRunner();
    await ensureIndexes(this.reads, generation);
    const runner = new ProjectionRunner(this.store, this.reads.atGeneration(generation), [...PROJECTIONS]);
    this.runner = runner;
    this.offApplied = runner.onApplied((event) => {
      if (event.position > this.position) this.advance(event);
    });
    await runner.catchUp();
    if (!this.started) {
      this.started = true;
      this.resumedAt = runner.resumedFrom;
    }
    this.reads.use(generation);
  }

  private async stopRunner(): Promise<void> {
    this.offApplied?.();
    await this.runner?.stop();
    this.runner = undefined;
  }

  /** A stamp read: follows a switch to another generation of this version; retires after the grace. */
  private async follow(stamp: ActiveStamp): Promise<void> {
    const { log, version } = this.options;
    if (stamp.version !== version) {
      if (this.ignored !== stamp.generation) {
        this.ignored = stamp.generation;
        log?.warn(
          { generation: stamp.generation, storedVersion: stamp.version, writing: this.generation, version },
          'read models of another version are active; this projector keeps writing its generation for processes of its version until it is replaced',
        );
      }
      return;
    }
    if (stamp.generation !== this.generation) {
      const from = this.generation;
      await this.runOn(stamp.generation);
      log?.info(
        { from, generation: stamp.generation, version, position: this.position },
        "projecting into the read models' new generation",
      );
    }
    if (
      stamp.previous &&
      this.retiredFor !== stamp.previous.retireAt &&
      Date.parse(stamp.previous.retireAt) <= Date.now()
    ) {
      this.retiredFor = stamp.previous.retireAt;
      await this.dropRetired();
    }
  }

  private async dropRetired(): Promise<void> {
    const dropped = await this.generations.dropRetired();
    if (dropped.length > 0)
      this.options.log?.info(
        { dropped, generation: this.generation },
        'dropped the collections of retired read-model generations',
      );
  }

  async stop(): Promise<void> {
    await this.stopWatch?.();
    await this.stopRunner();
  }
}

/** What a MongoDB rebuild did: the generation now active, the one it replaced, the log position included, wall time (ms). */
export interface MongoRebuildReport {
  generation: number;
  replaced: number | undefined;
  position: number;
  ms: number;
}

/**
 * `admin rebuild-read-models` on MongoDB: replays the whole event log into a fresh generation
 * while the services keep serving the active one, then switches the stamp; running projectors
 * move to it and followers switch (see the module comment). Throws when the active stamp
 * changed during the rebuild (nothing switched then: run it again), and the driver's errors.
 */
export async function rebuildMongoReadModels(
  store: EventStore,
  reads: MongoReadStore,
  options: GenerationOptions = {},
): Promise<MongoRebuildReport> {
  const { version, retireAfterMs } = settings(options);
  const started = Date.now();
  const generations = new ReadModelGenerations(reads.client.db(reads.database));
  const from = await generations.active();
  const build = await generations.claimBuild(version, false);
  await ensureIndexes(reads, build.generation);
  const runner = new ProjectionRunner(store, reads.atGeneration(build.generation), [...PROJECTIONS]);
  await runner.catchUp();
  await runner.stop();
  const result = await generations.switchTo(build, from, retireAfterMs);
  if (!result.switched) {
    throw new Error(
      `the active read models changed during the rebuild (generation ${result.active.generation} is active now, not ${from?.generation ?? 'none'}); generation ${build.generation} was not switched to: run the rebuild again`,
    );
  }
  return {
    generation: build.generation,
    replaced: from?.generation,
    position: runner.position,
    ms: Date.now() - started,
  };
}
