/**
 * The settings of a running service that its caller may leave to the environment (trusted
 * proxies, webhooks, Idempotency-Key timings, sign-in delays, the dependencies' grace period, the
 * log): each is the caller's value when given (ServiceConfig), else its variable, else its
 * default; a bad variable throws ProfileError naming it. Pure over the variables handed in:
 * service/config.ts reads them from the process.
 */
import { DEFAULT_DEPENDENCY_GRACE_MS } from '../adapters/health/dependency-health.js';
import { parseTrustProxy, type TrustProxy } from '../api/http/auth/trust-proxy.js';
import { DEFAULT_SIGN_IN_DELAYS, type SignInDelays } from '../api/web-app/sign-in-limit.js';
import { IDEMPOTENCY_TIMINGS } from '../domain/job/idempotency-claim.js';
import type { WebhookSender } from '../domain/ports/webhook-sender.js';
import { DEFAULT_RETRY_POLICY } from '../domain/webhook/retry-policy.js';
import { checkedPasswordCost, DEFAULT_PASSWORD_COST, type PasswordCost } from '../application/password.js';
import { ProfileError } from './profile.js';
import { DEFAULT_WEBHOOK_POLL_MS, type ServiceConfig } from './service-config.js';

/** Every setting of {@link ProcessSettings}, checked and filled with its default. */
export interface ProcessSettings {
  trustProxy: TrustProxy;
  /** Retry base and poll interval in ms. */
  webhooks: { allowPrivateTargets: boolean; retryBaseMs: number; pollMs: number; sender?: WebhookSender };
  /** Claim takeover age and wait for a pending claim, ms. */
  idempotency: { pendingStaleAfterMs: number; pendingWaitMs: number };
  signInDelays: SignInDelays;
  /** scrypt cost of new password hashes (the caller's, else DEFAULT_PASSWORD_COST; no variable). */
  passwordCost: PasswordCost;
  /** Level of the log made when the caller gives none (pino level name). */
  logLevel: string;
  /** Bearer token of GET /metrics; undefined or empty: none. */
  metricsToken: string | undefined;
  /** How long a needed dependency may be down before the process reports itself down, ms. */
  dependencyGraceMs: number;
}

/** A positive whole number of ms from `name`, or `fallback` when unset; ProfileError otherwise. */
function msSetting(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new ProfileError(name, `${name} must be a whole number of milliseconds ≥ 1, got "${raw}"`);
  return n;
}

/** The webhook settings of `config`, filled from `env`. Throws ProfileError for a bad variable. */
function webhookSettings(config: ServiceConfig, env: NodeJS.ProcessEnv): ProcessSettings['webhooks'] {
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

/** The Idempotency-Key timings of `config`, filled from `env`. Throws ProfileError for a bad variable. */
function idempotencySettings(config: ServiceConfig, env: NodeJS.ProcessEnv): ProcessSettings['idempotency'] {
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

/** The sign-in delays of `config`, filled from `env`. Throws ProfileError for a bad variable. */
function signInDelaySettings(config: ServiceConfig, env: NodeJS.ProcessEnv): SignInDelays {
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

/**
 * The settings of `config`, each filled from `env` when not given, checked in this order:
 * TRUST_PROXY, the webhook variables, the Idempotency-Key timings, the sign-in delays,
 * DEPENDENCY_GRACE_MS. Throws ProfileError for the first bad variable, RangeError for a
 * `passwordCost` scrypt cannot use.
 */
export function processSettings(config: ServiceConfig, env: NodeJS.ProcessEnv): ProcessSettings {
  const trustProxy = parseTrustProxy(config.trustProxy ?? env['TRUST_PROXY']);
  const webhooks = webhookSettings(config, env);
  const idempotency = idempotencySettings(config, env);
  const signInDelays = signInDelaySettings(config, env);
  return {
    trustProxy,
    webhooks,
    idempotency,
    signInDelays,
    passwordCost: checkedPasswordCost(config.passwordCost ?? DEFAULT_PASSWORD_COST),
    logLevel: config.logLevel ?? env['LOG_LEVEL'] ?? 'info',
    metricsToken: config.metricsToken ?? env['METRICS_TOKEN'],
    dependencyGraceMs:
      config.dependencyGraceMs ??
      msSetting('DEPENDENCY_GRACE_MS', env['DEPENDENCY_GRACE_MS'], DEFAULT_DEPENDENCY_GRACE_MS),
  };
}
