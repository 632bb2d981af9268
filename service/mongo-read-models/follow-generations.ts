/**
 * The read models' generations seen from a process that does not write them (api, scheduler):
 * see service/mongo-read-models.ts.
 */
import { ReadModelGenerations } from '../../adapters/mongodb/generations.js';
import type { MongoReadStore } from '../../adapters/mongodb/read-store.js';
import { generationSettings, watchStamp, type GenerationOptions } from './generation-stamp.js';

/**
 * Keeps a follower process's read store (`reads`, written by a projector elsewhere) on the
 * active generation: moves it at once to the stamped generation, then to each new one stamped
 * with this code's version. Resolves to the stop. Throws the driver's errors at the first read.
 */
export async function followGenerations(
  reads: MongoReadStore,
  options: GenerationOptions = {},
): Promise<() => Promise<void>> {
  const { version, pollMs, log } = generationSettings(options);
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
  return watchStamp(generations, pollMs, log, (stamp) => {
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
