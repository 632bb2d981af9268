/**
 * The stamp of the MongoDB read models (DESIGN §2, distributed profile): which generation of
 * collections is served and the READ_MODEL_VERSION it was built with, in the `read_model_meta`
 * collection of the read models' database:
 *
 * - `{_id: 'active', version, generation, switchedAt, previous?: {generation, retireAt}}`: the
 *   generation every process reads. A rebuild switches it in one document update, conditional
 *   on the generation it replaces (two builders cannot both switch from one stamp).
 * - `{_id: 'build', version, generation, startedAt}`: a generation being built from the event
 *   log; a projector of the same version that starts meanwhile joins it (resumes from its
 *   checkpoints) instead of starting another.
 *
 * Collections of a generation that is neither active, nor being built, nor the previous one
 * within its grace period (`retireAt`) are dropped by `dropRetired`. A database written before
 * the stamp existed holds generation 0 (unprefixed names, version unknown).
 */
import type { Db } from 'mongodb';
import { CHECKPOINTS } from './read-store.js';
import { generationOfCollection } from './generation-names.js';
import { JOBS } from '../../projections/jobs/job-document.js';
import { PROJECTS } from '../../projections/projects/project-document.js';
import { IDEMPOTENCY_CLAIMS } from '../../projections/idempotency-claims/projection.js';
import { USAGE_DAYS, USAGE_JOBS } from '../../projections/usage/projection.js';
import { TEMPLATES } from '../../projections/templates/projection.js';
import { WEB_SESSIONS } from '../../projections/sessions/projection.js';
import { API_KEYS, INVITATIONS, ORGANIZATIONS } from '../../projections/organizations/projection.js';
import { WEBHOOK_DELIVERIES, WEBHOOK_ENDPOINTS } from '../../projections/webhooks/projection.js';
import { BALANCES, RESERVATIONS } from '../../projections/balances/projection.js';
import { SERVICE_SETTINGS } from '../../projections/service-settings/projection.js';
import { VEHICLES } from '../../projections/vehicles/projection.js';

/** Collection of the stamp documents (never prefixed, never dropped). */
export const READ_MODEL_META = 'read_model_meta';

/**
 * The unprefixed collections of generation 0: the read models as named when the stamp came in,
 * and their checkpoints. The database's other collections (the rate-limit counters) are not
 * read models and are never dropped.
 */
export const GENERATION_ZERO_COLLECTIONS: readonly string[] = [
  JOBS,
  PROJECTS,
  IDEMPOTENCY_CLAIMS,
  USAGE_DAYS,
  USAGE_JOBS,
  TEMPLATES,
  WEB_SESSIONS,
  ORGANIZATIONS,
  API_KEYS,
  INVITATIONS,
  WEBHOOK_ENDPOINTS,
  WEBHOOK_DELIVERIES,
  BALANCES,
  // Came later, with the balances' sums: a generation-0 store that served since then holds it too.
  RESERVATIONS,
  SERVICE_SETTINGS,
  VEHICLES,
  CHECKPOINTS,
];

/** A generation of read models and the READ_MODEL_VERSION it holds (null: unknown, generation 0). */
export interface GenerationStamp {
  generation: number;
  version: string | null;
}

/** The served generation. `previous`: the one it replaced, kept until `retireAt` (ISO time). */
export interface ActiveStamp extends GenerationStamp {
  switchedAt: string;
  previous?: { generation: number; retireAt: string };
}

/** A generation under construction (ISO `startedAt`). */
export interface BuildStamp extends GenerationStamp {
  startedAt: string;
}

type MetaDoc = { _id: string } & Partial<ActiveStamp & BuildStamp>;

const isDuplicateKey = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;

const activeOf = (doc: MetaDoc): ActiveStamp => ({
  generation: doc.generation!,
  version: doc.version ?? null,
  switchedAt: doc.switchedAt!,
  ...(doc.previous ? { previous: doc.previous } : {}),
});

/** What `switchTo` did: the stamp now stored, and whether this call made it. */
export interface SwitchResult {
  active: ActiveStamp;
  switched: boolean;
}

/** The stamp documents of one database (see the module comment). Methods throw the driver's errors. */
export class ReadModelGenerations {
  constructor(private readonly db: Db) {}

  private meta() {
    return this.db.collection<MetaDoc>(READ_MODEL_META);
  }

  /**
   * The served generation: the stored stamp; without one, generation 0 (version null) when the
   * unprefixed checkpoints hold anything, else undefined (an empty database).
   */
  async active(): Promise<ActiveStamp | undefined> {
    const doc = await this.meta().findOne({ _id: 'active' });
    if (doc) return activeOf(doc);
    const legacy = await this.db.collection(CHECKPOINTS).countDocuments({}, { limit: 1 });
    return legacy > 0 ? { generation: 0, version: null, switchedAt: new Date(0).toISOString() } : undefined;
  }

