/**
 * The HTTP application: middleware order is request id and access log → HTTP metrics →
 * compression → answer headers (nosniff everywhere; no-store for the web app's API and for
 * answers read with a session cookie) → JSON body (10 MB) → routes → the web app (/app) → 404
 * for unknown /v1 paths → the one error middleware (STYLE). With a shared log, /v1 requests
 * first wait for the read models to reach the log's head. createApp takes the composition
 * root's whole Services (api/http/services.ts); every router declares the narrow context it
 * reads (api/http/context.ts). Each middleware costs only when it has work: compression only
 * for a request that accepts an encoding, the body parser only for a request with a body, and a
 * request walks only the route modules whose paths can match it (api/http/route-dispatch.ts).
 */
import compression from 'compression';
import { ServerResponse } from 'node:http';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import { errorMiddleware, sendError } from './errors.js';
import { maintenanceGate } from './auth/operator-switches.js';
import { accessLog } from './access-log.js';
import { metricsOf } from './metrics.js';
import { setNoStore } from './page-security.js';
import type { TrustProxy } from './auth/trust-proxy.js';
import { sessionTokenOf } from '../web-app/web-session.js';
import { ROUTE_MODULES } from './routes/index.js';
import { dispatchByPrefix } from './route-dispatch.js';
import { webAppRouter } from '../web-app/routes/index.js';
import type { Services } from './services.js';
import type { HttpSettings } from './context.js';

/**
 * Longest wait of a /v1 request for the read models to reach the log's head (shared log only),
 * ms. Past it the request is answered from what the read models hold.
 */
export const SYNC_TIMEOUT_MS = 2000;

/** Settings of the HTTP edge that are not services. */
export interface AppOptions {
  /** Peers trusted to forward the client address (TRUST_PROXY, api/http/auth/trust-proxy.ts); default none. */
  trustProxy?: TrustProxy;
}

/** The answers the compression package may compress (and marks `Vary: Accept-Encoding`). */
function compressible(req: Request, res: Response): boolean {
  // A range request (Range header, 206 answer) is sent as it is: a compressed body under a
  // Content-Range counted in uncompressed bytes would be wrong.
  return req.headers.range === undefined && res.statusCode !== 206 && compression.filter(req, res);
}

/** The compression package's test of `Cache-Control: no-transform` (RFC 9111 §5.2.2.6). */
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;

const compressAnswers = compression({ threshold: 1024, filter: compressible });

/**
 * Compression of answers (gzip or brotli, as the client accepts): scripts, styles, HTML and JSON
 * of at least 1 KiB (the compression package's default filter: compressible types only, so not
 * the PDFs). Brotli at quality 4 (the package's default), fast enough to run per request.
 * No answer of the service streams (a `?wait=` long poll answers once, at its end), so nothing
 * needs flushing. A request without `Accept-Encoding` (or with an empty one) gets no encoding
 * whatever happens, so it skips the package's wrapper: its answer only gets the
 * `Vary: Accept-Encoding` the package would have added (compressible, transformable answers), so
 * shared caches key on the header all the same.
 */
