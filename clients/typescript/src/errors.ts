/**
 * Typed errors of the client: every non-2xx answer becomes a PackingApiError
 * subclass chosen by HTTP status, carrying the spec's envelope (`error.code`, `message`,
 * `details[]`, `request_id`); a request that never got an answer is a PackingConnectionError.
 * Branch on `code` (spec Errors) or on the class.
 */
import type { ErrorDetail } from './generated/openapi.js';

/** Base class of every error the client throws for an answer or a failed connection. */
export class PackingError extends Error {
  override name = 'PackingError';
}

/** The service answered non-2xx with the spec's error envelope (or a body that was not one). */
export class PackingApiError extends PackingError {
  override name = 'PackingApiError';
  /** HTTP status. */
  readonly status: number;
  /** `error.code` (spec Errors), e.g. `validation_failed`; `unexpected_response` when the body was no envelope. */
  readonly code: string;
  /** `error.details[]` on 400 and 422: every problem with its JSON path; [] otherwise. */
  readonly details: ErrorDetail[];
  /** `error.request_id` (= the X-Request-Id header), quote it to support. */
  readonly request_id: string;
  /** Seconds of Retry-After, when the answer carried it. */
  readonly retryAfterSeconds: number | null;

  constructor(
    status: number,
    code: string,
    message: string,
    details: ErrorDetail[],
    requestId: string,
    retryAfterSeconds: number | null,
  ) {
    super(`${code}: ${message}${requestId ? ` (request ${requestId})` : ''}`);
    this.status = status;
    this.code = code;
    this.details = details;
    this.request_id = requestId;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** 400 `invalid_json` / 422 `validation_failed` and other request problems: fix the request. */
export class ValidationError extends PackingApiError {
  override name = 'ValidationError';
}
/** 401: missing, unknown, revoked or expired key. */
export class AuthenticationError extends PackingApiError {
  override name = 'AuthenticationError';
}
/** 403: scope, IP allowlist, subscription or account. */
export class PermissionError extends PackingApiError {
  override name = 'PermissionError';
}
/** 402 `insufficient_credits`. */
export class InsufficientCreditsError extends PackingApiError {
  override name = 'InsufficientCreditsError';
}
/** 404 / 410: no such job, vehicle, template, project or link; result expired. */
export class NotFoundError extends PackingApiError {
  override name = 'NotFoundError';
}
/** 409: the job or project is in a state that forbids this now (`job_not_finished`, `job_already_finished`…). */
export class ConflictError extends PackingApiError {
  override name = 'ConflictError';
}
/** 429 after the retries ran out: `rate_limited`, `too_many_jobs`. */
export class RateLimitError extends PackingApiError {
  override name = 'RateLimitError';
}
/** 5xx after the retries ran out: `internal_error`, `api_disabled`. */
export class ServiceUnavailableError extends PackingApiError {
  override name = 'ServiceUnavailableError';
}

/** No answer: the connection failed or timed out (after the retries, for retryable calls). */
export class PackingConnectionError extends PackingError {
  override name = 'PackingConnectionError';
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
  }
}

type ApiErrorClass = new (...args: ConstructorParameters<typeof PackingApiError>) => PackingApiError;

function classOf(status: number): ApiErrorClass {
  if (status === 401) return AuthenticationError;
  if (status === 402) return InsufficientCreditsError;
  if (status === 403) return PermissionError;
  if (status === 404 || status === 410) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServiceUnavailableError;
  return ValidationError;
}

/**
 * The error of a non-2xx answer: `status`, the parsed body (the envelope, or anything) and the
 * Retry-After seconds. The class follows the status; code, details and request_id the envelope
 * (request_id falls back to `requestIdHeader`).
 */
export function apiErrorOf(
  status: number,
  body: unknown,
  requestIdHeader: string | null,
  retryAfterSeconds: number | null,
): PackingApiError {
  const envelope = (
    body as { error?: { code?: unknown; message?: unknown; details?: unknown; request_id?: unknown } } | null
  )?.error;
  const code = typeof envelope?.code === 'string' ? envelope.code : 'unexpected_response';
  const message = typeof envelope?.message === 'string' ? envelope.message : `HTTP ${status}`;
  const details = Array.isArray(envelope?.details) ? (envelope.details as ErrorDetail[]) : [];
  const requestId = typeof envelope?.request_id === 'string' ? envelope.request_id : (requestIdHeader ?? '');
  return new (classOf(status))(status, code, message, details, requestId, retryAfterSeconds);
}
