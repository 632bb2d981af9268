/**
 * The request id and the access log. Each request gets an id (`req_…`, the
 * `X-Request-Id` header and the envelope's `request_id`) and a logger `req.log` bound to it, so
 * every line logged for the request (errors too) carries `request_id`. When the answer is sent
 * (or the client goes away) one line `request` is logged:
 * `{request_id, method, route, status, ms, orgId?, aborted?}`. `route` is the route pattern
 * (api/http/route-pattern.ts), never the URL: no ids, no query string (PDF links carry a signature),
 * and no header is logged (the API key travels in `Authorization`).
 *
 * Cost per request: an id, one `close` listener and one log call of one object. The bound logger
 * `req.log` (a pino child) is made only when a line other than the access line is logged for the
 * request (an error, a warning): most requests never need one.
 */
import type { Express, Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { newId } from '../../application/id.js';
import { routePattern } from './route-pattern.js';

declare global {
  // Express types its Request in a global namespace; augmenting it needs one (no module form exists).
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Logger of this request: every line carries its `request_id` (made on first use, see `accessLog`). */
      log: Logger;
      /** Id of this request (`req_…`, the `X-Request-Id` header), set by `accessLog`. */
      requestId: string;
    }
  }
}

/**
 * Makes `req.log` of `app`'s requests lazy: the first read makes the child logger of `log` bound
 * to the request's `request_id` and keeps it on the request; an assignment replaces it.
 */
function lazyRequestLogger(app: Express, log: Logger): void {
  const keep = (req: Request, logger: Logger): Logger => {
    Object.defineProperty(req, 'log', { value: logger, writable: true, configurable: true, enumerable: true });
    return logger;
  };
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request): Logger {
      return keep(this, log.child({ request_id: this.requestId }));
    },
    set(this: Request, logger: Logger) {
      keep(this, logger);
    },
  });
}

/**
 * Middleware mounted first on `app`: sets `X-Request-Id`, `req.requestId` and (lazily) `req.log`,
 * and logs the access line (level info) once the response is finished or aborted. `orgId` is the
 * authenticated caller's organization (res.locals.caller, api/http/auth/auth.ts), absent before
 * authentication. The line is the one a child logger bound to `request_id` would write (same keys,
 * same order).
 */
export function accessLog(app: Express, log: Logger): RequestHandler {
  lazyRequestLogger(app, log);
  return (req, res, next) => {
    const requestId = newId('req');
    const started = performance.now();
    req.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    res.on('close', () => {
      if (!log.isLevelEnabled('info')) return;
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const caller = res.locals['caller'] as { orgId?: string } | undefined;
      const line: Record<string, unknown> = {
        request_id: requestId,
        method: req.method,
        route: routePattern(req),
        status: res.statusCode,
        ms,
      };
      if (caller?.orgId) line['orgId'] = caller.orgId;
      if (!res.writableFinished) line['aborted'] = true;
      log.info(line, 'request');
    });
    next();
  };
}
