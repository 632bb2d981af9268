/** What the HTTP layer needs, built by the composition root (service/main.ts). */
import type { Logger } from 'pino';
import type { EventStore } from '../../domain/ports/event-store.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import type { RateCounterFactory } from './rate-counters.js';
import type { SignInDelays } from '../web-app/sign-in-limit.js';
import type { ReadModelProgress } from '../../projections/progress.js';
import type { DependencyHealth } from '../../adapters/health/dependency-health.js';

export interface Services {
  store: EventStore;
  reads: ReadStore;
  /** How far the read models are; the writer (ProjectionRunner) or a follower of another process's. */
  projections: ReadModelProgress;
  /**
   * True when other processes append to the same log (multi-process and distributed profiles):
   * every /v1 request then first waits (bounded) until the read models include the log's head,
   * so a write answered by one API process is seen by the next request to any other.
   */
  sharedLog?: boolean;
  /** RFC 3339 now. */
  clock: () => string;
  log: Logger;
  /** HMAC key of the signed plan links (PDF and 3D viewer, api/http/signed-link.ts). */
  signingKey: Buffer;
  /** Public base URL for links (e.g. https://api.example.com); default: from the request's Host. */
  publicBaseUrl?: string;
  /** Seed of new searches (tests fix it; default random per job). */
  seed?: () => number;
  isReady(): boolean;
  /**
   * The states of the engines this process depends on (adapters/health/dependency-health.ts): `/health`
   * reports them, and a /v1 request skips the read-your-writes wait while the event store is
   * down. Absent (tests that build services by hand): everything counts as up.
   */
  health?: DependencyHealth;
  /** Store of the rate-limit counters (default: this process's memory). */
  rateCounters?: RateCounterFactory;
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
  /** Delays of sign-ins for an email that failed often (api/web-app/sign-in-limit.ts); default DEFAULT_SIGN_IN_DELAYS. */
  signInDelays?: SignInDelays;
  /** Bearer token GET /metrics requires (METRICS_TOKEN); unset or empty: /metrics needs none. */
  metricsToken?: string;
}
