/**
 * The spec's error envelope and the one place errors become HTTP answers (STYLE: typed errors,
 * mapped once). Routes and deciders throw DomainError (domain/errors.ts), which carries a code and
 * no status; the status comes from ERROR_STATUS (api/http/error-status.ts). Anything else is a 500 and
 * a bug. An error of an engine that failed (noted by the watching decorators, adapters/health/watched-stores.ts,
 * or recognised by its shape, domain/ports/store-unavailable.ts) is `503 api_disabled` with a
 * short Retry-After: the request can be retried once the engine is back. Every 429 and 503
 * carries `Retry-After` (sendError adds the code's default when the
 * thrower set none), and the log line of a 500 carries the request's `request_id` (req.log).
 */
import type { ErrorRequestHandler, Response } from 'express';
import { DomainError, type ErrorCode, type ErrorProblem } from '../../domain/errors.js';
import { EventTooLargeError } from '../../domain/ports/event-store.js';
import { ERROR_STATUS, retryAfterOf } from './error-status.js';
import {
  DEPENDENCY_RETRY_AFTER_SECONDS,
  failedDependencyOf,
  type Dependency,
} from '../../adapters/health/dependency-health.js';
import { routePattern } from './route-pattern.js';
import { isStoreUnavailable } from '../../domain/ports/store-unavailable.js';

export { DomainError as ApiError };

/**
 * Writes the envelope `{error: {code, message, request_id, details?}}` with the status of `code`
 * (ERROR_STATUS); on a 429 or 503 also `Retry-After` (seconds), unless already set. `beside`:
 * fields written next to `error` (GET /health's state when it answers 503).
 */
export function sendError(
  res: Response,
  code: ErrorCode,
  message: string,
  details?: ErrorProblem[],
  beside?: Record<string, unknown>,
): void {
  const requestId = String(res.getHeader('X-Request-Id') ?? '');
  const retryAfter = retryAfterOf(code);
  if (retryAfter !== null && res.getHeader('Retry-After') === undefined)
    res.setHeader('Retry-After', String(retryAfter));
  res
    .status(ERROR_STATUS[code])
    .json({ ...beside, error: { code, message, request_id: requestId, ...(details ? { details } : {}) } });
}

/** How a 503 names a failed dependency. */
const DEPENDENCY_NAMES: Readonly<Record<Dependency, string>> = {
  event_store: 'event store',
  read_store: 'read store',
  bus: 'message bus',
};

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

/**
 * The error middleware, mounted last. A 500 is logged on the request's logger (`req.log`, with
 * its `request_id`; api/http/access-log.ts), or on `log` for a request that has none.
 */
export function errorMiddleware(log: { error(obj: object, msg: string): void }): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof DomainError) {
      if (err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
      sendError(res, err.code, err.message, err.details);
      return;
    }
    const dependency = failedDependencyOf(err);
    if (dependency) {
      // The dependency's state change is logged once (adapters/health/dependency-health.ts), not per request.
      res.setHeader('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS));
      sendError(res, 'api_disabled', `the ${DEPENDENCY_NAMES[dependency]} is unavailable; retry after Retry-After`);
      return;
    }
    const parser = err as BodyParserError;
    if (parser.type === 'entity.parse.failed') {
      sendError(res, 'invalid_json', 'the body is not valid JSON', [
        { path: '', code: 'invalid_json', message: parser.message ?? 'unparseable JSON' },
      ]);
      return;
    }
    if (parser.type === 'entity.too.large') {
      sendError(res, 'payload_too_large', 'the body exceeds 10 MB');
      return;
    }
    if (parser.type === 'encoding.unsupported' || parser.type === 'charset.unsupported') {
      sendError(res, 'invalid_json', 'the body must be UTF-8 JSON', [
        { path: '', code: 'invalid_json', message: parser.message ?? '' },
      ]);
      return;
    }
    if (err instanceof EventTooLargeError) {
      // A body within the 10 MB that the event store cannot hold even encoded (e.g. a project's
      // saved content): the caller's data is too large, not a failure of the service.
      req.log?.warn(
        { stream: err.stream, type: err.type, bytes: err.bytes, limit: err.limit },
        'append over the event size limit',
      );
      sendError(
        res,
        'payload_too_large',
        `the data to store is ${err.bytes} bytes; the service stores at most ${err.limit} bytes per change`,
      );
      return;
    }
    if (err instanceof URIError) {
      // A path that does not percent-decode names no endpoint and no resource.
      sendError(res, 'not_found', `no endpoint ${req.method} ${req.originalUrl.slice(0, 200)}`);
      return;
    }
    const status =
      (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Any other client error of the body reader (e.g. a Content-Encoding that does not decode).
      sendError(res, 'invalid_json', 'the body could not be read as JSON', [
        { path: '', code: 'invalid_json', message: parser.message ?? 'unreadable body' },
      ]);
      return;
    }
    if (isStoreUnavailable(err)) {
      // A store that cannot be reached now (lost connection): passes; the client retries (spec Errors).
      (req.log ?? log).warn(
        {
          err: { name: (err as Error).name, message: (err as Error).message },
          route: routePattern(req),
          method: req.method,
        },
        'a store is unreachable; answered 503',
      );
      res.setHeader('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS));
      sendError(res, 'api_disabled', 'a store of the service cannot be reached right now; retry with backoff');
      return;
    }
    (req.log ?? log).error({ err, route: routePattern(req), method: req.method }, 'internal error');
    sendError(res, 'internal_error', 'failure on the service side; retry with backoff');
  };
}
