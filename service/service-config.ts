/**
 * What `startService` takes (service/server.ts): the options of one process. `npm start` fills
 * every one from the environment (service/config.ts); tests and benchmarks give some and leave
 * the others to the environment and the defaults.
 */
import type { Logger } from 'pino';
import type { EventStore } from '../domain/ports/event-store.js';
import type { WebhookSender } from '../domain/ports/webhook-sender.js';
import type { Profile } from './profile.js';
import type { PasswordCost } from '../application/password.js';

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
  /** The search threads' module (default: beside solver/solve in its form; tests give the compiled one). */
  solverThreadModule?: URL;
  publicBaseUrl?: string;
  log?: Logger;
  /** Level of the log made when `log` is not given; default: the LOG_LEVEL variable, else `info`. */
  logLevel?: string;
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
  /** Trusted proxies, TRUST_PROXY syntax (api/http/auth/trust-proxy.ts); default: the TRUST_PROXY variable, else none. */
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
  /**
   * scrypt cost {N, r, p} of new password hashes (application/password.ts): N a power of two
   * ≥ 2, r and p ≥ 1; startService throws RangeError otherwise, before it listens. Default DEFAULT_PASSWORD_COST
   * (N = 2^15, r = 8, p = 1), no variable: only tests lower it. Hashes already stored keep
   * their own cost and still verify after it changes.
   */
  passwordCost?: PasswordCost;
  /** Wraps the event store this process uses (tests inject faults around the port); default none. */
  decorateStore?: (store: EventStore) => EventStore;
}

/** Default time between two looks for due webhook retries, ms. */
export const DEFAULT_WEBHOOK_POLL_MS = 1000;

/** Default queue timeout: 20 queued jobs of up to 90 s each fit in it with room to spare. */
export const DEFAULT_QUEUE_TIMEOUT_MS = 30 * 60_000;
