/**
 * Online backup of an embedded data dir with SQLite's backup API
 * (better-sqlite3 `db.backup()`), safe while the service runs: it opens its own connections and
 * takes no data dir lock. Each database is copied in one backup step, so each copy is one
 * consistent snapshot (WAL: the service keeps writing meanwhile).
 *
 * Order: `read-models.db` (persisted read models with their checkpoint) when present, then
 * `events.db` (the log, the source of truth), so the read models' checkpoint is never ahead of
 * the log copy (a restart then replays the events after it). Then the small files the data dir
 * needs: `signing-key` (PDF links keep working) and `demo-api-key` when present. Not copied:
 * `instance.lock` and `rate-limits.db` (runtime state). Every file is written 0600 into a
 * directory made 0700.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The SQLite databases backed up, in the order they are copied. */
export const BACKED_UP_DATABASES = ['read-models.db', 'events.db'] as const;
/** The plain files copied after the databases, when present. */
export const BACKED_UP_FILES = ['signing-key', 'demo-api-key'] as const;

/** Thrown when a backup cannot start: no event store in the data dir, or a target that is not empty. */
export class BackupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefused';
  }
}

export interface BackupReport {
  /** The directory written. */
  to: string;
  /** Each file copied, in order, with its size in bytes. */
  files: { name: string; bytes: number }[];
  /** Log position of the last event in the copied `events.db` (0: empty log). */
  eventsHead: number;
}

/** Copies the database `from` into `to` (a new 0600 file) with the online backup API, in one step. */
async function backupDatabase(from: string, to: string): Promise<void> {
  // Made 0600 before SQLite writes into it (SQLite keeps a file's mode, journals take it too).
  closeSync(openSync(to, 'wx', 0o600));
  const source = new Database(from, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // All remaining pages in the next step: one read transaction, one consistent snapshot.
    await source.backup(to, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  chmodSync(to, 0o600);
}

/** The position of the last event in the events database `file`. */
function headOf(file: string): number {
  // Read-write, so closing the last connection removes the -wal and -shm files it made.
  const db = new Database(file, { fileMustExist: true });
  try {
    return (db.prepare('SELECT MAX(position) AS p FROM events').get() as { p: number | null }).p ?? 0;
  } finally {
    db.close();
  }
}

/**
 * Backs up the data dir `dataDir` into the directory `toDir` (made 0700 when missing; it must be
 * empty). Throws BackupRefused when `dataDir` has no `events.db` or `toDir` is not empty, and
 * SQLite's errors (for example a corrupt source).
 */
export async function backupDataDir(dataDir: string, toDir: string): Promise<BackupReport> {
  const from = resolve(dataDir);
  const to = resolve(toDir);
  if (!existsSync(join(from, 'events.db'))) throw new BackupRefused(`no event store at ${join(from, 'events.db')}`);
  if (existsSync(to) && readdirSync(to).length > 0)
    throw new BackupRefused(`${to} is not empty: back up into a new directory`);
  mkdirSync(to, { recursive: true, mode: 0o700 });
  chmodSync(to, 0o700);
  const files: BackupReport['files'] = [];
  for (const name of BACKED_UP_DATABASES) {
    if (!existsSync(join(from, name))) continue;
    await backupDatabase(join(from, name), join(to, name));
    files.push({ name, bytes: statSync(join(to, name)).size });
  }
  for (const name of BACKED_UP_FILES) {
    if (!existsSync(join(from, name))) continue;
    copyFileSync(join(from, name), join(to, name));
    chmodSync(join(to, name), 0o600);
    files.push({ name, bytes: statSync(join(to, name)).size });
  }
  return { to, files, eventsHead: headOf(join(to, 'events.db')) };
}
