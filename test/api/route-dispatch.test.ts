/**
 * Routing by path prefix (api/http/route-dispatch.ts): a request reaches only the routers that
 * can match its path, in their order, with the answers the full walk of every router gives:
 * parameters, middleware mounted on a path or at `/`, errors, `next('router')`, and paths no
 * router serves.
 */
import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router, type ErrorRequestHandler } from 'express';
import { dispatchByPrefix, dispatchKey } from '../../api/http/route-dispatch.js';
import { ROUTER_OPTIONS } from '../../api/http/route-docs.js';

t.test('the key of a path is its first two segments without a trailing slash', async (t) => {
  t.equal(dispatchKey('/v1/jobs/job_1/result'), '/v1/jobs');
  t.equal(dispatchKey('/v1/jobs'), '/v1/jobs');
  t.equal(dispatchKey('/v1/jobs/'), '/v1/jobs');
  t.equal(dispatchKey('/health'), '/health');
  t.equal(dispatchKey('/health/'), '/health');
  t.equal(dispatchKey('/'), '/');
  t.equal(dispatchKey('//v1/jobs'), '//v1');
});

/** Routers that record which of them saw each request. */
function fixture() {
  const seen: string[] = [];
  const saw =
    (name: string): express.RequestHandler =>
    (_req, _res, next) => {
      seen.push(name);
      next();
    };
  const jobs = Router(ROUTER_OPTIONS);
  jobs.use(saw('jobs'));
  jobs.get('/v1/jobs/:id', (req, res) => void res.json({ router: 'jobs', id: req.params['id'] }));
  const list = Router(ROUTER_OPTIONS);
  list.get('/v1/jobs', (req, res) => void res.json({ router: 'list', route: req.route?.path }));
  const plans = Router(ROUTER_OPTIONS);
  plans.get('/plans/:file', (req, res) => void res.json({ router: 'plans', file: req.params['file'] }));
  const docs = Router(ROUTER_OPTIONS);
  docs.use('/docs/assets', (req, _res, next) => (req.path === '/skip' ? next('router') : next()));
  docs.use('/docs/assets', (req, res) => void res.json({ router: 'docs', rest: req.path }));
  const failing = Router(ROUTER_OPTIONS);
  failing.get('/v1/fail', () => {
    throw new Error('boom');
  });
  const loose = Router({ caseSensitive: false });
  loose.get('/v1/loose', (_req, res) => void res.json({ router: 'loose' }));
  // Each router wrapped to record that a request entered it (the dispatcher reads the router's
  // layers and options, copied onto the wrapper).
  const entered: string[] = [];
  const spy = (name: string, router: Router): Router =>
    Object.assign(
      ((req, res, next) => {
        entered.push(name);
        router(req, res, next);
      }) as Router,
      { stack: router.stack, caseSensitive: true },
      name === 'loose' ? { caseSensitive: false } : {},
    );
  const routers = [
    spy('jobs', jobs),
    spy('list', list),
    spy('plans', plans),
    spy('docs', docs),
    spy('failing', failing),
    spy('loose', loose),
  ];
  const app = express();
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.use((_req, _res, next) => {
    seen.length = 0;
    entered.length = 0;
    next();
  });
  const dispatch = dispatchByPrefix(routers);
  app.use(dispatch);
  app.use((req, res) => void res.status(404).json({ missing: `${req.method} ${req.path}` }));
  const onError: ErrorRequestHandler = (err: Error, _req, res, _next) =>
    void res.status(500).json({ err: err.message });
  app.use(onError);
  return { app, seen, entered, routers, dispatch };
}

t.test('requests reach only the routers their path can match, with the full walk’s answers', async (t) => {
  const { app, seen, entered, routers, dispatch } = fixture();
  t.same(
    dispatch.stack.map((l) => l.handle),
    routers,
    'the routers are listed as layers, in order',
  );
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  t.teardown(() => void server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string, method = 'GET') => {
    const res = await fetch(base + path, { method });
    return { status: res.status, body: await res.json(), seen: [...seen] };
  };
  const enters = async (path: string, expected: string[]) => {
    await get(path);
    t.same(entered, expected, `${path} enters ${expected.join(', ')}`);
  };

  t.same(await get('/v1/jobs/job_1'), { status: 200, body: { router: 'jobs', id: 'job_1' }, seen: ['jobs'] });
  t.same(
    await get('/v1/jobs'),
    { status: 200, body: { router: 'list', route: '/v1/jobs' }, seen: ['jobs'] },
    'a router with middleware at / is tried for every path, before the later ones',
  );
  t.same(
    (await get('/plans/job_1.pdf')).body,
    { router: 'plans', file: 'job_1.pdf' },
    'a parameter in the 2nd segment',
  );
  t.same((await get('/docs/assets/x.css')).body, { router: 'docs', rest: '/x.css' }, 'middleware on a path');
  t.same((await get('/docs/assets')).body, { router: 'docs', rest: '/' });
  t.same((await get('/docs/assets/skip')).body, { missing: 'GET /docs/assets/skip' }, "next('router') goes on");
  t.same((await get('/v1/fail')).body, { err: 'boom' }, 'an error goes to the error middleware');
  t.same((await get('/V1/LOOSE')).body, { router: 'loose' }, 'a router that ignores case is always tried');
  t.same((await get('/v1/jobs/job_1/extra')).body, { missing: 'GET /v1/jobs/job_1/extra' }, 'no route: next');
  t.same((await get('/v1/Jobs')).body, { missing: 'GET /v1/Jobs' }, 'case counts');
  t.same((await get('/v1/jobs/job_1', 'DELETE')).body, { missing: 'DELETE /v1/jobs/job_1' }, 'method counts');
  t.same((await get('/nowhere/at/all')).body, { missing: 'GET /nowhere/at/all' });

  // Which routers a request entered: `jobs` (middleware at /) and `loose` (any case) always,
  // the others only for the paths they serve.
  await enters('/v1/jobs/job_1', ['jobs']);
  await enters('/v1/jobs', ['jobs', 'list']);
  await enters('/plans/job_1.pdf', ['jobs', 'plans']);
  await enters('/docs/assets/x.css', ['jobs', 'docs']);
  await enters('/v1/fail', ['jobs', 'failing']);
  await enters('/v1/balance', ['jobs', 'loose']);
  await enters('/nowhere/at/all', ['jobs', 'loose']);
});
