/**
 * The spec's error envelope and the one place errors become HTTP answers (STYLE: typed errors,
 * mapped once). Routes throw DomainError (or ApiError); anything else is a 500 and a bug.
 */
import type { ErrorRequestHandler, Response } from 'express';
import { DomainError } from '../domain/decider/decider.js';

export { DomainError as ApiError };

/** Writes the envelope `{error: {code, message, request_id, details?}}`. */
export function sendError(res: Response, status: number, code: string, message: string, details?: DomainError['details']): void {
  const requestId = String(res.getHeader('X-Request-Id') ?? '');
  res.status(status).json({ error: { code, message, request_id: requestId, ...(details ? { details } : {}) } });
}

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

/** The error middleware, mounted last. */
export function errorMiddleware(log: { error(obj: object, msg: string): void }): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof DomainError) {
      sendError(res, err.status, err.code, err.message, err.details);
      return;
    }
    const parser = err as BodyParserError;
    if (parser.type === 'entity.parse.failed') {
      sendError(res, 400, 'invalid_json', 'the body is not valid JSON', [
        { path: '', code: 'invalid_json', message: parser.message ?? 'unparseable JSON' },
      ]);
      return;
    }
    if (parser.type === 'entity.too.large') {
      sendError(res, 413, 'payload_too_large', 'the body exceeds 10 MB');
      return;
    }
    if (parser.type === 'encoding.unsupported' || parser.type === 'charset.unsupported') {
      sendError(res, 400, 'invalid_json', 'the body must be UTF-8 JSON', [{ path: '', code: 'invalid_json', message: parser.message ?? '' }]);
      return;
    }
    if (err instanceof URIError) {
      // A path that does not percent-decode names no endpoint and no resource.
      sendError(res, 404, 'not_found', `no endpoint ${req.method} ${req.originalUrl.slice(0, 200)}`);
      return;
    }
    const status = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Any other client error of the body reader (e.g. a Content-Encoding that does not decode).
      sendError(res, 400, 'invalid_json', 'the body could not be read as JSON', [{ path: '', code: 'invalid_json', message: parser.message ?? 'unreadable body' }]);
      return;
    }
    log.error({ err, path: req.path, method: req.method }, 'internal error');
    sendError(res, 500, 'internal_error', 'failure on the service side; retry with backoff');
  };
}
