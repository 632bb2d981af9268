/**
 * The OpenAPI 3.1 document (GET /openapi.json) and the reference docs (GET /docs): the document
 * is valid OpenAPI 3.1, every `$ref` resolves, the PackRequest schema is the one ajv validates
 * with, and the (method, path) pairs the express app serves are exactly the documented ones.
 */
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { createApp } from '../../api/http/app.js';
import { startService, type RunningService } from '../../service/server.js';
import { buildOpenApi } from '../../api/http/openapi/document.js';
import { ERROR_STATUS, liftDefs } from '../../api/http/openapi/components.js';
import { PACK_REQUEST_SCHEMA } from '../../api/http/pack-request/schema.js';
import { ROUTE_MODULES } from '../../api/http/routes/index.js';
import { call } from '../helpers/service-process.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-openapi-'));
let service: RunningService;
let doc: any;

t.before(async () => {
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
  });
  const res = await call(service.url, null, 'GET', '/openapi.json');
  doc = res.body;
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** `METHOD /path` of every route in an express 5 router stack, nested routers included (all mounted at /). */
function servedRoutes(stack: Layer[]): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on && method !== '_all') out.push(`${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
        }
      }
    } else if (layer.handle?.stack) {
      out.push(...servedRoutes(layer.handle.stack));
    }
  }
  return out;
}

/** `METHOD /path` of every operation in the document. */
function documentedRoutes(d: any): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries<Record<string, unknown>>(d.paths)) {
    for (const method of Object.keys(item))
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) out.push(`${method.toUpperCase()} ${path}`);
  }
  return out;
}

/** Every `$ref` value in `node`. */
function refsOf(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) for (const x of node) refsOf(x, into);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') into.push(v);
      else refsOf(v, into);
    }
  }
  return into;
}

/** The value at a local JSON pointer (`#/a/b`), or undefined. */
function resolvePointer(root: unknown, pointer: string): unknown {
  let node: any = root;
  for (const raw of pointer.replace(/^#\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

t.test('GET /openapi.json answers the document as JSON, without a key', async (t) => {
  const res = await call(service.url, null, 'GET', '/openapi.json');
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.match(res.headers.get('x-request-id'), /^req_/);
  t.equal(res.body.openapi, '3.1.0');
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  t.equal(res.body.info.version, pkg.version);
  t.same(res.body.servers, [{ url: '/', description: 'This service' }]);
  t.same(res.body, buildOpenApi(ROUTE_MODULES), 'served = built from the route modules');
});

t.test('the document is valid OpenAPI 3.1', async (t) => {
  const validator = new Validator();
  const result = await validator.validate(doc);
  t.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 4000));
  t.equal(validator.version, '3.1');
});

t.test('every $ref resolves inside the document', async (t) => {
  const refs = refsOf(doc);
  t.ok(refs.length > 50, `${refs.length} references`);
  const broken = [...new Set(refs)].filter((r) => !r.startsWith('#/') || resolvePointer(doc, r) === undefined);
  t.same(broken, [], 'no dangling or external $ref');
  t.notOk(JSON.stringify(doc).includes('#/$defs/'), 'no $defs reference left');
});

t.test('the PackRequest component is the schema ajv validates with', async (t) => {
  const schemas = doc.components.schemas;
  t.same(schemas.PackRequest, liftDefs(PACK_REQUEST_SCHEMA));
  for (const name of Object.keys(PACK_REQUEST_SCHEMA.$defs)) {
    t.same(
      schemas[name],
      liftDefs(PACK_REQUEST_SCHEMA.$defs[name as keyof typeof PACK_REQUEST_SCHEMA.$defs]),
      `${name} lifted`,
    );
  }
  t.same(doc.paths['/v1/pack'].post.requestBody.content['application/json'].schema, {
    $ref: '#/components/schemas/PackRequest',
  });
  for (const name of [
    'Error',
    'ErrorDetail',
    'Warning',
    'Job',
    'JobProgress',
    'JobSummary',
    'JobCost',
    'CostBreakdown',
    'Result',
    'ResultVehicle',
    'Placement',
    'UnplacedItem',
    'Point',
    'AxleLoad',
    'Estimate',
    'Balance',
    'Limits',
    'RateLimits',
    'RateCard',
  ]) {
    t.ok(schemas[name], `components.schemas.${name}`);
  }
});

t.test('the routes the app serves are exactly the documented ones', async (t) => {
  const app = createApp(service.services) as unknown as { router: { stack: Layer[] } };
  const all = servedRoutes(app.router.stack).sort();
  // The web app's own API (/app/api) is not the spec's: it stays out of the document.
  const served = all.filter((r) => !r.split(' ')[1]!.startsWith('/app/'));
  t.ok(all.includes('GET /app/api/session'), 'the web app routes are served');
  t.same(
    documentedRoutes(doc).filter((r) => r.split(' ')[1]!.startsWith('/app/')),
    [],
    'and not documented',
  );
  const documented = documentedRoutes(doc).sort();
  t.ok(served.length >= 11, `${served.length} routes served`);
  t.same(
    served.filter((r) => !documented.includes(r)),
    [],
    'served but not documented',
  );
  t.same(
    documented.filter((r) => !served.includes(r)),
    [],
    'documented but not served',
  );
  t.equal(new Set(served).size, served.length, 'no route registered twice');
});

t.test('security, headers and error responses of every operation', async (t) => {
  const open = new Set([
    'GET /health',
    'GET /metrics',
    'GET /openapi.json',
    'GET /docs',
    'GET /plans/{file}',
    'GET /viewer/{job}',
    'GET /viewer/{job}/plan.json',
  ]);
  t.equal(doc.components.securitySchemes.bearer.type, 'http');
  t.equal(doc.components.securitySchemes.bearer.scheme, 'bearer');
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const name = `${method.toUpperCase()} ${path}`;
      if (open.has(name)) t.same(op.security, [], `${name} needs no key`);
      else {
        t.equal(op.security.length, 1, `${name} needs a key`);
        t.ok(op.security[0].bearer.length > 0, `${name} lists its scopes`);
      }
      for (const [status, response] of Object.entries<any>(op.responses)) {
        t.ok(response.headers?.['X-Request-Id'], `${name} ${status} has X-Request-Id`);
        if (Number(status) >= 400) {
          const [envelope, codes] = response.content['application/json'].schema.allOf;
          t.same(envelope, { $ref: '#/components/schemas/Error' });
          for (const code of codes.properties.error.properties.code.enum)
            t.equal(ERROR_STATUS[code], Number(status), `${name}: ${code} under ${status}`);
        } else if (!open.has(name)) {
          t.ok(
            response.headers['X-Credits-Remaining'] && response.headers['X-RateLimit-Limit'],
            `${name} ${status} has the credit and rate headers`,
          );
        }
      }
      if (!open.has(name)) {
        t.ok(op.responses['401'] && op.responses['403'] && op.responses['429'], `${name} documents 401, 403, 429`);
        t.ok(op.responses['429'].headers['Retry-After'], `${name} 429 has Retry-After`);
      }
      t.ok(op.responses['500'], `${name} documents 500`);
    }
  }
  t.ok(
    doc.paths['/v1/pack'].post.responses['202'].headers['Idempotent-Replayed'],
    'pack documents Idempotent-Replayed',
  );
});

