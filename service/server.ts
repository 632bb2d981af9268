/**
 * The composition root (DESIGN §2): opens the adapters the profile names and starts the roles it
 * names (service/roles/). The embedded default is every role in one process on SQLite, persisted
 * read models and the in-process bus; the multi-process and distributed profiles split the roles
 * over processes that share the event store and talk over NATS.
 */
import { resolve } from 'node:path';
import { pino } from 'pino';
import type { Services } from '../api/http/services.js';
import { settingsOf } from './config.js';
import { HEARTBEAT_INTERVAL_MS, startHeartbeat } from './heartbeat.js';
import { listenForRequests, type HttpListener } from './http-listener.js';
import { EMBEDDED_PROFILE } from './profile.js';
import { chooseReadModelRunner } from './read-model-runner.js';
import { ReadModelCache } from '../projections/read-model-cache.js';
import { buildServices, startApi } from './roles/api.js';
import { startReadModels } from './roles/projector.js';
import { startScheduler } from './roles/scheduler.js';
import { startSolver } from './roles/solver.js';
import { DEFAULT_QUEUE_TIMEOUT_MS, type ServiceConfig } from './service-config.js';
import { openWatchedAdapters, processHealth, type WatchedAdapters } from './watched-adapters.js';

export type { ServiceConfig } from './service-config.js';
export { DEFAULT_QUEUE_TIMEOUT_MS, DEFAULT_WEBHOOK_POLL_MS } from './service-config.js';
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
 * answers 200). Settings the config leaves out come from the environment (service/config.ts);
 * a bad one rejects with ProfileError before anything is bound or touched. With the api role the
 * port is bound first, before anything is read or written in the data dir: a port in use rejects
 * with the listen error (`code` EADDRINUSE) and leaves the data dir untouched, and while the read
 * models catch up every request gets `503 api_disabled` with Retry-After
 * (service/starting-responder.ts), not a refused connection.
 */
export async function startService(config: ServiceConfig): Promise<RunningService> {
  const settings = settingsOf(config);
  const log = config.log ?? pino({ level: settings.logLevel });
  const profile = config.profile ?? EMBEDDED_PROFILE;
  const roles = profile.roles;
  const health = processHealth(profile, settings.dependencyGraceMs, log);
  const dataDir = resolve(config.dataDir);

  const listener: HttpListener | undefined = roles.has('api') ? await listenForRequests(config) : undefined;
  const url = listener?.url ?? '';
  let adapters: WatchedAdapters;
  try {
    adapters = await openWatchedAdapters(profile, dataDir, health, {
      log,
      probeMs: config.dependencyProbeMs,
      decorateStore: config.decorateStore,
    });
  } catch (err) {
    await listener?.close();
    throw err;
  }
  const { opened, store, reads, busBack } = adapters;
  const runner = await chooseReadModelRunner(profile, store, reads, opened.reads, log);
  // What every /v1 request reads first (maintenance, key, organization, balance), held in memory
  // and dropped by the events the read models apply: listening from before the catch-up, so no
  // applied event goes unheard. Documents are frozen when filled (callers must not write; a miss
  // costs the freeze once, a hit nothing).
  const readCache = roles.has('api') ? new ReadModelCache(reads, runner.projections) : undefined;
  let ready = false;
  const services = buildServices({
    config,
    settings,
    profile,
    dataDir,
    store,
    reads,
    projections: runner.projections,
    readCache,
    log,
    health,
    rateCounters: opened.rateCounters,
    isReady: () => ready,
  });
  const stops: (() => Promise<void> | void)[] = [];
  const close = async (): Promise<void> => {
    ready = false;
    await listener?.close();
    // Solver first (it hands back what it runs), then the scheduler, then the read models.
    for (const stop of [...stops].reverse()) await stop();
    readCache?.stop();
    await opened.close();
    store.stopWatching();
    reads.stopWatching();
  };

  try {
    await startReadModels(runner, profile, log, stops);
    if (roles.has('scheduler')) {
      await startScheduler(
        services,
        {
          profile,
          bus: opened.bus!,
          queueTimeoutMs: config.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS,
          pendingClaimStaleMs: settings.idempotency.pendingStaleAfterMs,
          busBack,
          baseUrl: config.publicBaseUrl ?? (url || 'http://localhost'),
          webhooks: settings.webhooks,
        },
        stops,
      );
    }
    if (roles.has('solver')) {
      const { clock } = services;
      const { solverThreads: threads, solverConcurrency: concurrency, solverThreadModule: threadModule } = config;
      stops.push(startSolver({ profile, store, bus: opened.bus!, clock, log, threads, concurrency, threadModule }));
    }
    if (config.heartbeatFile)
      stops.push(startHeartbeat(config.heartbeatFile, health, config.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS));

    if (listener) {
      const markReady = (): void => {
        ready = true;
      };
      const { publicBaseUrl } = config;
      await startApi(
        services,
        { profile, dataDir, listener, trustProxy: settings.trustProxy, publicBaseUrl, markReady },
        stops,
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