  /** The generation being built, if any. */
  async build(): Promise<BuildStamp | undefined> {
    const doc = await this.meta().findOne({ _id: 'build' });
    return doc ? { generation: doc.generation!, version: doc.version ?? null, startedAt: doc.startedAt! } : undefined;
  }

  /**
   * Stamps an empty database: generation 1 of `version` is active (nothing to rebuild). When
   * another process stamped it first, returns its stamp.
   */
  async stampEmpty(version: string, now = new Date()): Promise<ActiveStamp> {
    const stamp: ActiveStamp = { generation: 1, version, switchedAt: now.toISOString() };
    try {
      await this.meta().insertOne({ _id: 'active', ...stamp });
      return stamp;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return (await this.active())!;
    }
  }

  /**
   * The generation to build `version` into. With `join`, a build of the same version already
   * under way (or interrupted) is returned as it is, so its checkpoints are resumed; otherwise
   * (or when none is) a new generation above every one the database holds replaces the build
   * stamp (conditionally: when another process replaced it first, its build is taken or, without
   * `join`, replaced in turn).
   */
  async claimBuild(version: string, join: boolean, now = new Date()): Promise<BuildStamp> {
    for (;;) {
      const current = await this.build();
      if (current && join && current.version === version) return current;
      const next =
        Math.max(
          0,
          (await this.active())?.generation ?? 0,
          current?.generation ?? 0,
          ...(await this.generationsInUse()),
        ) + 1;
      const stamp: BuildStamp = { generation: next, version, startedAt: now.toISOString() };
      if (!current) {
        try {
          await this.meta().insertOne({ _id: 'build', ...stamp });
          return stamp;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          continue;
        }
      }
      const replaced = await this.meta().updateOne({ _id: 'build', generation: current.generation }, { $set: stamp });
      if (replaced.matchedCount === 1) return stamp;
    }
  }

  /**
   * Makes `build` the active generation in one document update, conditional on the active
   * stamp still naming `from` (undefined: none stored yet); the replaced generation is kept as
   * `previous` for `retireAfterMs` (ms). Clears the build stamp when it still names `build`.
   * When the active stamp changed meanwhile, nothing is written and the stored one is returned.
   */
  async switchTo(
    build: BuildStamp,
    from: ActiveStamp | undefined,
    retireAfterMs: number,
    now = new Date(),
  ): Promise<SwitchResult> {
    const stamp: ActiveStamp = {
      generation: build.generation,
      version: build.version,
      switchedAt: now.toISOString(),
      ...(from
        ? { previous: { generation: from.generation, retireAt: new Date(now.getTime() + retireAfterMs).toISOString() } }
        : {}),
    };
    let switched = false;
    const stored = await this.meta().findOne({ _id: 'active' });
    if (!stored) {
      // Nothing stored: the served generation is 0 (or none); the first stamp is an insert.
      if (!from || from.generation === 0) {
        try {
          await this.meta().insertOne({ _id: 'active', ...stamp });
          switched = true;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
      }
    } else if (from && stored.generation === from.generation) {
      const result = await this.meta().updateOne({ _id: 'active', generation: from.generation }, { $set: stamp });
      switched = result.matchedCount === 1;
    }
    if (switched) await this.meta().deleteOne({ _id: 'build', generation: build.generation });
    return { active: switched ? stamp : (await this.active())!, switched };
  }

  /** Generations that have collections in the database (0 when an unprefixed read model exists). */
  async generationsInUse(): Promise<number[]> {
    const names = await this.collectionNames();
    const found = new Set<number>();
    for (const name of names) {
      const g = generationOfCollection(name);
      if (g !== undefined) found.add(g);
      else if (GENERATION_ZERO_COLLECTIONS.includes(name)) found.add(0);
    }
    return [...found].sort((a, b) => a - b);
  }

  private async collectionNames(): Promise<string[]> {
    return (await this.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  }

  /**
   * Drops the collections of every generation that is not active, not being built and not the
   * previous one before its `retireAt`; returns the generations dropped.
   */
  async dropRetired(now = new Date()): Promise<number[]> {
    const active = await this.active();
    const build = await this.build();
    const keep = new Set<number>();
    if (active) keep.add(active.generation);
    if (build) keep.add(build.generation);
    if (active?.previous && Date.parse(active.previous.retireAt) > now.getTime()) keep.add(active.previous.generation);
    if (!active && !build) return []; // an empty or unstamped database: nothing is known to be retired
    const dropped = new Set<number>();
    for (const name of await this.collectionNames()) {
      const g = generationOfCollection(name) ?? (GENERATION_ZERO_COLLECTIONS.includes(name) ? 0 : undefined);
      if (g === undefined || keep.has(g)) continue;
      await this.db.dropCollection(name);
      dropped.add(g);
    }
    return [...dropped].sort((a, b) => a - b);
  }
}
