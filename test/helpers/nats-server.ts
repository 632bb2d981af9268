/**
 * Starts a real `nats-server` with JetStream for tests (DESIGN §2: tests start their own server on
 * a free port with a temporary store; `.ci/run` installs Debian's nats-server when missing). The
 * handle stops and starts it again on the same port for the bus outage tests: with its store (a
 * restart), with an empty store (a server that lost its data), with other flags (e.g.
 * `--user`/`--pass`, so clients are refused), or first started later than its clients.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * A server that can come and go on one port: `url` to connect to, `port`, JetStream `storeDir`,
 * `stop()`, and `start()` again on the same port (an outage the test makes on purpose), with its
 * store, an empty one, or other flags.
 */
export interface NatsServer {
  url: string;
  port: number;
  /** JetStream store dir of the current (or next) run; a new one after `start({ emptyStore: true })`. */
  storeDir: string;
  /** When the current run logged "Server is ready" (ms since epoch); NaN while stopped. */
  readyAt: number;
  /** True from a successful start until `stop()`. */
  readonly running: boolean;
  /**
   * Stops the server (SIGTERM, then SIGKILL after 5 s) and resolves once it exited; resolves at
   * once when it is not running. Removes the store dirs this helper made, unless `keepStore` (to
   * `start()` it again on the same store); a later `stop()` without it removes them.
   */
  stop(options?: { keepStore?: boolean }): Promise<void>;
  /**
   * Starts the stopped server on its port, on the same store dir, or with `emptyStore` on a new
   * empty one (streams, consumers and messages lost: a replaced server). `args` are added
   * command-line flags for this run only (e.g. `['--user', 'u', '--pass', 'p']`: clients without
   * them are refused). Resolves when it is ready; throws as {@link startNatsServer}, or when it is
   * running or starting.
   */
  start(options?: { emptyStore?: boolean; args?: string[] }): Promise<void>;
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
async function launch(
  binary: string,
  port: number,
  storeDir: string,
  args: readonly string[],
): Promise<{ stop: () => Promise<void> }> {
  const child = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let log = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`nats-server not ready within ${START_TIMEOUT_MS} ms:\n${log}`)),
        START_TIMEOUT_MS,
      );
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
 * With `stopped`, nothing is started: the port is only reserved by number (for a process
 * started before its server) until the handle's `start()`.
 * Throws when the binary is missing, the process exits, or it is not ready within 30 s (the
 * error holds its log).
 */
export async function startNatsServer(
  options: { port?: number; storeDir?: string; stopped?: boolean } = {},
): Promise<NatsServer> {
  const binary = natsServerBinary();
  if (!binary) throw new Error('nats-server is not installed (apt-get install -y nats-server)');
  const port = options.port ?? (await freePort());
  /** Store dirs this helper made (removed by a stop without `keepStore`). */
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
  /** The start under way (set as `start()` is called), awaited by a stop so no server outlives it. */
  let starting: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  /** One run on the current store (a new empty one with `emptyStore`), after a stop under way; throws when one is running or starting. */
  const run = (runOptions: { emptyStore?: boolean; args?: readonly string[] } = {}): Promise<void> => {
    if (server.running || starting)
      return Promise.reject(new Error(`nats-server on port ${port} is ${starting ? 'starting' : 'running'}`));
    const started = (async () => {
      await stopping;
      if (runOptions.emptyStore) storeDir = newStore();
      current = await launch(binary, port, storeDir, runOptions.args ?? []);
      server.readyAt = Date.now();
    })();
    starting = started.finally(() => {
      starting = undefined;
    });
    return starting;
  };
  const server: NatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    get storeDir() {
      return storeDir;
    },
    readyAt: Number.NaN,
    get running() {
      return current !== undefined && stopping === undefined;
    },
    stop: async (stopOptions = {}) => {
      // Again while a start that waited for the previous stop brought a server up.
      do {
        stopping ??= (async () => {
          await starting?.catch(() => undefined);
          await current?.stop();
          current = undefined;
          server.readyAt = Number.NaN;
          stopping = undefined;
        })();
        await stopping;
      } while (current || starting);
      if (!stopOptions.keepStore) removeOwned();
    },
    start: (startOptions = {}) => run(startOptions),
  };
  if (!options.stopped) {
    try {
      await run();
    } catch (err) {
      removeOwned();
      throw err;
    }
  }
  return server;
}
