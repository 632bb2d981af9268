/**
 * Starts a real `nats-server` with JetStream for tests (DESIGN §2: tests start their own server on
 * a free port with a temporary store; `.ci/run` installs Debian's nats-server when missing).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * A running server: `url` to connect to, `port`, JetStream `storeDir`, `stop()`, and `start()`
 * again on the same port (an outage the test makes on purpose).
 */
export interface NatsServer {
  url: string;
  port: number;
  /** JetStream store dir of the current run (a new one after `start({ emptyStore: true })`). */
  storeDir: string;
  /** When the current run logged "Server is ready" (ms since epoch); NaN while stopped. */
  readyAt: number;
  /** True from a successful start until `stop()`. */
  readonly running: boolean;
  /**
   * Stops the server (SIGTERM, then SIGKILL after 5 s) and resolves once it exited. Removes the
   * store dirs this helper made, unless `keepStore` (to `start()` it again on the same store).
   */
  stop(options?: { keepStore?: boolean }): Promise<void>;
  /**
   * Starts the stopped server again on the same port, on the same store dir, or with
   * `emptyStore` on a new empty one (streams, consumers and messages lost: a replaced server).
   * Resolves when it is ready; throws as {@link startNatsServer}, or when it is running.
   */
  start(options?: { emptyStore?: boolean }): Promise<void>;
}

/** The line nats-server logs once it accepts clients. */
const READY_LINE = 'Server is ready';
const START_TIMEOUT_MS = 30_000;

/**
 * Path of the `nats-server` binary: on PATH, or Debian's /usr/sbin (not on every user's PATH).
 * Undefined when there is none.
 */
export function natsServerBinary(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const file = join(dir, 'nats-server');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** A TCP port that was free a moment ago (the OS picks it for a listener on port 0). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One `nats-server` process: resolves once it logged "Server is ready", with how to stop it. */
async function launch(binary: string, port: number, storeDir: string): Promise<{ stop: () => Promise<void> }> {
  const child = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let log = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nats-server not ready within ${START_TIMEOUT_MS} ms:\n${log}`)), START_TIMEOUT_MS);
      const onData = (chunk: Buffer): void => {
        log += chunk.toString();
        if (log.includes(READY_LINE)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`nats-server exited (${code ?? signal}) before it was ready:\n${log}`));
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

/**
 * Starts `nats-server -js -p <port> -sd <storeDir>` and resolves when it logs "Server is ready".
 * `port` defaults to a free one, `storeDir` to a new temporary dir; pass both again to restart a
 * server on the same store (or use the handle's `stop({ keepStore: true })` and `start()`).
 * Throws when the binary is missing, the process exits, or it is not ready within 30 s (the
 * error holds its log).
 */
export async function startNatsServer(options: { port?: number; storeDir?: string } = {}): Promise<NatsServer> {
  const binary = natsServerBinary();
  if (!binary) throw new Error('nats-server is not installed (apt-get install -y nats-server)');
  const port = options.port ?? (await freePort());
  /** Store dirs this helper made (removed by the final stop). */
  const owned: string[] = [];
  const newStore = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'nats-js-'));
    owned.push(dir);
    return dir;
  };
  const removeOwned = (): void => {
    for (const dir of owned.splice(0)) rmSync(dir, { recursive: true, force: true });
  };
  let storeDir = options.storeDir ?? newStore();
  let current: { stop: () => Promise<void> } | undefined;
  try {
    current = await launch(binary, port, storeDir);
  } catch (err) {
    removeOwned();
    throw err;
  }
  let stopping: Promise<void> | undefined;
  const server: NatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    get storeDir() {
      return storeDir;
    },
    readyAt: Date.now(),
    get running() {
      return current !== undefined && stopping === undefined;
    },
    stop: (stopOptions = {}) =>
      (stopping ??= (async () => {
        await current?.stop();
        current = undefined;
        server.readyAt = Number.NaN;
        if (!stopOptions.keepStore) removeOwned();
      })()),
    start: async (startOptions = {}) => {
      if (server.running) throw new Error(`nats-server on port ${port} is running`);
      await stopping;
      if (startOptions.emptyStore) storeDir = newStore();
      current = await launch(binary, port, storeDir);
      stopping = undefined;
      server.readyAt = Date.now();
    },
  };
  return server;
}
