/**
 * The service's configuration from its environment: the one module that reads `process.env`.
 * `npm start` (service/main.ts) reads every variable here once, at start, into one checked
 * ServiceConfig; a bad value throws with one line naming it (ProfileError, or Error for the TLS
 * files), which main prints after `refusing to start: `. The admin and audit commands take the
 * profile's stores and the data dir from here too.
 *
 * Variables:
 * - the process: PORT (default 8080), HOST (default 0.0.0.0), PACKING_DATA_DIR (default ./data),
 *   PUBLIC_BASE_URL (links in answers; default from the request), LOG_LEVEL (default info),
 *   TLS_CERT_FILE + TLS_KEY_FILE (PEM files: serve HTTPS; both or neither; service/tls.ts),
 *   PDF_SIGNING_KEY_FILE, PACKING_HEARTBEAT_FILE, TRUST_PROXY, METRICS_TOKEN;
 * - the profile (service/profile.ts): PACKING_ROLES, PACKING_EVENT_STORE + EVENTSTORE_URL +
 *   EVENTSTORE_NAMESPACE, PACKING_READ_STORE + MONGODB_URL + MONGODB_DATABASE, PACKING_BUS +
 *   NATS_URL, SOLVER_ACK_WAIT_SECONDS;
 * - the solver: SOLVER_THREADS (worker threads per job; default: cores), SOLVER_CONCURRENCY (jobs
 *   computing at once per solver node; default 3), QUEUE_TIMEOUT_SECONDS (default 1800);
 * - the timings (service/process-settings.ts): WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_RETRY_BASE_MS,
 *   WEBHOOK_POLL_MS, IDEMPOTENCY_PENDING_STALE_MS, IDEMPOTENCY_PENDING_WAIT_MS,
 *   SIGN_IN_DELAY_BASE_MS, SIGN_IN_DELAY_MAX_MS, DEPENDENCY_GRACE_MS (how long an engine may be
 *   down before /health answers 503 and the heartbeat stops; default 60000);
 * - npm_lifecycle_event (set by npm: `start` when run by `npm start`).
 */
import { processSettings, type ProcessSettings } from './process-settings.js';
import {
  eventStoreFromEnvironment,
  mongoReadStoreFromEnvironment,
  ProfileError,
  profileFromEnvironment,
  type Profile,
} from './profile.js';
import { DEFAULT_PORT } from './service-address.js';
import type { ServiceConfig } from './service-config.js';
import { tlsFromEnvironment } from './tls.js';

/** A setting that must be a whole number ≥ 1; ProfileError otherwise. */
function wholeNumber(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ProfileError(name, `${name} must be a whole number ≥ 1, got "${value}"`);
  return n;
}

/** PORT: a TCP port, 0 (any free port) to 65535. Throws ProfileError otherwise. */
function portNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65_535)
    throw new ProfileError('PORT', `PORT must be a whole number from 0 to 65535, got "${value}"`);
  return n;
}

/** QUEUE_TIMEOUT_SECONDS in ms: a number of seconds > 0. Throws ProfileError otherwise. */
function queueTimeoutMs(value: string): number {
  const s = Number(value);
  if (!Number.isFinite(s) || s <= 0)
    throw new ProfileError(
      'QUEUE_TIMEOUT_SECONDS',
      `QUEUE_TIMEOUT_SECONDS must be a number of seconds > 0, got "${value}"`,
    );
  return s * 1000;
}

/**
 * Every setting of the service process from `env`, checked in the order the start reports them:
 * the TLS files, the profile, PORT, SOLVER_THREADS, SOLVER_CONCURRENCY, QUEUE_TIMEOUT_SECONDS, then the
 * settings of service/process-settings.ts.
 * Throws Error (TLS files) or ProfileError (every other variable) with a message fit for the console.
 */
