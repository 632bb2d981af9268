/**
 * The composition root (DESIGN §2): opens the adapters the profile names and starts the roles it
 * names. The embedded default is every role in one process on SQLite, in-memory read models and
 * the in-process bus; the multi-process and distributed profiles split the roles over processes
 * that share the event store and talk over NATS.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { pino, type Logger } from 'pino';
import { makeDataDir } from '../adapters/sqlite/data-dir.js';
import { JobProcess } from '../domain/job/process.js';
import { RepairTick, repairIntervalMs } from '../domain/job/repair.js';
import { ProjectProcess } from '../domain/project/process.js';
import { DEFAULT_LIMITS } from '../domain/organization/limits.js';
import type { Bus } from '../domain/ports/bus.js';
import type { NatsBusStatus } from '../adapters/nats/bus.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { stepOutageLog } from '../domain/log/outage-log.js';
import { retryStep } from '../domain/log/retry-step.js';
import { IDEMPOTENCY_TIMINGS } from '../domain/job/idempotency-claim.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../projections/organizations/projection.js';
import { PROJECTIONS } from '../projections/all.js';
import { ProjectionRunner } from '../projections/runner.js';
import { CheckpointFollower } from '../projections/follower.js';
import type { ReadModelProgress } from '../projections/progress.js';
import { repairReads } from '../projections/jobs/repair-reads.js';
import { DEFAULT_SOLVER_CONCURRENCY, IN_PROCESS_PREFETCH, SolverNode } from './solver-node/node.js';
import { Solver } from '../solver/solve.js';
import { createApp } from '../api/http/app.js';
import {
  DEFAULT_DEPENDENCY_GRACE_MS,
  DependencyHealth,
  neededBy,
  type Dependency,
} from '../adapters/health/dependency-health.js';
import { HEARTBEAT_INTERVAL_MS, startHeartbeat } from './heartbeat.js';
import { watchEventStore, watchReadStore } from '../adapters/health/watched-stores.js';
import { openAdapters, type Adapters } from './open-adapters.js';
import { EMBEDDED_PROFILE, isEmbedded, ProfileError, type Profile } from './profile.js';
import { createApiKey, provisionOrganization } from '../application/provision.js';
import type { Services } from '../api/http/services.js';
import { signingKey } from './signing-key.js';
import { browsableUrl, removeServiceAddress, writeServiceAddress } from './service-address.js';
import { answerStarting } from './starting-responder.js';
import { DEFAULT_SIGN_IN_DELAYS, type SignInDelays } from '../api/web-app/sign-in-limit.js';
import { parseTrustProxy } from '../api/http/trust-proxy.js';
import { startWebhooks } from './webhooks.js';
import { startReactions } from './scheduler-reactions.js';
import { DEFAULT_RETRY_POLICY } from '../domain/webhook/retry-policy.js';
import type { WebhookSender } from '../domain/ports/webhook-sender.js';
import type { MongoReadStore } from '../adapters/mongodb/read-store.js';

export interface ServiceConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Roles and adapters (default: the embedded profile, every role in this process). */
  profile?: Profile;
  /** Worker threads of the search (default: the cores available). */
  solverThreads?: number;
  /** Jobs computing at once on this process's solver node (default DEFAULT_SOLVER_CONCURRENCY). */
  solverConcurrency?: number;
  publicBaseUrl?: string;
  log?: Logger;
  /** PEM certificate (chain) and private key: the service then speaks HTTPS only. */
  tls?: { cert: Buffer; key: Buffer };
  /** How long a job may wait for a compute slot before it fails with queue_timeout, ms (default 30 min). */
  queueTimeoutMs?: number;
  /** File holding the hex HMAC key of PDF links (default `<data dir>/signing-key`, made when missing). */
  signingKeyFile?: string;
  /**
   * File written every 5 s while the process is healthy (health checks of processes without
   * HTTP; service/heartbeat.ts): no longer refreshed once a dependency its roles need has been down
   * past the grace period, and its content says which.
   */
  heartbeatFile?: string;
  /** Time between two heartbeat writes, ms (default HEARTBEAT_INTERVAL_MS, 5 s; tests shorten it). */
  heartbeatIntervalMs?: number;
  /**
   * How long a dependency the roles need may be down before `/health` answers 503 and the
   * heartbeat stops (adapters/health/dependency-health.ts), ms; default: the DEPENDENCY_GRACE_MS variable,
   * else 60 000.
   */
  dependencyGraceMs?: number;
  /** Time between two probes of a store that is down, ms (default DEFAULT_PROBE_MS, 2 s; adapters/health/watched-stores.ts). */
  dependencyProbeMs?: number;
  /** Trusted proxies, TRUST_PROXY syntax (api/http/trust-proxy.ts); default: the TRUST_PROXY variable, else none. */
  trustProxy?: string;
  /** Token GET /metrics requires as a bearer; default: the METRICS_TOKEN variable, else none. */
  metricsToken?: string;
  /**
   * Webhooks (service/webhooks.ts); each setting defaults to its variable: WEBHOOK_ALLOW_PRIVATE_TARGETS
   * (default false), WEBHOOK_RETRY_BASE_MS (default 30000), WEBHOOK_POLL_MS (default 1000).
   */
  webhooks?: { allowPrivateTargets?: boolean; retryBaseMs?: number; pollMs?: number; sender?: WebhookSender };
  /**
   * Idempotency-Key claims (domain/job/idempotency-claim.ts): how old a pending claim must be to
   * be taken over, and how long a request waits for a pending claim of its body, ms. Defaults:
   * the IDEMPOTENCY_PENDING_STALE_MS and IDEMPOTENCY_PENDING_WAIT_MS variables, else
   * IDEMPOTENCY_TIMINGS (30 s and 10 s).
   */
  idempotency?: { pendingStaleAfterMs?: number; pendingWaitMs?: number };
  /**
   * Sign-in delays of an email that failed often (api/web-app/sign-in-limit.ts), ms; each defaults to its
   * variable SIGN_IN_DELAY_BASE_MS (default 1000) and SIGN_IN_DELAY_MAX_MS (default 10000).
   */
  signInDelays?: { baseMs?: number; maxMs?: number };
  /** Wraps the event store this process uses (tests inject faults around the port); default none. */
  decorateStore?: (store: EventStore) => EventStore;
}

