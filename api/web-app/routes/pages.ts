/**
 * The web app's pages: built by Vite from `webapp/` into `webapp/dist` (viewer/build.ts,
 * WEBAPP). `GET /app` and every page path under `/app/` answer index.html (the browser's router
 * picks the page); `/app/assets/*` are the hashed scripts and styles (cached for a year). Paths
 * under `/app/api/` are never pages: unknown ones get the 404 envelope. The pages carry the
 * service's page policy (api/http/page-security.ts; no framing). Mounted as middleware,
 * not routes: the pages are not part of the OpenAPI document.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import { WEBAPP, buildState } from '../../../viewer/build.js';
import { sendError } from '../../http/errors.js';
import { setPageSecurity } from '../../http/page-security.js';
import { ROUTER_OPTIONS } from '../../http/route-docs.js';
import type { Services } from '../../http/services.js';

/** Router of /app and /app/assets. */
export function webAppPagesRouter(services: Services): Router {
  const router = Router(ROUTER_OPTIONS);
  if (buildState(WEBAPP) === 'missing') {
    services.log.warn({ dir: WEBAPP.dist }, 'the web app is not built (npm run build): /app answers 500 until it is');
  }
  let page: string | null = null;
  router.use(
    '/app/assets',
    express.static(join(WEBAPP.dist, 'assets'), {
      index: false,
      immutable: true,
      maxAge: '365d',
      redirect: false,
      fallthrough: true,
    }),
  );
  const pages: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path; // relative to /app
    if (path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/')) return next();
    // Read once: the build does not change while the service runs (a missing build is a 500).
    page ??= readFileSync(join(WEBAPP.dist, 'index.html'), 'utf8');
    res.setHeader('Cache-Control', 'no-cache');
    setPageSecurity(res, 'none');
    res.type('text/html').send(page);
  };
  router.use('/app', pages);
  router.use('/app/api', (req, res) =>
    sendError(res, 'not_found', `no endpoint ${req.method} ${req.originalUrl.split('?')[0]}`),
  );
  return router;
}
