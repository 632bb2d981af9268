/**
 * Files of the data dir that only the service's own user may read: they hold
 * every organization's data, key hashes and the PDF signing key. Mode 0600 whatever the process
 * umask is; the umask itself is left alone (a library does not change process-wide state).
 *
 * SQLite creates a database's `-wal`, `-shm` and `-journal` files with the mode of the database
 * file, so a database file that is 0600 before SQLite first opens it keeps its side files private
 * too; side files left by an older version are fixed when the database is opened.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';

/** Owner read and write only. */
export const PRIVATE_FILE_MODE = 0o600;

/** The side files SQLite keeps beside database `file`. */
const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/**
 * Makes `path` a private file: creates it empty with mode 0600 when missing, else sets its mode
 * to 0600. Throws the fs error (ENOENT for a missing directory, EPERM when not the owner).
 */
export function makePrivate(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  chmodSync(path, PRIVATE_FILE_MODE);
}

/**
 * Opens the SQLite database `file` (created when missing) readable by the owner only: the file
 * and any existing side files are 0600. `:memory:` and '' (temporary databases) are opened as
 * they are. Options and errors are better-sqlite3's.
 */
export function openPrivateDatabase(file: string, options?: Database.Options): Database.Database {
  if (file === ':memory:' || file === '') return new Database(file, options);
  makePrivate(file);
  const db = new Database(file, options);
  for (const suffix of SQLITE_SIDE_FILES) if (existsSync(file + suffix)) chmodSync(file + suffix, PRIVATE_FILE_MODE);
  return db;
}
