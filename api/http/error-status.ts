/**
 * The HTTP status of every error code (spec Errors table, plus ours: `conflict` for two concurrent
 * commands on one resource, `forbidden` for the web app, `idempotency_key_pending` for a key whose
 * first request is still creating its job, docs/api-decisions.md). The one place a code becomes a status: the
 * error middleware (api/http/errors.ts) and the OpenAPI document (api/http/openapi/document.ts) read it.
 * A Record over ErrorCode, so a code without a status does not compile.
 */
import type { ErrorCode } from '../../domain/errors.js';

export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  invalid_json: 400,
  idempotency_key_invalid: 400,
  unauthorized: 401,
  key_revoked: 401,
  key_expired: 401,
  insufficient_credits: 402,
  ip_not_allowed: 403,
  subscription_inactive: 403,
  account_inactive: 403,
  scope_missing: 403,
  preset_read_only: 403,
  plan_limit_reached: 403,
  not_found: 404,
  job_not_found: 404,
  vehicle_not_found: 404,
  template_not_found: 404,
  project_not_found: 404,
  job_not_finished: 409,
  project_busy: 409,
  job_failed: 409,
  job_canceled: 409,
  job_already_finished: 409,
  conflict: 409,
  result_expired: 410,
  payload_too_large: 413,
  validation_failed: 422,
  rate_limited: 429,
  too_many_jobs: 429,
  internal_error: 500,
  api_disabled: 503,
  forbidden: 403,
  idempotency_key_pending: 503,
  request_header_too_large: 431,
  bad_request: 400,
};

/**
 * Default `Retry-After` (s) of the codes answered with 429 or 503 (spec Response headers:
 * `Retry-After` on 429; this service also sends it on every 503). Used when the thrower set none:
 * `rate_limited` sets its own from the window that refused. `too_many_jobs`: a queued job usually
 * ends within seconds; `api_disabled`: starting up or maintenance; `idempotency_key_pending`: the
 * key's first request usually ends within a second.
 */
export const RETRY_AFTER_SECONDS: Readonly<Partial<Record<ErrorCode, number>>> = {
  rate_limited: 60,
  too_many_jobs: 10,
  api_disabled: 30,
  idempotency_key_pending: 1,
};

/** Retry-After when a code has no entry in RETRY_AFTER_SECONDS but answers 429 or 503, s. */
export const FALLBACK_RETRY_AFTER_SECONDS = 30;

/** The default `Retry-After` (s) of `code`: a positive integer for every 429 and 503 code, else null. */
export function retryAfterOf(code: ErrorCode): number | null {
  const status = ERROR_STATUS[code];
  if (status !== 429 && status !== 503) return null;
  return RETRY_AFTER_SECONDS[code] ?? FALLBACK_RETRY_AFTER_SECONDS;
}

/** The status of `code`. */
export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
