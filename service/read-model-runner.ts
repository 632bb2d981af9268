/**
 * Which runner keeps this process's read models (DESIGN §3): a process that reads them and
 * holds them in its own memory projects them itself; with a shared read store (the SQLite file
 * or MongoDB) only the projector role writes them, and the api and scheduler roles follow its
 * checkpoints. MongoDB read models are versioned by generation: their writer is the
 * MongoProjector, and followers also follow the generation stamp (service/mongo-read-models.ts).
 */
import type { Logger } from 'pino';
import type { MongoReadStore } from '../adapters/mongodb/read-store.js';
import type { EventStore } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';
import { PROJECTIONS } from '../projections/all.js';
import { CheckpointFollower } from '../projections/follower.js';
import type { ReadModelProgress } from '../projections/progress.js';
import { ProjectionRunner } from '../projections/runner.js';
import type { Profile } from './profile.js';

/** The runner chosen for a process and why. */
export interface ReadModelRunner {
  /** The writer (ProjectionRunner, MongoProjector) or a CheckpointFollower. */
  projections: ReadModelProgress;
  /** This process writes the read models. */
  writes: boolean;
  /** A role of this process reads them (api, scheduler). */
  reads: boolean;
  /** With MongoDB read models and no writing here: keeps `reads` on the active generation; resolves to its stop. */
  followGenerations?: () => Promise<() => Promise<void>>;
}

/**
 * The runner of a process of `profile`: `store` and `reads` are the watched ports, `rawReads`
 * the read store as opened (MongoDB's generation handling needs the adapter itself). Loads the
 * MongoDB code only for MongoDB read models.
 */
export async function chooseReadModelRunner(
  profile: Profile,
  store: EventStore,
  reads: ReadStore,
  rawReads: ReadStore,
  log: Logger,
): Promise<ReadModelRunner> {
  const { roles } = profile;
  const needsReads = roles.has('api') || roles.has('scheduler');
  const writesReads =
    profile.readStore.kind === 'memory' ? needsReads || roles.has('projector') : roles.has('projector');
  // MongoDB read models: the projector rebuilds a fresh generation when READ_MODEL_VERSION
  // changed, the others follow the stamp.
  const mongo = profile.readStore.kind === 'mongodb' ? await import('./mongo-read-models.js') : undefined;
  const projections: ReadModelProgress = writesReads
    ? mongo
      ? new mongo.MongoProjector(store, rawReads as MongoReadStore, { log })
      : new ProjectionRunner(store, reads, [...PROJECTIONS], { log })
    : new CheckpointFollower(
        store,
        reads,
        PROJECTIONS.map((p) => p.name),
        { log },
      );
  return {
    projections,
    writes: writesReads,
    reads: needsReads,
    ...(mongo && !writesReads && needsReads
      ? { followGenerations: () => mongo.followGenerations(rawReads as MongoReadStore, { log }) }
      : {}),
  };
}
