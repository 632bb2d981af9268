/**
 * The HTTP status of every error code (spec Errors table, plus `conflict`: two concurrent
 * requests with the same Idempotency-Key, README). The one place a code becomes a status: the
 * error middleware (api/errors.ts) and the OpenAPI document (api/openapi/document.ts) read it.
 * A Record over ErrorCode, so a code without a status does not compile.
 */
import type { ErrorCode } from '../domain/errors.js';

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
};

/** The status of `code`. */
export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
