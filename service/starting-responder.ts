/**
 * What the listening socket answers before the service is ready (read models catching up with
 * the log, adapters opening): every request gets `503 api_disabled` in the spec's error envelope
 * with `Retry-After: 1` and an `X-Request-Id`, so clients and load balancers see "starting, retry"
 * instead of a refused connection (spec §errors: 503 is retried with backoff).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newId } from '../application/id.js';

/** Seconds a client is told to wait before retrying during start-up. */
export const STARTING_RETRY_AFTER_S = 1;

/** Answers one request with the start-up 503 (see the module comment); drains the body first. */
export function answerStarting(req: IncomingMessage, res: ServerResponse): void {
  const requestId = newId('req');
  const body = JSON.stringify({
    error: { code: 'api_disabled', message: 'the service is starting; retry shortly', request_id: requestId },
  });
  req.resume();
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': String(STARTING_RETRY_AFTER_S),
    'X-Request-Id': requestId,
    Connection: 'close',
  });
  res.end(body);
}