t.test('GET /docs answers an HTML page whose assets load from this service', async (t) => {
  const res = await fetch(`${service.url}/docs`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/html/);
  const html = await res.text();
  t.notMatch(html, /<script>/, 'no inline script (the page policy forbids it)');
  const init = await (await fetch(`${service.url}/docs/swagger-init.js`)).text();
  t.match(init, /SwaggerUIBundle\(/, 'Swagger UI is started by docs/swagger-init.js');
  t.match(init, /url: 'openapi\.json'/, 'the document relative to the page (works behind a path prefix)');
  t.notMatch(html, /https?:\/\//, 'no CDN: every asset is local');
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  t.ok(
    assets.includes('docs/assets/swagger-ui-bundle.js') &&
      assets.includes('docs/assets/swagger-ui.css') &&
      assets.includes('docs/swagger-init.js'),
  );
  for (const asset of assets) {
    t.notOk(asset.startsWith('/'), `${asset} is relative to the page`);
    const a = await fetch(new URL(asset, `${service.url}/docs`));
    t.equal(a.status, 200, `${asset} loads`);
    t.ok((await a.arrayBuffer()).byteLength > 100, `${asset} has content`);
  }
});

t.test('GET /docs renders the operations in a browser', async (t) => {
  const chromium = CHROMIUM;
  if (!existsSync(chromium)) {
    // .ci/run installs Debian's chromium; a machine without it says so here.
    const reason = `no browser check: ${chromium} is not installed`;
    t.comment(reason);
    t.pass('browser screenshot of /docs', { skip: reason });
    return;
  }
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${service.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    const operations = await page.$$eval('.opblock-summary-path', (els: { textContent: string | null }[]) =>
      els.map((e) => e.textContent),
    );
    t.ok(operations.includes('/v1/pack'), 'the pack operation is rendered');
    await page.screenshot({ path: join(dir, 'docs.png'), fullPage: false });
  } finally {
    await browser.close();
  }
});

t.test('every JSON request body and response carries an example valid against its schema', async (t) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajvFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const checked: string[] = [];
  const check = (where: string, media: any) => {
    // One example, or named ones (`examples`, e.g. POST /v1/plans/verify: a valid and an invalid plan); never both.
    const named = Object.entries<any>(media.examples ?? {}).map(
      ([name, e]) => [`${where} (${name})`, e.value] as const,
    );
    t.ok(media.example === undefined || named.length === 0, `${where} has example or examples, not both`);
    const cases = media.example === undefined ? named : [[where, media.example] as const];
    t.ok(cases.length > 0, `${where} has an example`);
    const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', '"doc#/components/'));
    for (const [name, value] of cases) {
      const valid = ajv.validate(schema, value);
      t.ok(valid, `${name}: the example is valid ${valid ? '' : ajv.errorsText(ajv.errors)}`);
      checked.push(name);
    }
  };
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const name = `${method.toUpperCase()} ${path}`;
      const body = op.requestBody?.content?.['application/json'];
      if (body) check(`${name} request`, body);
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const json = response.content?.['application/json'];
        if (json) check(`${name} ${status}`, json);
      }
    }
  }
  t.ok(checked.length > 150, `${checked.length} examples checked`);
  t.equal(
    doc.paths['/v1/pack'].post.requestBody.content['application/json'].example.vehicles[0].id,
    'semi-13-6',
    'the pack example is examples/eur-pallets-13-6m-trailer.json',
  );
  const verify = doc.paths['/v1/plans/verify'].post;
  t.same(
    Object.keys(verify.responses['200'].content['application/json'].examples),
    ['default', 'overlap'],
    'the verify operation shows a valid and an invalid plan',
  );
  t.equal(verify.responses['200'].content['application/json'].examples.default.value.valid, true);
  t.equal(verify.responses['200'].content['application/json'].examples.overlap.value.valid, false);
  t.equal(verify.responses['200'].content['application/json'].examples.overlap.value.problems[0].rule, 'overlap');
  t.equal(
    doc.paths['/v1/jobs/{id}'].get.responses['200'].content['application/json'].example.status,
    'succeeded',
    'a real finished job',
  );
});