export function serviceConfigFromEnvironment(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const tls = tlsFromEnvironment(env);
  const profile = profileFromEnvironment(env);
  const config: ServiceConfig = {
    ...(tls ? { tls } : {}),
    profile,
    port: env['PORT'] ? portNumber(env['PORT']) : DEFAULT_PORT,
    host: env['HOST'] ?? '0.0.0.0',
    dataDir: dataDirFromEnvironment(env),
    ...(env['SOLVER_THREADS'] ? { solverThreads: wholeNumber('SOLVER_THREADS', env['SOLVER_THREADS']) } : {}),
    ...(env['SOLVER_CONCURRENCY']
      ? { solverConcurrency: wholeNumber('SOLVER_CONCURRENCY', env['SOLVER_CONCURRENCY']) }
      : {}),
    ...(env['PUBLIC_BASE_URL'] ? { publicBaseUrl: env['PUBLIC_BASE_URL'] } : {}),
    ...(env['QUEUE_TIMEOUT_SECONDS'] ? { queueTimeoutMs: queueTimeoutMs(env['QUEUE_TIMEOUT_SECONDS']) } : {}),
    ...(env['PDF_SIGNING_KEY_FILE'] ? { signingKeyFile: env['PDF_SIGNING_KEY_FILE'] } : {}),
    ...(env['PACKING_HEARTBEAT_FILE'] ? { heartbeatFile: env['PACKING_HEARTBEAT_FILE'] } : {}),
  };
  const settings = processSettings(config, env);
  return {
    ...config,
    trustProxy: settings.trustProxy === false ? '' : settings.trustProxy.join(','),
    ...(settings.metricsToken !== undefined ? { metricsToken: settings.metricsToken } : {}),
    webhooks: settings.webhooks,
    idempotency: settings.idempotency,
    signInDelays: settings.signInDelays,
    logLevel: settings.logLevel,
    dependencyGraceMs: settings.dependencyGraceMs,
  };
}

/**
 * The settings of `config` that its caller left out, filled from `env` (service/process-settings.ts):
 * what `startService` runs with. Throws ProfileError for a bad variable.
 */
export function settingsOf(config: ServiceConfig, env: NodeJS.ProcessEnv = process.env): ProcessSettings {
  return processSettings(config, env);
}

/** The data dir the service and the admin commands use: PACKING_DATA_DIR, default `./data` (not resolved). */
export function dataDirFromEnvironment(env: NodeJS.ProcessEnv = process.env): string {
  return env['PACKING_DATA_DIR'] ?? './data';
}

/**
 * Where the operator's tools look for the service: PUBLIC_BASE_URL as set (undefined when unset)
 * and PORT as set, else DEFAULT_PORT (the local address of a service started without PORT).
 */
export function serviceAddressFromEnvironment(env: NodeJS.ProcessEnv = process.env): {
  publicBaseUrl: string | undefined;
  port: string;
} {
  return { publicBaseUrl: env['PUBLIC_BASE_URL'], port: env['PORT'] ?? String(DEFAULT_PORT) };
}

/**
 * The event store of the profile (PACKING_EVENT_STORE, EVENTSTORE_URL, EVENTSTORE_NAMESPACE):
 * what the admin and audit commands open. Throws ProfileError.
 */
export function eventStoreConfig(env: NodeJS.ProcessEnv = process.env): Profile['eventStore'] {
  return eventStoreFromEnvironment(env);
}

/** The MongoDB read store of the profile, or undefined without PACKING_READ_STORE=mongodb. Throws ProfileError. */
export function mongoReadStoreConfig(
  env: NodeJS.ProcessEnv = process.env,
): Extract<Profile['readStore'], { kind: 'mongodb' }> | undefined {
  return mongoReadStoreFromEnvironment(env);
}

/** True when `npm start` runs this process (npm sets npm_lifecycle_event), so it stops when npm dies. */
export function startedByNpmStart(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['npm_lifecycle_event'] === 'start';
}
