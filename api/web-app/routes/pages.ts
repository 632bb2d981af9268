/**
 * The web app's pages: its build (api/http/front-ends.ts, WEB_APP_BUILD; 503 `api_disabled` while
 * it is not built). `GET /app` and every page path under `/app/` answer index.html (the browser's router
 * picks the page); `/app/assets/*` are the hashed scripts and styles (cached for a year). Paths
 * under `/app/api/` are never pages: unknown ones get the 404 envelope. The pages carry the
 * service's page policy (api/http/page-security.ts; no framing). Mounted as middleware,
 * not routes: the pages are not part of the OpenAPI document.
 */
import express, { Router, type RequestHandler } from 'express';
import { sendError } from '../../http/errors.js';
import { WEB_APP_BUILD, assetsOf, isBuilt, pageReader } from '../../http/front-ends.js';
import { setPageSecurity } from '../../http/page-security.js';
import { ROUTER_OPTIONS } from '../../http/route-docs.js';
import type { HttpPorts } from '../../http/context.js';

/** Router of /app and /app/assets. */
export function webAppPagesRouter(services: Pick<HttpPorts, 'log'>): Router {
  const router = Router(ROUTER_OPTIONS);
  if (!isBuilt(WEB_APP_BUILD)) {
    services.log.warn(
      { dir: WEB_APP_BUILD.dist },
      'the web app is not built (npm run build): /app answers 503 until it is',
    );
  }
  const page = pageReader(WEB_APP_BUILD);
  router.use(
    '/app/assets',
    express.static(assetsOf(WEB_APP_BUILD), {
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
    const html = page();
    res.setHeader('Cache-Control', 'no-cache');
    setPageSecurity(res, 'web-app');
    res.type('text/html').send(html);
  };
  router.use('/app', pages);
  router.use('/app/api', (req, res) =>
    sendError(res, 'not_found', `no endpoint ${req.method} ${req.originalUrl.split('?')[0]}`),
  );
  return router;
}