export const COMPRESSION: RequestHandler = (req, res, next) => {
  if (req.headers['accept-encoding']) {
    compressAnswers(req, res, next);
    return;
  }
  // The answers of createApp's application inherit writeHeadVarying: nothing to do per request.
  // Elsewhere the answer gets it, over Node's own writeHead or whatever an earlier step set.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, and called on the answer
  const writeHead = res.writeHead;
  if (writeHead === SERVER_WRITE_HEAD) res.writeHead = writeHeadVarying as Response['writeHead'];
  else if (writeHead !== writeHeadVarying)
    res.writeHead = function (this: Response, ...args: unknown[]) {
      markVary(this);
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response['writeHead'];
  next();
};

// eslint-disable-next-line @typescript-eslint/unbound-method -- only ever called with apply on an answer
const SERVER_WRITE_HEAD = ServerResponse.prototype.writeHead;

/**
 * `Vary: Accept-Encoding` on a compressible, transformable answer (what the compression package
 * adds). Answers set their headers with setHeader before writing (Express, send): none passes
 * them to writeHead.
 */
function markVary(res: Response): void {
  const cacheControl = res.getHeader('Cache-Control');
  if (compressible(res.req, res) && (!cacheControl || !NO_TRANSFORM.test(String(cacheControl))))
    res.vary('Accept-Encoding');
}

/**
 * Node's writeHead after `markVary` for a request without Accept-Encoding (one with it is the
 * compression package's, which marks its answers itself). The writeHead of every answer of
 * createApp's application (set once on its response prototype): no closure or property per request.
 */
function writeHeadVarying(this: Response): Response {
  if (!this.req.headers['accept-encoding']) markVary(this);
  // eslint-disable-next-line prefer-rest-params
  return SERVER_WRITE_HEAD.apply(this, arguments as unknown as Parameters<typeof SERVER_WRITE_HEAD>) as Response;
}

/**
 * Headers of every answer: `X-Content-Type-Options: nosniff`, and `Cache-Control: no-store` on
 * the web app's API and on any /v1 answer read with the session cookie (a member's data stays
 * out of the browser's and proxies' caches). A route may still set its own Cache-Control.
 */
function answerHeaders(settings: Pick<HttpSettings, 'secureCookies'>): RequestHandler {
  return (req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const path = req.path;
    if (
      path.startsWith('/app/api/') ||
      path === '/app/api' ||
      ((path.startsWith('/v1/') || path === '/v1') &&
        req.headers.cookie !== undefined &&
        sessionTokenOf(settings, req) !== undefined)
    )
      setNoStore(res);
    next();
  };
}

/**
 * Middleware run one after the other as one layer of the app's router (each layer costs the
 * router a walk step): each one's `next()` starts the next, `next(err)` or a throw skips to the
 * error middleware, as separate layers would. Like a router it lists in `stack` the steps that
 * list routes themselves (the route dispatcher), so whatever walks the app's layers for its
 * routes (the OpenAPI tests) still finds them.
 */
function inSequence(...steps: RequestHandler[]): RequestHandler & { stack: { handle: RequestHandler }[] } {
  const run: RequestHandler = (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const handler = steps[i++];
      if (!handler) return next();
      try {
        void handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
  return Object.assign(run, { stack: steps.filter((s) => 'stack' in s).map((handle) => ({ handle })) });
}

/** True for the paths whose requests wait for the shared log (`/v1` and the web app's API, with the paths below). */
const readsYourWrites = (path: string): boolean =>
  path.startsWith('/v1/') || path === '/v1' || path.startsWith('/app/api/') || path === '/app/api';

export function createApp(services: Services, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  // Vary: Accept-Encoding of the answers COMPRESSION does not compress (see writeHeadVarying).
  app.response.writeHead = writeHeadVarying as Response['writeHead'];
  app.set('trust proxy', options.trustProxy ? [...options.trustProxy] : false);
  app.set('query parser', 'simple');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  // The steps every request takes up to the routes, run as one layer.
  const steps: RequestHandler[] = [
    accessLog(app, services.log),
    metricsOf(services).httpMiddleware(),
    COMPRESSION,
    answerHeaders(services),
    // The spec's /v1 answers 404 not_found to an unknown method and path; OPTIONS is none of ours.
    (req, res, next) => {
      if (req.method === 'OPTIONS') sendError(res, 'not_found', `no endpoint OPTIONS ${req.path}`);
      else next();
    },
  ];
  if (services.sharedLog) {
    // Read-your-writes whichever API process answers (DESIGN §3): a /v1 or /app/api request
    // waits until this process's read models include every event stored before it arrived, by
    // any process. While the event store is down (or the head read fails) the request is
    // answered from what the read models hold: reads keep working, writes fail on their own with
    // 503. Once it has been down longer than a wait would last, the head is not even asked for
    // (a driver may take its whole deadline to fail); a single failed call a moment ago does not
    // skip the wait.
    steps.push((req, _res, next) => {
      if (!readsYourWrites(req.path)) return next();
      if ((services.health?.downForMs('event_store') ?? 0) > SYNC_TIMEOUT_MS) return next();
      services.projections.sync(SYNC_TIMEOUT_MS).then(
        () => next(),
        () => next(),
      );
    });
  }
  steps.push(
    maintenanceGate(services), // /v1 only: operator's maintenance mode, 503 api_disabled
    // Every module's router, in order; a request is handed only to the ones that can match its path.
    dispatchByPrefix(ROUTE_MODULES.map((module) => module.router(services))),
  );
  app.use(inSequence(...steps));
  app.use(webAppRouter(services)); // the web app's pages and own API, outside the OpenAPI document
  app.use((req, res) => {
    sendError(res, 'not_found', `no endpoint ${req.method} ${req.path}`);
  });
  app.use(errorMiddleware(services.log));
  return app;
}
