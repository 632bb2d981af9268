/**
 * The api role: the services the HTTP layer runs on (api/http/services.ts), and, once the read
 * models are caught up, the application (api/http/app.ts) handed to the listener bound at start
 * (service/http-listener.ts). In the embedded profile the first start also creates the demo
 * organization (service/demo-organization.ts). The address is written into the data dir for the
 * operator's tools (service/service-address.ts) and removed at the stop.
 */
import type { Logger } from 'pino';
import type { DependencyHealth } from '../../adapters/health/dependency-health.js';
import { createApp } from '../../api/http/app.js';
import type { RateCounterFactory } from '../../api/http/auth/rate-counters.js';
import type { Services } from '../../api/http/services.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import type { ReadModelProgress } from '../../projections/progress.js';
import type { ReadModelCache } from '../../projections/read-model-cache.js';
import { createDemoOrganization, wantsDemoOrganization } from '../demo-organization.js';
import type { HttpListener } from '../http-listener.js';
import type { ProcessSettings } from '../process-settings.js';
import { isEmbedded, type Profile } from '../profile.js';
import { announceServiceAddress, browsableUrl, removeServiceAddress } from '../service-address.js';
import type { ServiceConfig } from '../service-config.js';
import { signingKey } from '../signing-key.js';

/** The parts of a process the services are made of. */
export interface ServiceParts {
  config: ServiceConfig;
  settings: ProcessSettings;
  profile: Profile;
  dataDir: string;
  store: EventStore;
  reads: ReadStore;
  projections: ReadModelProgress;
  /** The hot read models in memory (a process with the api role: service/server.ts). */
  readCache?: ReadModelCache | undefined;
  log: Logger;
  health: DependencyHealth;
  rateCounters: RateCounterFactory;
  isReady: () => boolean;
}

/**
 * The services of this process (every role uses them; the HTTP layer takes them whole). The
 * signing key is read (or made) only with the api role. Throws when the key file is unusable.
 */
export function buildServices(parts: ServiceParts): Services {
  const { config, settings, profile } = parts;
  return {
    store: parts.store,
    reads: parts.reads,
    projections: parts.projections,
    ...(parts.readCache ? { readCache: parts.readCache } : {}),
    clock: (): string => new Date().toISOString(),
    log: parts.log,
    signingKey: profile.roles.has('api') ? signingKey(parts.dataDir, config.signingKeyFile) : Buffer.alloc(0),
    ...(config.publicBaseUrl ? { publicBaseUrl: config.publicBaseUrl } : {}),
    secureCookies: Boolean(config.tls) || (config.publicBaseUrl ?? '').startsWith('https://'),
    isReady: parts.isReady,
    health: parts.health,
    sharedLog: !isEmbedded(profile),
    rateCounters: parts.rateCounters,
    metricsToken: settings.metricsToken,
    webhookAllowPrivateTargets: settings.webhooks.allowPrivateTargets,
    idempotency: settings.idempotency,
    signInDelays: settings.signInDelays,
    passwordCost: settings.passwordCost,
  };
}

/** What the api role starts with. */
export interface ApiRoleOptions {
  profile: Profile;
  dataDir: string;
  listener: HttpListener;
  trustProxy: ProcessSettings['trustProxy'];
  publicBaseUrl?: string | undefined;
  /** Called once the application answers (the process is ready). */
  markReady: () => void;
}

/**
 * Creates the demo organization when due, hands the application to the listener, writes the
 * address file and logs `listening`; adds the removal of the address file to `stops`.
 */
export async function startApi(
  services: Services,
  options: ApiRoleOptions,
  stops: (() => Promise<void> | void)[],
): Promise<void> {
  const { profile, dataDir, listener } = options;
  if (await wantsDemoOrganization(profile, services.reads)) await createDemoOrganization(services, dataDir);
  listener.serve(createApp(services, { trustProxy: options.trustProxy }));
  options.markReady();
  announceServiceAddress(dataDir, options.publicBaseUrl ?? browsableUrl(listener.url), services.log);
  stops.push(() => removeServiceAddress(dataDir, process.pid)); // first of the stops (they run in reverse)
  services.log.info(
    { url: listener.url, scheme: listener.scheme, port: listener.port, dataDir, roles: [...profile.roles] },
    'listening',
  );
}
