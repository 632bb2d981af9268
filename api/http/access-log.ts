/**
 * The request id and the access log. Each request gets an id (`req_…`, the
 * `X-Request-Id` header and the envelope's `request_id`) and a child logger `req.log` bound to
 * it, so every line logged for the request (errors too) carries `request_id`. When the answer is
 * sent (or the client goes away) one line `request` is logged:
 * `{request_id, method, route, status, ms, orgId?, aborted?}`. `route` is the route pattern
 * (api/http/route-pattern.ts), never the URL: no ids, no query string (PDF links carry a signature),
 * and no header is logged (the API key travels in `Authorization`).
 */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { newId } from '../../application/id.js';
import { routePattern } from './route-pattern.js';

declare global {
  // Express types its Request in a global namespace; augmenting it needs one (no module form exists).
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Logger of this request: every line carries its `request_id` (set by `accessLog`). */
      log: Logger;
    }
  }
}

/**
 * Middleware mounted first: sets `X-Request-Id` and `req.log`, and logs the access line (level
 * info) once the response is finished or aborted. `orgId` is the authenticated caller's
 * organization (res.locals.caller, api/http/auth/auth.ts), absent before authentication.
 */
export function accessLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const requestId = newId('req');
    const started = process.hrtime.bigint();
    res.setHeader('X-Request-Id', requestId);
    req.log = log.child({ request_id: requestId });
    res.once('close', () => {
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
      const caller = res.locals['caller'] as { orgId?: string } | undefined;
      req.log.info(
        {
          method: req.method,
          route: routePattern(req),
          status: res.statusCode,
          ms,
          ...(caller?.orgId ? { orgId: caller.orgId } : {}),
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        'request',
      );
    });
    next();
  };
}
