/**
 * The HTTP application: middleware order is request id → JSON body (10 MB) → routes → 404 for
 * unknown /v1 paths → the one error middleware (STYLE).
 */
import express, { type Express } from 'express';
import { errorMiddleware, sendError } from './errors.js';
import { newId } from './id.js';
import { ROUTE_MODULES } from './routes/index.js';
import type { Services } from './services.js';


export function createApp(services: Services): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'simple');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.use((_req, res, next) => {
    res.setHeader('X-Request-Id', newId('req'));
    next();
  });
  // The spec's /v1 answers 404 not_found to an unknown method and path; OPTIONS is none of ours.
  app.use((req, res, next) => {
    if (req.method === 'OPTIONS') sendError(res, 404, 'not_found', `no endpoint OPTIONS ${req.path}`);
    else next();
  });

  for (const module of ROUTE_MODULES) app.use(module.router(services));
  app.use((req, res) => {
    sendError(res, 404, 'not_found', `no endpoint ${req.method} ${req.path}`);
  });
  app.use(errorMiddleware(services.log));
  return app;
}
