/**
 * The embedded profile, composed (DESIGN §2): SQLite event store under the data dir, in-memory
 * read models rebuilt by replay, in-process bus, solver on worker threads, all in one process.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { pino, type Logger } from 'pino';
import { InProcessBus } from '../adapters/in-process/bus.js';
import { MemoryReadStore } from '../adapters/memory/read-store.js';
import { SqliteEventStore } from '../adapters/sqlite/event-store.js';
import { JobProcess } from '../domain/job/process.js';
import { deleteExpiredBodies } from '../domain/job/retention.js';
import { ProjectProcess } from '../domain/project/process.js';
import { DEFAULT_LIMITS } from '../domain/organization/limits.js';
import type { RecordedEvent, Subscription } from '../domain/ports/event-store.js';
import { BALANCES, type BalanceDocument } from '../projections/balances/projection.js';
import { jobsProjection } from '../projections/jobs/projection.js';
import { balancesProjection } from '../projections/balances/projection.js';
import { ORGANIZATIONS, organizationsProjection, type OrganizationDocument } from '../projections/organizations/projection.js';
import { ProjectionRunner } from '../projections/runner.js';
import { JOBS, type JobDocument } from '../projections/jobs/job-document.js';
import { PROJECTS, type ProjectDocument } from '../projections/projects/project-document.js';
import { templatesProjection } from '../projections/templates/projection.js';
import { vehiclesProjection } from '../projections/vehicles/projection.js';
import { usageProjection } from '../projections/usage/projection.js';
import { projectsProjection } from '../projections/projects/projection.js';
import { SolverNode } from '../solver/node.js';
import { Solver } from '../solver/solve.js';
import { createApp } from './app.js';
import { createApiKey, provisionOrganization } from './provision.js';
import type { Services } from './services.js';

export interface ServiceConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Worker threads of the search (default: the cores available). */
  solverThreads?: number;
  publicBaseUrl?: string;
  log?: Logger;
  /** PEM certificate (chain) and private key: the service then speaks HTTPS only. */
  tls?: { cert: Buffer; key: Buffer };
  /** How long a job may wait for a compute slot before it fails with queue_timeout, ms (default 30 min). */
  queueTimeoutMs?: number;
}

/** Default queue timeout: 20 queued jobs of up to 90 s each fit in it with room to spare. */
export const DEFAULT_QUEUE_TIMEOUT_MS = 30 * 60_000;

export interface RunningService {
  url: string;
  services: Services;
  close(): Promise<void>;
}