/** Default time between two looks for due webhook retries, ms. */
export const DEFAULT_WEBHOOK_POLL_MS = 1000;

/** A positive whole number of ms from `name`, or `fallback` when unset; ProfileError otherwise. */
function msSetting(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new ProfileError(name, `${name} must be a whole number of milliseconds ≥ 1, got "${raw}"`);
  return n;
}

/** The webhook settings of `config`, filled from the environment. Throws ProfileError for a bad variable. */
function webhookSettings(config: ServiceConfig): {
  allowPrivateTargets: boolean;
  retryBaseMs: number;
  pollMs: number;
  sender?: WebhookSender;
} {
  const env = process.env;
  const given = config.webhooks ?? {};
  const rawAllow = env['WEBHOOK_ALLOW_PRIVATE_TARGETS']?.trim();
  if (rawAllow !== undefined && rawAllow !== '' && rawAllow !== 'true' && rawAllow !== 'false') {
    throw new ProfileError(
      'WEBHOOK_ALLOW_PRIVATE_TARGETS',
      `WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "${rawAllow}"`,
    );
  }
  return {
    allowPrivateTargets: given.allowPrivateTargets ?? rawAllow === 'true',
    retryBaseMs:
      given.retryBaseMs ??
      msSetting('WEBHOOK_RETRY_BASE_MS', env['WEBHOOK_RETRY_BASE_MS'], DEFAULT_RETRY_POLICY.baseMs),
    pollMs: given.pollMs ?? msSetting('WEBHOOK_POLL_MS', env['WEBHOOK_POLL_MS'], DEFAULT_WEBHOOK_POLL_MS),
    ...(given.sender ? { sender: given.sender } : {}),
  };
}

