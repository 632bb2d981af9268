/**
 * The multi-process profile on one machine (DESIGN §2): a `nats-server` with JetStream,
 * API processes, one projector/scheduler process and solver-node processes, all started from the
 * one entry point (the compiled `dist/service/main.js` when fresh: test/helpers/compiled-service.ts) with
 * `PACKING_ROLES`, sharing one SQLite event store file.
 * Each process is ready when it logs its known line ("listening" or "running"); no sleeps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import type { OrgLimits } from '../../domain/organization/limits.js';
import type { FaultPlan } from './faulty-event-store.js';
import { startNatsServer, type NatsServer } from './nats-server.js';
import { nodeChild } from './node-child.js';
import { serviceMainArgs } from './compiled-service.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 60_000;

/** One process of the cluster, its JSON log lines parsed, and how to wait for one. */
export interface ClusterProcess {
  name: string;
  child: ChildProcess;
  /** Base URL (API processes), else ''. */
  url: string;
  /** Parsed JSON log lines so far. */
  entries: Record<string, unknown>[];
  /** Every line of stdout and stderr. */
  lines: string[];
  /** Resolves with the first log entry (past or future) that `match` accepts; rejects after `timeoutMs`. */
  waitForLog(match: (entry: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** SIGTERM (graceful) or SIGKILL (crash); resolves with when it exited (ms since epoch). */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<number>;
  exited: Promise<number>;
}

/** The test-only entry point that injects store faults (FAULTS); the service's own is test/helpers/compiled-service.ts serviceMainArgs. */
const FAULTY_MAIN = 'test/helpers/faulty-service-main.ts';

/**
 * Starts one process of `roles` on `dataDir` with `env`; resolves once it is ready. With
 * `env.FAULTS` set it runs test/helpers/faulty-service-main.ts (store faults injected) instead
 * of the service's entry point.
 */
export async function startClusterProcess(
  name: string,
  roles: string,
  dataDir: string,
  env: Record<string, string>,
): Promise<ClusterProcess> {
  const main = nodeChild(env['FAULTS'] ? ['--import', 'tsx', FAULTY_MAIN] : serviceMainArgs());
  const child = spawn(...main, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PACKING_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      PACKING_ROLES: roles,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const entries: Record<string, unknown>[] = [];
  const lines: string[] = [];
  const waiters = new Set<{
    match: (e: Record<string, unknown>) => boolean;
    resolve: (e: Record<string, unknown>) => void;
  }>();
  const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(Date.now())));
  const onLine = (line: string): void => {
    lines.push(line);
    if (!line.startsWith('{')) return;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    entries.push(entry);
    for (const w of [...waiters]) {
      if (w.match(entry)) {
        waiters.delete(w);
        w.resolve(entry);
      }
    }
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);
  const waitForLog = (
    match: (e: Record<string, unknown>) => boolean,
    timeoutMs = START_TIMEOUT_MS,
  ): Promise<Record<string, unknown>> => {
    const seen = entries.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (e: Record<string, unknown>) => {
          clearTimeout(timer);
          resolve(e);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(
          new Error(
            `${name}: the awaited log line did not come within ${timeoutMs} ms; its log:\n${lines.slice(-40).join('\n')}`,
          ),
        );
      }, timeoutMs);
      waiters.add(waiter);
    });
  };
  let ready: Record<string, unknown>;
  try {
    ready = await Promise.race([
      waitForLog((e) => e['msg'] === 'listening' || e['msg'] === 'running'),
      exited.then(() => {
        throw new Error(`${name} exited before it was ready:\n${lines.join('\n')}`);
      }),
    ]);
  } catch (err) {
    // Never leave a process behind that was not ready in time.
    child.kill('SIGKILL');
    throw err;
  }
  return {
    name,
    child,
    url: typeof ready['port'] === 'number' ? `http://127.0.0.1:${ready['port']}` : '',
    entries,
    lines,
    waitForLog,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A running cluster. */
export interface LocalCluster {
  nats: NatsServer;
  dataDir: string;
  apis: ClusterProcess[];
  /** The projector/scheduler processes. */
  cores: ClusterProcess[];
  solvers: ClusterProcess[];
  /** Starts one more solver node. */
  addSolver(): Promise<ClusterProcess>;
  /** Stops every process (SIGTERM) and the NATS server. */
  stop(): Promise<void>;
}

export interface LocalClusterOptions {
  dataDir: string;
  apis?: number;
  /** Projector/scheduler processes (default 1; two prove that schedulers need no leader). */
  cores?: number;
  solvers?: number;
  /** Worker threads per solver node (default 1). */
  solverThreads?: number;
  /** NATS ack wait of solve commands, s (default 30). */
  ackWaitSeconds?: number;
  env?: Record<string, string>;
  /**
   * Store faults injected in every process (test/helpers/faulty-service-main.ts, FAULTS): each
   * process wraps its event store and drops its subscriptions / fails on its own timetable.
   */
  faults?: FaultPlan;
}

/**
 * Starts nats-server, `apis` API processes (default 2), `cores` projector/scheduler processes and
 * `solvers` solver nodes (default 2) on one SQLite event store in `dataDir`.
 */
export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  const nats = await startNatsServer();
  const env = {
    PACKING_BUS: 'nats',
    NATS_URL: nats.url,
    SOLVER_THREADS: String(options.solverThreads ?? 1),
    SOLVER_ACK_WAIT_SECONDS: String(options.ackWaitSeconds ?? 30),
    ...options.env,
    ...(options.faults ? { FAULTS: JSON.stringify(options.faults) } : {}),
  };
  const started: ClusterProcess[] = [];
  /**
   * Starts processes side by side; every one that came up is kept in `started` even when another
   * failed, so the cleanup below stops it (a process left running keeps the test file alive).
   */
  const startTogether = async (
    count: number,
    name: (i: number) => string,
    roles: string,
  ): Promise<ClusterProcess[]> => {
    const results = await Promise.allSettled(
      Array.from({ length: count }, (_, i) => startClusterProcess(name(i), roles, options.dataDir, env)),
    );
    const up = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    started.push(...up);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return up;
  };
  try {
    const cores = await startTogether(options.cores ?? 1, (i) => `core-${i + 1}`, 'projector,scheduler');
    const apis = await startTogether(options.apis ?? 2, (i) => `api-${i + 1}`, 'api');
    let solverCount = 0;
    const addSolver = async (): Promise<ClusterProcess> => {
      const node = await startClusterProcess(`solver-${++solverCount}`, 'solver', options.dataDir, env);
      started.push(node);
      solvers.push(node);
      return node;
    };
    const solvers: ClusterProcess[] = [];
    for (let i = 0; i < (options.solvers ?? 2); i++) await addSolver();
    return {
      nats,
      dataDir: options.dataDir,
      apis,
      cores,
      solvers,
      addSolver,
      stop: async () => {
        await Promise.all(started.map((p) => p.stop('SIGTERM')));
        await nats.stop();
      },
    };
  } catch (err) {
    await Promise.all(started.map((p) => p.stop('SIGKILL')));
    await nats.stop();
    throw err;
  }
}

/**
 * Writes an organization (1,000 credits, rate limits out of the way, `limits`) and a key with
 * every scope straight into the SQLite event store of `dataDir`, as the admin command does.
 */
export async function provisionClusterOrganization(
  dataDir: string,
  name: string,
  limits: Partial<OrgLimits> = {},
): Promise<{ orgId: string; key: string }> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    const now = new Date().toISOString();
    const org = await provisionOrganization(store, {
      name,
      ownerName: 'Owner',
      subscriptionCredits: 1000,
      expiresAt: '2099-01-01T00:00:00.000Z',
      now,
      limits: { rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 }, ...limits },
    });
    const key = await createApiKey(store, { orgId: org.orgId, memberId: org.ownerId, name: 'cluster', now });
    return { orgId: org.orgId, key: key.secret };
  } finally {
    await store.close();
  }
}
