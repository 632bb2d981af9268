/**
 * The data dir (PACKING_DATA_DIR) is made readable by the service's user only:
 * mode 0700 when this creates it. An existing dir keeps its mode (an operator may have opened it
 * to a backup group on purpose), but one that others can enter or read is reported so that the
 * caller logs a warning; the files in it are 0600 anyway (adapters/sqlite/private-file.ts).
 */
import { mkdirSync, statSync } from 'node:fs';

/** Owner only: read, write, enter. */
export const DATA_DIR_MODE = 0o700;

/** What makeDataDir found or did. */
export interface DataDirState {
  /** The dir as given. */
  path: string;
  /** True when this call created it (with mode 0700). */
  created: boolean;
  /** Permission bits now (e.g. 0o700). */
  mode: number;
  /** Set when group or others have any access: a sentence for a warning in the log. */
  warning?: string;
}

/**
 * Creates `path` (and missing parents; the parents get the same 0700) or takes it as it is.
 * Throws the fs error when it cannot be made (EACCES, ENOTDIR, …).
 */
export function makeDataDir(path: string): DataDirState {
  const created = mkdirSync(path, { recursive: true, mode: DATA_DIR_MODE }) !== undefined;
  const mode = statSync(path).mode & 0o777;
  const state: DataDirState = { path, created, mode };
  if ((mode & 0o077) !== 0) {
    const octal = mode.toString(8).padStart(3, '0');
    state.warning = `the data dir ${path} has mode ${octal}: other users of this machine can list or read it (its files are 0600); chmod 700 ${path} unless that is intended`;
  }
  return state;
}