/** The Idempotency-Key timings of `config`, filled from the environment. Throws ProfileError for a bad variable. */
function idempotencySettings(config: ServiceConfig): { pendingStaleAfterMs: number; pendingWaitMs: number } {
  const env = process.env;
  return {
    pendingStaleAfterMs:
      config.idempotency?.pendingStaleAfterMs ??
      msSetting(
        'IDEMPOTENCY_PENDING_STALE_MS',
        env['IDEMPOTENCY_PENDING_STALE_MS'],
        IDEMPOTENCY_TIMINGS.pendingStaleAfterMs,
      ),
    pendingWaitMs:
      config.idempotency?.pendingWaitMs ??
      msSetting('IDEMPOTENCY_PENDING_WAIT_MS', env['IDEMPOTENCY_PENDING_WAIT_MS'], IDEMPOTENCY_TIMINGS.pendingWaitMs),
  };
}

/** The sign-in delays of `config`, filled from the environment. Throws ProfileError for a bad variable. */
function signInDelaySettings(config: ServiceConfig): SignInDelays {
  const env = process.env;
  const baseMs =
    config.signInDelays?.baseMs ??
    msSetting('SIGN_IN_DELAY_BASE_MS', env['SIGN_IN_DELAY_BASE_MS'], DEFAULT_SIGN_IN_DELAYS.baseMs);
  const maxMs =
    config.signInDelays?.maxMs ??
    msSetting('SIGN_IN_DELAY_MAX_MS', env['SIGN_IN_DELAY_MAX_MS'], Math.max(baseMs, DEFAULT_SIGN_IN_DELAYS.maxMs));
  if (maxMs < baseMs)
    throw new ProfileError(
      'SIGN_IN_DELAY_MAX_MS',
      `SIGN_IN_DELAY_MAX_MS (${maxMs}) must be at least SIGN_IN_DELAY_BASE_MS (${baseMs})`,
    );
  return { baseMs, maxMs };
}

/** Default queue timeout: 20 queued jobs of up to 90 s each fit in it with room to spare. */
export const DEFAULT_QUEUE_TIMEOUT_MS = 30 * 60_000;

export { HEARTBEAT_INTERVAL_MS };

export { PROJECTIONS } from '../projections/all.js';

export interface RunningService {
  /** Base URL of the HTTP API; '' when the process has no `api` role. */
  url: string;
  services: Services;
  close(): Promise<void>;
}

/**
 * Starts the roles of the profile; resolves once they run (with the api role: `GET /health`
 * answers 200). With the api role the port is bound first, before anything is read or written in
 * the data dir: a port in use rejects with the listen error (`code` EADDRINUSE) and leaves the
 * data dir untouched, and while the read models catch up every request gets `503 api_disabled`
 * with Retry-After (service/starting-responder.ts), not a refused connection.
 */
