/**
 * GET /openapi.json (the OpenAPI 3.1 document, built once from every route module) and GET /docs
 * (readable reference docs: Swagger UI from the installed swagger-ui-dist package, served from
 * /docs/assets, started by /docs/swagger-init.js and pointed at /openapi.json, with the
 * accessibility plugin and stylesheet of docs-accessibility.ts; no CDN; the page policy of
 * api/http/page-security.ts, so no inline script). Neither needs authentication.
 * The list of route modules is handed in (routes/index.ts, which lists this module too), so this
 * module does not import the list that imports it.
 */
import { createRequire } from 'node:module';
import express, { Router } from 'express';
import { buildOpenApi } from '../openapi/document.js';
import { DOCS_A11Y_SCRIPT, DOCS_A11Y_STYLES } from './docs-accessibility.js';
import { setPageSecurity } from '../page-security.js';
import { ROUTER_OPTIONS, type RouteDoc, type RouteModule } from '../route-docs.js';

// swagger-ui-dist ships no types; its absolutePath() is this CommonJS file (loading the package
// index instead would evaluate the whole browser bundle in Node).
const swaggerUiPath = createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js') as () => string;

/**
 * The HTML page of GET /docs: Swagger UI rendering /openapi.json. Every URL in it is relative to
 * the page (`/docs` → `openapi.json`, `docs/assets/…`), so it works behind a path prefix
 * (`/packing/docs` loads `/packing/openapi.json`, and "Try it out" sends to `/packing/v1/…`).
 */
export const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Packing service API reference</title>
  <link rel="stylesheet" href="docs/assets/swagger-ui.css">
  <link rel="stylesheet" href="docs/a11y.css">
  <link rel="icon" type="image/png" href="docs/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/assets/swagger-ui-bundle.js"></script>
  <script src="docs/swagger-a11y.js"></script>
  <script src="docs/swagger-init.js"></script>
</body>
</html>
`;

/**
 * The script of GET /docs, served as /docs/swagger-init.js (the page policy allows no inline
 * script): Swagger UI on the document relative to the page, with the accessibility plugin of
 * /docs/swagger-a11y.js (docs-accessibility.ts).
 */
export const DOCS_INIT_SCRIPT = `'use strict';
// Behind a path prefix (/packing/docs), "Try it out" calls /packing/v1/…: the document's
// server is "/", so requests to this origin outside the prefix get the prefix added.
const prefix = new URL('.', location.href).pathname.slice(0, -1);
window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  requestInterceptor: (request) => {
    const target = new URL(request.url, location.href);
    if (prefix && target.origin === location.origin && !target.pathname.startsWith(prefix + '/')) {
      target.pathname = prefix + target.pathname;
      request.url = target.toString();
    }
    return request;
  },
  dom_id: '#swagger-ui',
  deepLinking: true,
  defaultModelsExpandDepth: 0,
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [docsAccessibilityPlugin],
  layout: 'BaseLayout',
  // Code in a theme whose colours reach 4.5:1 (axe color-contrast; the default, agate, does not).
  syntaxHighlight: { theme: 'tomorrow-night' }
});
`;

/** The page's own files under /docs (name → content type and text), beside swagger-ui-dist's /docs/assets. */
const DOCS_FILES: Record<string, { type: string; body: string }> = {
  'swagger-init.js': { type: 'application/javascript', body: DOCS_INIT_SCRIPT },
  'swagger-a11y.js': { type: 'application/javascript', body: DOCS_A11Y_SCRIPT },
  'a11y.css': { type: 'text/css', body: DOCS_A11Y_STYLES },
};

/**
 * The docs routes over `modules()`: every route module of the service, this one included. A
 * function, read when /openapi.json is first asked for, because the list holds this module.
 */
export function docsRoutes(modules: () => readonly RouteModule[]): RouteModule {
  return { router: () => docsRouter(modules), docs: DOCS };
}

function docsRouter(modules: () => readonly RouteModule[]): Router {
  const router = Router(ROUTER_OPTIONS);
  let document: string | null = null;

  router.get('/openapi.json', (_req, res) => {
    document ??= JSON.stringify(buildOpenApi(modules()));
    res.type('application/json').send(document);
  });

  router.get('/docs', (_req, res) => {
    setPageSecurity(res, 'docs');
    res.type('text/html').send(DOCS_PAGE);
  });
  // Static assets of the page like /docs/assets (middleware, so not operations of the document).
  for (const [file, { type, body }] of Object.entries(DOCS_FILES)) {
    router.use(`/docs/${file}`, (req, res, next) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path !== '/') return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.type(type).send(body);
    });
  }
  // Only the scripts, styles and images of the page: swagger-ui-dist's own HTML files (a demo
  // index.html pointing at a remote spec, oauth2-redirect.html) are not served on this origin.
  router.use('/docs/assets', (req, _res, next) => (/\.html?$/i.test(req.path) ? next('router') : next()));
  router.use('/docs/assets', express.static(swaggerUiPath(), { index: false, maxAge: '1h' }));

  return router;
}

const DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'This OpenAPI 3.1 document',
    description:
      'The OpenAPI 3.1 document of the service, generated from the same JSON Schemas the service validates requests with.',
    tags: ['Docs'],
    scopes: [],
    responses: {
      '200': {
        description: 'The OpenAPI document',
        schema: { type: 'object', required: ['openapi', 'info', 'paths'] },
        example: { openapi: '3.1.0', info: { title: 'Packing service API', version: '0.1.0' }, paths: {} },
      },
    },
    errors: [],
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'getDocs',
    summary: 'Reference docs (HTML)',
    description: 'Readable reference docs rendered from /openapi.json in the browser.',
    tags: ['Docs'],
    scopes: [],
    responses: { '200': { description: 'An HTML page', contentType: 'text/html', schema: { type: 'string' } } },
    errors: [],
  },
];
