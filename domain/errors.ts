/**
 * The service's error vocabulary (spec Errors table): every `error.code` an answer may carry.
 * The domain owns the codes; the HTTP status of each lives in one table at the edge
 * (api/http/error-status.ts), which the error middleware and the OpenAPI document both read.
 */

/** Every `error.code` the service answers, in the order of the spec's Errors table. */
export const ERROR_CODES = [
  'invalid_json',
  'idempotency_key_invalid',
  'unauthorized',
  'key_revoked',
  'key_expired',
  'insufficient_credits',
  'ip_not_allowed',
  'subscription_inactive',
  'account_inactive',
  'scope_missing',
  'preset_read_only',
  'plan_limit_reached',
  'not_found',
  'job_not_found',
  'vehicle_not_found',
  'template_not_found',
  'project_not_found',
  'job_not_finished',
  'project_busy',
  'job_failed',
  'job_canceled',
  'job_already_finished',
  'conflict',
  'result_expired',
  'payload_too_large',
  'validation_failed',
  'rate_limited',
  'too_many_jobs',
  'internal_error',
  'api_disabled',
  /** Ours: the web app's session lacks a right (owner-only route, missing or wrong CSRF token, foreign Origin). */
  'forbidden',
  /**
   * Ours: a request with this Idempotency-Key and body is still creating its job (or its process
   * stopped and the claim is not stale yet); 503 with Retry-After, so the spec's retry rules retry it.
   */
  'idempotency_key_pending',
  /** Ours: the request's header section is over 16 KB (431), refused before any route sees it. */
  'request_header_too_large',
  /** Ours: the request is not well-formed HTTP (400), refused before any route sees it. */
  'bad_request',
] as const;

/** One code of ERROR_CODES. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One entry of `details[]`: a JSON path (`items[3].length`, `""` for the body), a detail code, English. */
export interface ErrorProblem {
  path: string;
  code: string;
  message: string;
}

/**
 * A refused request or command: the spec's error `code`, an English `message`, and `details`
 * (only with `invalid_json`, `validation_failed` and `idempotency_key_invalid`: every problem).
 * An error that wraps another keeps it as `cause`; one worth retrying soon may say after how
 * many seconds (`retryAfterSeconds`, answered as `Retry-After`).
 */
export class DomainError extends Error {
  readonly retryAfterSeconds?: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorProblem[],
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
