/**
 * Starts a real `nats-server` with JetStream for tests (DESIGN §2: tests start their own server on
 * a free port with a temporary store; `.ci/run` installs Debian's nats-server when missing).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A running server: `url` to connect to, `port`, JetStream `storeDir`, and `stop()`. */
export interface NatsServer {
  url: string;
  port: number;
  storeDir: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s); removes the store dir only if this helper made it. */
  stop(): Promise<void>;
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

/**
 * Starts `nats-server -js -p <port> -sd <storeDir>` and resolves when it logs "Server is ready".
 * `port` defaults to a free one, `storeDir` to a new temporary dir; pass both again to restart a
 * server on the same store. Throws when the binary is missing, the process exits, or it is not
 * ready within 10 s (the error holds its log).
 */
export async function startNatsServer(options: { port?: number; storeDir?: string } = {}): Promise<NatsServer> {
  const binary = natsServerBinary();
  if (!binary) throw new Error('nats-server is not installed (apt-get install -y nats-server)');
  const port = options.port ?? (await freePort());
  const ownsStore = options.storeDir === undefined;
  const storeDir = options.storeDir ?? mkdtempSync(join(tmpdir(), 'nats-js-'));
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
    if (ownsStore) rmSync(storeDir, { recursive: true, force: true });
    throw err;
  }
  let stopping: Promise<void> | undefined;
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await exited;
          clearTimeout(killer);
        }
        if (ownsStore) rmSync(storeDir, { recursive: true, force: true });
      })()),
  };
}
