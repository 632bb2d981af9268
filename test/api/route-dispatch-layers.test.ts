/**
 * Routing by path prefix (api/http/route-dispatch.ts): a router filed under a path's key is
 * handed the request only when one of its layers matches the path, with the same answers.
 */
import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import { dispatchByPrefix } from '../../api/http/route-dispatch.js';
import { ROUTER_OPTIONS } from '../../api/http/route-docs.js';

t.test('a router whose layers cannot match the path is not entered', async (t) => {
  const entered: string[] = [];
  const spy = (name: string, router: Router): Router =>
    Object.assign(
      ((req, res, next) => {
        entered.push(name);
        router(req, res, next);
      }) as Router,
      { stack: router.stack, caseSensitive: true },
    );
  const list = Router(ROUTER_OPTIONS);
  list.get('/v1/jobs', (_req, res) => void res.json({ router: 'list' }));
  const jobs = Router(ROUTER_OPTIONS);
  jobs.get('/v1/jobs/:id', (req, res) => void res.json({ router: 'jobs', id: req.params['id'] }));
  jobs.get('/v1/jobs/:id/result', (req, res) => void res.json({ router: 'result', id: req.params['id'] }));
  const app = express();
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.use(dispatchByPrefix([spy('list', list), spy('jobs', jobs)]));
  app.use((req, res) => void res.status(404).json({ missing: req.path }));
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  t.teardown(() => void server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string) => {
    entered.length = 0;
    const res = await fetch(base + path);
    return { status: res.status, body: await res.json(), entered: [...entered] };
  };
  t.same(await get('/v1/jobs/job_1'), { status: 200, body: { router: 'jobs', id: 'job_1' }, entered: ['jobs'] });
  t.same(await get('/v1/jobs'), { status: 200, body: { router: 'list' }, entered: ['list'] });
  t.same(await get('/v1/jobs/job_1/result'), {
    status: 200,
    body: { router: 'result', id: 'job_1' },
    entered: ['jobs'],
  });
  t.same(await get('/v1/jobs/job_1/other'), { status: 404, body: { missing: '/v1/jobs/job_1/other' }, entered: [] });
  // A parameter the router cannot decode: the router is entered and answers its 400, as before.
  entered.length = 0;
  const malformed = await fetch(`${base}/v1/jobs/%E0%A4%A`);
  t.equal(malformed.status, 400);
  t.same(entered, ['jobs']);
});
