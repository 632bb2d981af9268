/**
 * Rebuilds the persisted read models of a data dir from the whole event log
 * (`npm run admin -- rebuild-read-models`): replays every event into a new file beside the old
 * one and then puts it in its place, so an interrupted rebuild leaves the old read models as
 * they were. Needs the service stopped: it takes the data dir's exclusive lock.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { lockDataDirExclusive } from '../adapters/sqlite/data-dir-lock.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { PROJECTIONS } from '../projections/all.js';
import { ProjectionRunner } from '../projections/runner.js';
import { openSqliteReadStore, READ_MODELS_FILE } from './open-adapters.js';

/** What a rebuild did: the log position the new read models include, events replayed, wall time. */
export interface RebuildReport {
  file: string;
  position: number;
  ms: number;
}

/** The SQLite file and its WAL companions. */
const withCompanions = (file: string): string[] => [file, `${file}-wal`, `${file}-shm`];

/**
 * Replays the whole of `store` into a fresh read-model file and replaces `<dataDir>/read-models.db`
 * with it. Throws DataDirBusy while a service holds the data dir, and the store's errors.
 */
export async function rebuildReadModels(store: EventStore, dataDir: string): Promise<RebuildReport> {
  const lock = lockDataDirExclusive(dataDir);
  try {
    const started = Date.now();
    const target = join(dataDir, READ_MODELS_FILE);
    const building = `${target}.rebuild`;
    for (const f of withCompanions(building)) rmSync(f, { force: true });
    const reads = await openSqliteReadStore(dataDir, building);
    const runner = new ProjectionRunner(store, reads, [...PROJECTIONS]);
    try {
      await runner.catchUp();
      await runner.stop();
    } finally {
      // Closing the last connection folds the WAL into the file: it is then complete on its own.
      await reads.close();
    }
    for (const f of withCompanions(target)) rmSync(f, { force: true });
    renameSync(building, target);
    if (existsSync(`${building}-wal`)) throw new Error(`the rebuilt read models left ${building}-wal behind`);
    return { file: target, position: runner.position, ms: Date.now() - started };
  } finally {
    lock.release();
  }
}
