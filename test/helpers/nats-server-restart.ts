/**
 * A `nats-server` for bus outage tests (distributed profile) that can be stopped and started
 * again on the SAME port: with its store (a restart), with an empty store (a server that lost its
 * data), or with other flags (e.g. `--user`/`--pass`, so clients are refused). Each start waits
 * for "Server is ready". test/helpers/nats-server.ts starts the plain one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, natsServerBinary } from './nats-server.js';

/** A server that can come and go on one port. */
export interface RestartableNatsServer {
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** JetStream store dir of the running (or last) server. */
  readonly storeDir: string;
  /** Starts the server (it must be stopped); `emptyStore` gives it a new, empty store dir; `args` are added flags. */
  start(options?: { emptyStore?: boolean; args?: string[] }): Promise<void>;
  /** Stops the server (SIGTERM, SIGKILL after 5 s); resolves at once when it is not running. */
  stop(): Promise<void>;
  /** Stops the server and removes every store dir made. */
  dispose(): Promise<void>;
}

const READY_LINE = 'Server is ready';
const START_TIMEOUT_MS = 30_000;

/**
 * A restartable server on `port` (default: a free one), started before this resolves unless
 * `stopped` (then the port is only reserved by number: call `start()`).
 */
export async function startRestartableNatsServer(options: { port?: number; stopped?: boolean } = {}): Promise<RestartableNatsServer> {
  const binary = natsServerBinary();
  if (!binary) throw new Error('nats-server is not installed (apt-get install -y nats-server)');
  const port = options.port ?? (await freePort());
  const stores: string[] = [];
  let storeDir = '';
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    running.kill('SIGTERM');
    const killer = setTimeout(() => running.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };

  const start = async (startOptions: { emptyStore?: boolean; args?: string[] } = {}): Promise<void> => {
    if (child) throw new Error('nats-server is already running');
    if (!storeDir || startOptions.emptyStore) {
      storeDir = mkdtempSync(join(tmpdir(), 'nats-js-restart-'));
      stores.push(storeDir);
    }
    const started = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir, ...(startOptions.args ?? [])], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
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
        started.stdout!.on('data', onData);
        started.stderr!.on('data', onData);
        started.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`nats-server exited (${code ?? signal}) before it was ready:\n${log}`));
        });
        started.once('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      });
    } catch (err) {
      started.kill('SIGKILL');
      child = undefined;
      throw err;
    }
  };

  if (!options.stopped) await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    get storeDir() {
      return storeDir;
    },
    start,
    stop,
    async dispose() {
      await stop();
      for (const dir of stores) rmSync(dir, { recursive: true, force: true });
    },
  };
}