/** The HMAC key of PDF links: made once per data dir and kept there. */
function signingKey(dataDir: string): Buffer {
  const file = join(dataDir, 'signing-key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}

/** Starts everything; resolves once `GET /health` answers 200. */
export async function startService(config: ServiceConfig): Promise<RunningService> {
  const log = config.log ?? pino({ level: process.env['LOG_LEVEL'] ?? 'info' });
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  const reads = new MemoryReadStore();
  const bus = new InProcessBus();
  const projections = new ProjectionRunner(store, reads, [organizationsProjection, balancesProjection, jobsProjection, usageProjection, vehiclesProjection, templatesProjection, projectsProjection]);
  let ready = false;
  const clock = (): string => new Date().toISOString();
  const services: Services = {
    store,
    reads,
    projections,
    clock,
    log,
    signingKey: signingKey(dataDir),
    ...(config.publicBaseUrl ? { publicBaseUrl: config.publicBaseUrl } : {}),
    isReady: () => ready,
  };

  const started = Date.now();
  await projections.catchUp();
  log.info({ position: projections.position, ms: Date.now() - started }, 'read models rebuilt from the event log');

  const jobProcess = new JobProcess({
    store,
    bus,
    clock,
    limitsOf: async (orgId) => (await reads.collection<OrganizationDocument>(ORGANIZATIONS).get(orgId))?.limits ?? DEFAULT_LIMITS,
  });
  const projectProcess = new ProjectProcess({ store, clock });
  // Reactions start at the head as it was before the repair, so they see the repair's own events.
  const reactFrom = await store.headPosition();
  const balances = await reads.collection<BalanceDocument>(BALANCES).find();
  const repaired = await jobProcess.recover(balances.map((b) => ({ orgId: b.id, jobIds: Object.keys(b.ledger.reservations) })));
  if (repaired.restarted > 0) log.warn(repaired, 'jobs open at start-up failed with server_restarted');
  const reactions: Subscription<RecordedEvent> = store.subscribeAll(reactFrom);
  const queueTimeoutMs = config.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS;
  // Holds of jobs admitted but never queued, by when they were first seen (released after 30 s).
  const orphanSince = new Map<string, number>();
  /**
   * The repair tick (DESIGN §4.4): queue timeouts, retention of job bodies, and every step a
   * failed reaction or a stop between two appends left undone — settlements, project packs, free
   * compute slots, holds of jobs that were never queued. Every step is idempotent.
   */
  const repair = async (): Promise<void> => {
    const jobs = reads.collection<JobDocument>(JOBS);
    const queued = await jobs.find({ where: { status: 'queued' } });
    const expired = await jobProcess.expireQueued(queued.map((j) => ({ jobId: j.id, createdAt: j.createdAt })), queueTimeoutMs);
    if (expired > 0) log.warn({ expired }, 'queued jobs failed with queue_timeout');
    const settleAfter = Date.now() - 5_000;
    for (const status of ['succeeded', 'failed', 'canceled'] as const) {
      for (const job of await jobs.find({ where: { status, chargedMicros: null } })) {
        if (job.finishedAt && Date.parse(job.finishedAt) < settleAfter) await jobProcess.settle(job.id);
      }
    }
    // Retention: bodies of final jobs past expires_at are deleted (spec Limits rule 4).
    const ended = [
      ...(await jobs.find({ where: { status: 'succeeded' } })),
      ...(await jobs.find({ where: { status: 'failed' } })),
      ...(await jobs.find({ where: { status: 'canceled' } })),
    ];
    const nowIso = clock();
    // A failure here must not hold up the steps below: logged, retried next tick.
    try {
      const forgotten = await deleteExpiredBodies(store, ended.filter((j) => !j.bodyDeletedAt && j.expiresAt <= nowIso), nowIso);
      if (forgotten > 0) log.info({ jobs: forgotten }, 'deleted request and result bodies past retention');
    } catch (err) {
      log.error({ err }, 'retention step failed');
    }
    for (const project of await reads.collection<ProjectDocument>(PROJECTS).find()) {
      const jobId = project.packingJobId;
      const job = jobId ? await jobs.get(jobId) : undefined;
      if (job?.finishedAt && Date.parse(job.finishedAt) < settleAfter) await projectProcess.reconcileJob(job.id);
    }
    const now = Date.now();
    for (const balance of await reads.collection<BalanceDocument>(BALANCES).find()) {
      if (balance.ledger.queue.length > 0) await jobProcess.startJobs(balance.id);
      for (const jobId of Object.keys(balance.ledger.reservations)) {
        if (await jobs.get(jobId)) {
          orphanSince.delete(jobId);
          continue;
        }
        const since = orphanSince.get(jobId) ?? now;
        orphanSince.set(jobId, since);
        if (now - since > 30_000) {
          await jobProcess.releaseOrphan(balance.id, jobId);
          orphanSince.delete(jobId);
          log.warn({ jobId }, 'released the credits held for a job that was never queued');
        }
      }
    }
  };
  let repairing = false;
  const queueTimer = setInterval(() => {
    if (repairing) return;
    repairing = true;
    void repair()
      .catch((err: unknown) => log.error({ err }, 'repair tick failed'))
      .finally(() => {
        repairing = false;
      });
  }, Math.max(50, Math.min(15_000, queueTimeoutMs / 4)));
  const reacting = (async () => {
    for await (const event of reactions) {
      try {
        await jobProcess.react(event);
        await projectProcess.react(event);
      } catch (err) {
        log.error({ err, position: event.position, type: event.type }, 'process manager step failed');
      }
    }
  })();

  const solver = new Solver(config.solverThreads ? { threads: config.solverThreads } : {});
  const node = new SolverNode({ store, bus, solver, clock, log, concurrency: 1 });
  node.start();

  if ((await reads.collection<OrganizationDocument>(ORGANIZATIONS).find({ limit: 1 })).length === 0) {
    await createDemoOrganization(services, dataDir);
  }

  const app = createApp(services);
  // HTTPS when given a certificate (spec: JSON over HTTPS); plain HTTP for a TLS-terminating proxy.
  const server: Server = config.tls ? createHttpsServer({ cert: config.tls.cert, key: config.tls.key }, app) : createHttpServer(app);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(config.port, config.host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const scheme = config.tls ? 'https' : 'http';
  const address = server.address() as AddressInfo;
  const url = `${scheme}://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  ready = true;
  log.info({ url, scheme, port: address.port, dataDir }, 'listening');

  return {
    url,
    services,
    close: async () => {
      ready = false;
      await new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections();
      await node.close();
      await solver.close();
      clearInterval(queueTimer);
      reactions.close();
      await reacting;
      await projections.stop();
      await bus.close();
      await store.close();
    },
  };
}

/**
 * First start on a fresh data dir: a demo organization (active API subscription, 1,000 credits
 * for a year, the spec's default limits) and one key with every scope, printed once and written
 * to `<data dir>/demo-api-key`.
 */
async function createDemoOrganization(services: Services, dataDir: string): Promise<void> {
  const now = services.clock();
  const expiresAt = new Date(Date.parse(now) + 365 * 86_400_000).toISOString();
  const org = await provisionOrganization(services.store, { name: 'Demo Logistics', ownerName: 'Demo Owner', subscriptionCredits: 1000, expiresAt, now });
  const key = await createApiKey(services.store, { orgId: org.orgId, memberId: org.ownerId, name: 'demo', now });
  await services.projections.waitFor(key.position);
  writeFileSync(join(dataDir, 'demo-api-key'), `${key.secret}\n`, { mode: 0o600 });
  services.log.info({ orgId: org.orgId, keyFile: join(dataDir, 'demo-api-key') }, 'demo organization created');
  // Shown once, on the console, as the spec wants for new keys.
  process.stdout.write(`\nDemo API key (shown once, also in ${join(dataDir, 'demo-api-key')}):\n  ${key.secret}\n\n`);
}