t.test('a schema violation in an example is caught (the check can fail)', async (t) => {
  const ajv = new Ajv2020({ strict: false });
  ajvFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const example = structuredClone(doc.paths['/v1/balance'].get.responses['200'].content['application/json'].example);
  t.ok(ajv.validate({ $ref: 'doc#/components/schemas/Balance' }, example));
  delete example.available_credits;
  t.notOk(ajv.validate({ $ref: 'doc#/components/schemas/Balance' }, example));
});

t.test('every tag has a description; info has a license', async (t) => {
  t.ok(doc.tags.length >= 7);
  for (const tag of doc.tags)
    t.ok(typeof tag.description === 'string' && tag.description.length > 20, `${tag.name} is described`);
  const used = new Set(
    Object.values<Record<string, any>>(doc.paths).flatMap((item) => Object.values<any>(item).flatMap((op) => op.tags)),
  );
  t.same(new Set(doc.tags.map((tag: { name: string }) => tag.name)), used, 'exactly the used tags are listed');
  t.equal(typeof doc.info.license.name, 'string');
  t.throws(
    () =>
      buildOpenApi([
        {
          router: () => {
            throw new Error('unused');
          },
          docs: [
            {
              method: 'get',
              path: '/x',
              operationId: 'x',
              summary: 'x',
              tags: ['Undescribed'],
              scopes: [],
              responses: {},
              errors: [],
            },
          ],
        },
      ]),
    /Undescribed/,
  );
});

t.test('GET /docs behind a path prefix: the document and "Try it out" go through the prefix', async (t) => {
  const chromium = CHROMIUM;
  if (!existsSync(chromium)) {
    const reason = `no browser check: ${chromium} is not installed`;
    t.comment(reason);
    t.pass('docs behind a prefix', { skip: reason });
    return;
  }
  // A reverse proxy serving the service under /packing (prefix stripped), 404 elsewhere.
  const seen: string[] = [];
  const proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (!req.url?.startsWith('/packing/')) return void res.writeHead(404).end();
    void fetch(service.url + req.url.slice('/packing'.length), { method: req.method! }).then(async (upstream) => {
      res
        .writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
        })
        .end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/packing/docs`);
    await page.waitForSelector('#operations-Service-getHealth', { timeout: 20_000 });
    t.ok(seen.includes('GET /packing/openapi.json'), 'the document is loaded under the prefix');
    t.notOk(
      seen.some((s) => !s.startsWith('GET /packing/')),
      `nothing asked outside the prefix: ${seen.filter((s) => !s.startsWith('GET /packing/')).join(', ')}`,
    );
    await page.click('#operations-Service-getHealth .opblock-summary');
    await page.click('#operations-Service-getHealth .try-out__btn');
    await page.click('#operations-Service-getHealth .execute');
    await page.waitForSelector('#operations-Service-getHealth .live-responses-table', { timeout: 20_000 });
    t.ok(seen.includes('GET /packing/health'), '"Try it out" called /packing/health');
    const status = await page.textContent(
      '#operations-Service-getHealth .live-responses-table tbody .response-col_status',
    );
    t.equal(status?.trim(), '200', 'the live answer: 200');
  } finally {
    await browser.close();
  }
});
