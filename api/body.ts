/** The JSON body of a request, or 400 invalid_json when none was sent (spec Errors). */
import type { Request } from 'express';
import { ApiError } from './errors.js';

export function jsonBody(req: Request): unknown {
  const length = req.get('content-length');
  const chunked = req.get('transfer-encoding') !== undefined;
  if (req.body === undefined || (!chunked && (length === undefined || length === '0'))) {
    throw new ApiError(400, 'invalid_json', 'the request has no body; send a JSON object with Content-Type: application/json', [
      { path: '', code: 'invalid_json', message: 'empty body' },
    ]);
  }
  return req.body as unknown;
}
