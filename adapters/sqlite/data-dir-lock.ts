/**
 * Who may use a data dir (start-up recovery that knows who is alive). The embedded
 * profile fails every open job of its data dir at start-up (its solver ran in the process that
 * died), so it must be the only process there: it holds an exclusive lock on
 * `<data dir>/instance.lock`. Processes of the multi-process profile share the data dir and hold
 * a shared lock, so an embedded instance cannot start beside them, nor they beside it.
 *
 * The locks are SQLite file locks (fcntl): the kernel releases them when the process ends, also
 * on kill -9, so a crashed instance never leaves a stale lock behind.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openPrivateDatabase } from './private-file.js';

/** Thrown when another live process holds the data dir in a way this one cannot share. */
export class DataDirBusy extends Error {
  constructor(
    readonly dataDir: string,
    message: string,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = 'DataDirBusy';
  }
}

export interface DataDirLock {
  release(): void;
}

function open(dataDir: string): Database.Database {
  const db = openPrivateDatabase(join(dataDir, 'instance.lock'), { timeout: 2000 });
  db.pragma('journal_mode = DELETE');
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'holder'").get();
  if (!exists) db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, mode TEXT)');
  db.pragma('busy_timeout = 0');
  return db;
}

/**
 * Takes the data dir for this process alone (embedded profile). Throws DataDirBusy naming the
 * lock file when another live process holds it.
 */
export function lockDataDirExclusive(dataDir: string): DataDirLock {
  let db: Database.Database | undefined;
  try {
    db = open(dataDir);
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.prepare('DELETE FROM holder').run();
    db.prepare('INSERT INTO holder (pid, mode) VALUES (?, ?)').run(process.pid, 'exclusive');
    db.exec('COMMIT');
  } catch (err) {
    db?.close();
    throw new DataDirBusy(
      dataDir,
      `the data dir ${dataDir} is in use by another running instance of the service (lock ${join(dataDir, 'instance.lock')}); stop it first or use another PACKING_DATA_DIR`,
      err,
    );
  }
  return { release: () => db.close() };
}

/**
 * Shares the data dir with other processes of the multi-process profile. Throws DataDirBusy when
 * an embedded instance holds it.
 */
export function lockDataDirShared(dataDir: string): DataDirLock {
  let db: Database.Database | undefined;
  try {
    db = open(dataDir);
    db.exec('BEGIN');
    db.prepare('SELECT COUNT(*) FROM holder').get();
  } catch (err) {
    db?.close();
    throw new DataDirBusy(
      dataDir,
      `the data dir ${dataDir} is held by an embedded instance of the service (lock ${join(dataDir, 'instance.lock')}); stop it before starting processes of the multi-process profile on it`,
      err,
    );
  }
  return {
    release: () => {
      db.exec('COMMIT');
      db.close();
    },
  };
}
