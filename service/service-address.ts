/**
 * Where the service on a data dir answers, for the operator's tools (`npm run admin -- invite`
 * prints links to it): when the API listens it writes `<data dir>/service-url`, JSON
 * `{url, pid}` with its public base URL (PUBLIC_BASE_URL when set, else the address it listens
 * on, `0.0.0.0`/`::` written as `localhost`), and removes it when it stops cleanly. A file left
 * by a process that died (kill -9) names a pid no longer alive and is ignored by readers.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';

/** The file's name in the data dir. */
export const SERVICE_URL_FILE = 'service-url';

/** Port the service listens on without PORT (service/main.ts). */
export const DEFAULT_PORT = 8080;

/** What the file holds. */
export interface ServiceAddress {
  /** Base URL without a trailing slash, e.g. `http://localhost:8080`. */
  url: string;
  /** Process id of the service that wrote it. */
  pid: number;
}

/**
 * The base URL a browser on this machine reaches a listener at: `listening` (as
 * `http://host:port`) with an unspecified host (`0.0.0.0`, `[::]`) written `localhost`.
 */
export function browsableUrl(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = 'localhost';
  return url.origin;
}

/** Writes the service's address into `dataDir` (whole or not at all: a new file renamed over the old). */
export function writeServiceAddress(dataDir: string, address: ServiceAddress): void {
  const file = join(dataDir, SERVICE_URL_FILE);
  const temporary = `${file}.${address.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(address)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/**
 * Writes the address of this process (`url` without trailing slashes) into `dataDir` for the
 * operator's tools; a failure is only logged (admin invite prints a default address then).
 */
export function announceServiceAddress(dataDir: string, url: string, log: Logger): void {
  try {
    writeServiceAddress(dataDir, { url: url.replace(/\/+$/, ''), pid: process.pid });
  } catch (err) {
    log.warn(
      { err, dataDir },
      'could not write the service address into the data dir (admin invite prints a default address)',
    );
  }
}

/** Removes the address file of `dataDir` when process `pid` wrote it (another API process may have since). */
export function removeServiceAddress(dataDir: string, pid: number): void {
  if (readAddressFile(dataDir)?.pid === pid) rmSync(join(dataDir, SERVICE_URL_FILE), { force: true });
}

/** True when a process `pid` lives (a process of another user counts as alive). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readAddressFile(dataDir: string): ServiceAddress | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, SERVICE_URL_FILE), 'utf8')) as Partial<ServiceAddress>;
    return typeof parsed.url === 'string' && Number.isInteger(parsed.pid)
      ? { url: parsed.url, pid: parsed.pid! }
      : null;
  } catch {
    return null;
  }
}

/** The base URL of the service running on `dataDir`, or null when none runs (no file, unreadable, or its writer died). */
export function runningServiceUrl(dataDir: string): string | null {
  const address = readAddressFile(dataDir);
  return address && processAlive(address.pid) ? address.url : null;
}
