/**
 * `admin rebuild-read-models` on MongoDB: a fresh generation beside the served one, then the
 * switch (service/mongo-read-models.ts).
 */
import { ReadModelGenerations } from '../../adapters/mongodb/generations.js';
import type { MongoReadStore } from '../../adapters/mongodb/read-store.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import { PROJECTIONS } from '../../projections/all.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { ensureIndexes, generationSettings, type GenerationOptions } from './generation-stamp.js';

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
  const { version, retireAfterMs } = generationSettings(options);
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
