/**
 * What the HTTP edge is handed, in narrow pieces: the ports it works through (HttpPorts), the
 * settings that shape its answers (HttpSettings) and the probes GET /health reads (HealthProbes).
 * The composition root builds one Services object of all three (api/http/services.ts); createApp
 * hands each router only the piece it declares, e.g. RouteContext for the /v1 and /app/api
 * routers (authentication, sessions and signed links).
 */
import type { Logger } from 'pino';
import type { UseCasePorts } from '../../application/ports.js';
import type { PasswordCost } from '../../application/password.js';
import type { DependencyHealth } from '../../adapters/health/dependency-health.js';
import type { RateCounterFactory } from './auth/rate-counters.js';
import type { SignInDelays } from '../web-app/sign-in-delays.js';
import type { ReadModelCache } from '../../projections/read-model-cache.js';

/** The use cases' ports (event store, read store, read-model progress, clock), the log and the rate counters. */
export interface HttpPorts extends UseCasePorts {
  log: Logger;
  /** Store of the rate-limit counters (default: this process's memory). */
  rateCounters?: RateCounterFactory;
  /**
   * The hot read models held in memory (projections/read-model-cache.ts): the maintenance
   * switch, API keys, organizations and balances that authentication reads on every request.
   * Absent (services built by hand): those reads go to `reads`.
   */
  readCache?: ReadModelCache;
}

/** The HTTP edge's settings: flags and keys, no data. */
export interface HttpSettings {
  /**
   * True when other processes append to the same log (multi-process and distributed profiles):
   * every /v1 request then first waits (bounded) until the read models include the log's head,
   * so a write answered by one API process is seen by the next request to any other.
   */
  sharedLog?: boolean;
  /** HMAC key of the signed plan links (PDF and 3D viewer, api/http/plan-links/signed-link.ts) and of the web app's CSRF tokens. */
  signingKey: Buffer;
  /** Public base URL for links (e.g. https://api.example.com); default: from the request's Host. */
  publicBaseUrl?: string;
  /** Seed of new searches (tests fix it; default random per job). */
  seed?: () => number;
  /**
   * Webhook targets may resolve to private, loopback or link-local addresses
   * (WEBHOOK_ALLOW_PRIVATE_TARGETS=true; default false). Checked at registration and delivery.
   */
  webhookAllowPrivateTargets?: boolean;
  /**
   * The web app's session cookie is `Secure` with the `__Host-` prefix: the service
   * runs with TLS, or its public URL is https (TLS ends at a proxy). Default false.
   */
  secureCookies?: boolean;
  /**
   * Idempotency-Key timings (domain/job/idempotency-claim.ts IDEMPOTENCY_TIMINGS), ms; tests
   * shorten them. Default: IDEMPOTENCY_TIMINGS.
   */
  idempotency?: { pendingStaleAfterMs?: number; pendingWaitMs?: number };
  /**
   * Delays of sign-ins for an email that failed often (api/web-app/sign-in-limit.ts); default
   * DEFAULT_SIGN_IN_DELAYS.
   */
  signInDelays?: SignInDelays;
  /**
   * scrypt cost of the web app's new password hashes and of the decoy checked for an unknown
   * email (application/password.ts); default DEFAULT_PASSWORD_COST. Checks use each hash's own.
   */
  passwordCost?: PasswordCost;
  /** Bearer token GET /metrics requires (METRICS_TOKEN); unset or empty: /metrics needs none. */
  metricsToken?: string;
}

/** What GET /health and the read-your-writes wait ask about this process. */
export interface HealthProbes {
  isReady(): boolean;
  /**
   * The states of the engines this process depends on (adapters/health/dependency-health.ts): `/health`
   * reports them, and a /v1 request skips the read-your-writes wait while the event store is
   * down. Absent (tests that build services by hand): everything counts as up.
   */
  health?: DependencyHealth;
}

/** The settings of the web app's session cookie and CSRF token (api/web-app/web-session.ts). */
export type SessionSettings = Pick<HttpSettings, 'signingKey' | 'secureCookies'>;

/** The settings of signed plan links (api/http/plan-links/plan-links.ts). */
export type LinkSettings = Pick<HttpSettings, 'signingKey' | 'publicBaseUrl'>;

/**
 * What most routers of /v1 and /app/api are handed: the ports, and the settings that
 * authentication (API keys, session cookies, CSRF) and signed links read.
 */
export type RouteContext = HttpPorts & SessionSettings & LinkSettings;

/** RouteContext plus what creating a job reads: the search seed and the Idempotency-Key timings. */
export type PackContext = RouteContext & Pick<HttpSettings, 'seed' | 'idempotency'>;
