/** The JSON body of a request, or 400 invalid_json when none was sent (spec Errors). */
import express, { type Request, type RequestHandler } from 'express';
import { ApiError } from './errors.js';

export function jsonBody(req: Request): unknown {
  // Set by readJsonBody's verify hook only when bytes arrived (chunked bodies included).
  const bytes = (req as unknown as { bodyBytes?: number }).bodyBytes ?? 0;
  if (req.body === undefined || bytes === 0) {
    throw new ApiError(
      'invalid_json',
      'the request has no body; send a JSON object with Content-Type: application/json',
      [{ path: '', code: 'invalid_json', message: 'empty body' }],
    );
  }
  return req.body as unknown;
}

/** Largest accepted body (spec Limits). */
export const MAX_BODY = '10mb';

const parseJson: RequestHandler = express.json({
  limit: MAX_BODY,
  strict: false,
  type: () => true,
  verify: (req, _res, buf) => {
    (req as unknown as { bodyBytes: number }).bodyBytes = buf.length;
  },
});

/**
 * True when the request carries a body (RFC 9112 §6.3: a Transfer-Encoding, or a numeric
 * Content-Length, even 0): the test the body parser (type-is `hasBody`) makes before reading.
 */
export function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
}

/**
 * Reads a JSON body of at most 10 MB. Any content type is read as JSON: a client that forgets
 * the header still gets a precise answer. Run by `authenticate` after the key is accepted, so an
 * unauthenticated request never has its body read (and gets 401, not a body error). A request
 * without a body (most GETs) skips the parser: `req.body` stays undefined, as the parser leaves it.
 */
export const readJsonBody: RequestHandler = (req, res, next) => {
  if (hasBody(req)) return parseJson(req, res, next);
  next();
};