export async function startService(config: ServiceConfig): Promise<RunningService> {
  const trustProxy = parseTrustProxy(config.trustProxy ?? process.env['TRUST_PROXY']);
  const webhooks = webhookSettings(config);
  const idempotency = idempotencySettings(config);
  const signInDelays = signInDelaySettings(config);
  const log = config.log ?? pino({ level: process.env['LOG_LEVEL'] ?? 'info' });
  const profile = config.profile ?? EMBEDDED_PROFILE;
  const roles = profile.roles;
  const health = dependencyHealth(config, profile, log);
  const dataDir = resolve(config.dataDir);

  let handle: RequestListener = answerStarting;
  let server: Server | undefined;
  let url = '';
  if (roles.has('api')) {
    const forward: RequestListener = (req, res) => handle(req, res);
    // HTTPS when given a certificate (spec: JSON over HTTPS); plain HTTP for a TLS-terminating proxy.
    const listening: Server = config.tls
      ? createHttpsServer({ cert: config.tls.cert, key: config.tls.key }, forward)
      : createHttpServer(forward);
    await new Promise<void>((ok, fail) => {
      listening.once('error', fail);
      listening.listen(config.port, config.host, () => {
        listening.off('error', fail);
        ok();
      });
    });
    server = listening;
    const address = listening.address() as AddressInfo;
    url = `${config.tls ? 'https' : 'http'}://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  }
  const closeServer = async (): Promise<void> => {
    if (!server) return;
    const closing = server;
    await new Promise<void>((ok) => closing.close(() => ok()));
    closing.closeAllConnections();
  };

  const stops: (() => Promise<void> | void)[] = [];
  /** Told each time the bus reports it is up (again). */
  const busBack = new Set<() => void>();
  let adapters: Adapters | undefined;
  try {
    const made = makeDataDir(dataDir);
    if (made.warning) log.warn({ dataDir, mode: made.mode.toString(8) }, made.warning);
    // The NATS bus back after an outage: the scheduler repairs at once (startScheduler).
    const onBusStatus = (status: NatsBusStatus): void => {
      health.busStatus(status);
      if (status.state === 'up') for (const listener of busBack) listener();
    };
    adapters = await openAdapters(profile, dataDir, { log, onBusStatus });
  } catch (err) {
    await closeServer();
    throw err;
  }
  const opened = adapters;
  const { bus } = opened;
  // The watchers sit outside a test's decorator, so they see the faults it injects.
  const probe = config.dependencyProbeMs !== undefined ? { probeMs: config.dependencyProbeMs } : {};
  const store = watchEventStore(
    config.decorateStore ? config.decorateStore(opened.store) : opened.store,
    health,
    probe,
  );
  const reads = watchReadStore(opened.reads, health, probe);
  const clock = (): string => new Date().toISOString();
  // Read models: a process that reads them and holds them in its own memory projects them
  // itself; with a shared (SQLite file or MongoDB) read store only the projector writes them and
  // the others follow.
  const needsReads = roles.has('api') || roles.has('scheduler');
  const writesReads =
    profile.readStore.kind === 'memory' ? needsReads || roles.has('projector') : roles.has('projector');
  // MongoDB read models are versioned by generation: the projector rebuilds a fresh one when
  // READ_MODEL_VERSION changed, the others follow the stamp (service/mongo-read-models.ts).
  const mongoReads = profile.readStore.kind === 'mongodb' ? await import('./mongo-read-models.js') : undefined;
  const projections: ReadModelProgress = writesReads
    ? mongoReads
      ? new mongoReads.MongoProjector(store, opened.reads as MongoReadStore, { log })
      : new ProjectionRunner(store, reads, [...PROJECTIONS], { log })
    : new CheckpointFollower(
        store,
        reads,
        PROJECTIONS.map((p) => p.name),
        { log },
      );
  let ready = false;
  const services: Services = {
    store,
    reads,
    projections,
    clock,
    log,
    signingKey: roles.has('api') ? signingKey(dataDir, config.signingKeyFile) : Buffer.alloc(0),
    ...(config.publicBaseUrl ? { publicBaseUrl: config.publicBaseUrl } : {}),
    secureCookies: Boolean(config.tls) || (config.publicBaseUrl ?? '').startsWith('https://'),
    isReady: () => ready,
    health,
    sharedLog: !isEmbedded(profile),
    rateCounters: opened.rateCounters,
    metricsToken: config.metricsToken ?? process.env['METRICS_TOKEN'],
    webhookAllowPrivateTargets: webhooks.allowPrivateTargets,
    idempotency,
    signInDelays,
  };
  const close = async (): Promise<void> => {
    ready = false;
    await closeServer();
    // Solver first (it hands back what it runs), then the scheduler, then the read models.
    for (const stop of [...stops].reverse()) await stop();
    await opened.close();
    store.stopWatching();
    reads.stopWatching();
  };

  try {
    if (mongoReads && !writesReads && needsReads)
      stops.push(await mongoReads.followGenerations(opened.reads as MongoReadStore, { log }));
    if (writesReads || needsReads) {
      const started = Date.now();
      await projections.catchUp();
      const { position, resumedFrom } = projections;
      log.info(
        {
          position,
          resumedFrom,
          replayed: position - resumedFrom,
          ms: Date.now() - started,
          writer: writesReads,
          readStore: profile.readStore.kind,
        },
        'read models caught up with the event log',
      );
      stops.push(() => projections.stop());
    }

    if (roles.has('scheduler')) {
      stops.push(
        await startScheduler(
          services,
          profile,
          bus!,
          config.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS,
          idempotency.pendingStaleAfterMs,
          busBack,
        ),
      );
      // Webhooks are sent by the scheduler role; with several schedulers each attempt is claimed by one (domain/webhook/deliver.ts).
      stops.push(
        await startWebhooks(services, {
          baseUrl: config.publicBaseUrl ?? (url || 'http://localhost'),
          allowPrivateTargets: webhooks.allowPrivateTargets,
          policy: { ...DEFAULT_RETRY_POLICY, baseMs: webhooks.retryBaseMs },
          pollMs: webhooks.pollMs,
          ...(webhooks.sender ? { sender: webhooks.sender } : {}),
        }),
      );
    }

    if (roles.has('solver')) {
      const concurrency = config.solverConcurrency ?? DEFAULT_SOLVER_CONCURRENCY;
      const solver = new Solver({ ...(config.solverThreads ? { threads: config.solverThreads } : {}), concurrency });
      // The in-process bus hands every waiting job to the node's fair queue; from NATS a node takes as many more as it computes.
      const prefetch = profile.bus.kind === 'inproc' ? IN_PROCESS_PREFETCH : concurrency;
      const node = new SolverNode({ store, bus: bus!, solver, clock, log, concurrency, prefetch });
      void node
        .start()
        .then(() =>
          log.info(
            { threads: solver.threads, poolThreads: solver.poolThreads, concurrency, prefetch },
            'solver node consuming solve commands',
          ),
        );
      stops.push(async () => {
        await node.close();
        await solver.close();
      });
    }

    if (config.heartbeatFile)
      stops.push(startHeartbeat(config.heartbeatFile, health, config.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS));

    if (roles.has('api')) {
      if (
        isEmbedded(profile) &&
        (await reads.collection<OrganizationDocument>(ORGANIZATIONS).find({ limit: 1 })).length === 0
      ) {
        await createDemoOrganization(services, dataDir);
      }
      handle = createApp(services, { trustProxy });
      ready = true;
      announceAddress(dataDir, config.publicBaseUrl ?? browsableUrl(url), log);
      stops.push(() => removeServiceAddress(dataDir, process.pid)); // first of the stops (they run in reverse)
      log.info(
        {
          url,
          scheme: config.tls ? 'https' : 'http',
          port: (server!.address() as AddressInfo).port,
          dataDir,
          roles: [...roles],
        },
        'listening',
      );
    } else {
      ready = true;
      log.info({ roles: [...roles], dataDir }, 'running');
    }
  } catch (err) {
    await close();
    throw err;
  }

  return { url, services, close };
}

/** Writes the service's address into the data dir for the operator's tools (service/service-address.ts); a failure is only logged. */
function announceAddress(dataDir: string, url: string, log: Logger): void {
  try {
    writeServiceAddress(dataDir, { url: url.replace(/\/+$/, ''), pid: process.pid });
  } catch (err) {
    log.warn(
      { err, dataDir },
      'could not write the service address into the data dir (admin invite prints a default address)',
    );
  }
}

/**
 * The dependency states of this process (adapters/health/dependency-health.ts): the stores always, the bus
 * with the scheduler or solver role. Grace period from `config`, else DEPENDENCY_GRACE_MS, else
 * 60 s. Throws ProfileError for a bad variable.
 */
function dependencyHealth(config: ServiceConfig, profile: Profile, log: Logger): DependencyHealth {
  const used: Dependency[] = ['event_store', 'read_store'];
  if (profile.roles.has('scheduler') || profile.roles.has('solver')) used.push('bus');
  return new DependencyHealth({
    used,
    needed: neededBy(profile.roles),
    graceMs:
      config.dependencyGraceMs ??
      msSetting('DEPENDENCY_GRACE_MS', process.env['DEPENDENCY_GRACE_MS'], DEFAULT_DEPENDENCY_GRACE_MS),
    log,
  });
}

/**
 * The scheduler role (DESIGN §4): the job and project process managers react to stored events;
 * start-up recovery; the repair tick (domain/job/repair.ts). Returns its stop.
 */
async function startScheduler(
  services: Services,
  profile: Profile,
  bus: Bus,
  queueTimeoutMs: number,
  pendingClaimStaleMs: number,
  busBack: Set<() => void>,
): Promise<() => Promise<void>> {
  const { store, reads, clock, log } = services;
  const jobProcess = new JobProcess({
    store,
    bus,
    clock,
    limitsOf: async (orgId) =>
      (await reads.collection<OrganizationDocument>(ORGANIZATIONS).get(orgId))?.limits ?? DEFAULT_LIMITS,
  });
  const projectProcess = new ProjectProcess({ store, clock });
  // Reactions start at the head as it was before the repair, so they see the repair's own events.
  const reactFrom = await retryStep(
    () => store.headPosition(),
    stepOutageLog(log, 'scheduler reactions', 'read the head position'),
  );
  if (isEmbedded(profile)) {
    // The solver ran in this process (the data dir lock proves no other instance lives), so
    // nothing is still computing: open jobs fail with server_restarted and cost nothing.
    const ledgers = await repairReads(reads).ledgers();
    const repaired = await jobProcess.recover(ledgers.map((l) => ({ orgId: l.orgId, jobIds: l.heldJobIds })));
    if (repaired.restarted > 0) log.warn(repaired, 'jobs open at start-up failed with server_restarted');
  }
  // Otherwise solver nodes live in other processes: a running job is theirs, and the bus gives
  // the job of a node that died to another one after the ack wait. Nothing is failed here.
  const tick = new RepairTick({
    store,
    jobs: jobProcess,
    projects: projectProcess,
    reads: repairReads(reads),
    clock,
    queueTimeoutMs,
    pendingClaimStaleMs,
  });
  let repairing = false;
  /** A tick asked for while one runs (the bus came back): run it when that one ends. */
  let repairAgain = false;
  let stopped = false;
  const repair = (urgent: boolean): void => {
    if (stopped) return;
    if (repairing) {
      repairAgain ||= urgent;
      return;
    }
    repairing = true;
    void tick
      .run()
      .then((report) => {
        if (report.queueTimeouts > 0)
          log.warn({ expired: report.queueTimeouts }, 'queued jobs failed with queue_timeout');
        if (report.redispatched > 0)
          log.warn(
            { redispatched: report.redispatched },
            'published solve commands again for started jobs no solver took',
          );
        if (report.bodiesDeleted > 0)
          log.info({ jobs: report.bodiesDeleted }, 'deleted request and result bodies past retention');
        for (const jobId of report.orphansReleased)
          log.warn({ jobId }, 'released the credits held for a job that was never queued');
        for (const claim of report.claimsSettled)
          log.warn(claim, 'settled an Idempotency-Key claim left pending by a request that stopped');
        for (const { step, error } of report.errors)
          log.error({ err: error, step }, 'repair step failed; tried again next tick');
      })
      .catch((err: unknown) => log.error({ err }, 'repair tick failed'))
      .finally(() => {
        repairing = false;
        if (repairAgain) {
          repairAgain = false;
          repair(false);
        }
      });
  };
  const repairTimer = setInterval(() => repair(false), repairIntervalMs(queueTimeoutMs));
  // Solve commands that could not be published while the bus was away are published again by
  // the repair; when the bus comes back it runs at once instead of up to one interval later.
  const repairNow = (): void => repair(true);
  busBack.add(repairNow);
  // Through store outages (service/scheduler-reactions.ts): resubscribes, and tries a failed step again.
  const stopReactions = startReactions({
    store,
    from: reactFrom,
    log,
    react: async (event) => {
      await jobProcess.react(event);
      await projectProcess.react(event);
    },
  });
  return async () => {
    stopped = true;
    busBack.delete(repairNow);
    clearInterval(repairTimer);
    await stopReactions();
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
  const org = await provisionOrganization(services.store, {
    name: 'Demo Logistics',
    ownerName: 'Demo Owner',
    subscriptionCredits: 1000,
    expiresAt,
    now,
  });
  const key = await createApiKey(services.store, { orgId: org.orgId, memberId: org.ownerId, name: 'demo', now });
  await services.projections.waitFor(key.position);
  writeFileSync(join(dataDir, 'demo-api-key'), `${key.secret}\n`, { mode: 0o600 });
  services.log.info({ orgId: org.orgId, keyFile: join(dataDir, 'demo-api-key') }, 'demo organization created');
  // Shown once, on the console, as the spec wants for new keys.
  process.stdout.write(`\nDemo API key (shown once, also in ${join(dataDir, 'demo-api-key')}):\n  ${key.secret}\n\n`);
}
