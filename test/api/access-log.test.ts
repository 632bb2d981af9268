/**
 * The access log and the request id in log lines: one line `request` per
 * request with method, route pattern, status, ms, request_id and the organization once
 * authenticated; never the key, a header, an id from the path or the query string (PDF links carry
 * a signature); the log line of a 500 carries the request_id. Waits for the lines, never sleeps.
 */
import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../../api/http/app.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import { SERVICE_SETTINGS } from '../../projections/service-settings/projection.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';

type Line = Record<string, unknown> & { msg: string; level: number; raw: string };

/** Log lines written so far, and a wait for the first one that matches. */
function logCapture() {
  const lines: Line[] = [];
  const waiting: { match: (l: Line) => boolean; resolve: (l: Line) => void }[] = [];
  const log = pino(
    { level: 'info' },
    {
      write(raw: string) {
        const line = { ...JSON.parse(raw), raw } as Line;
        lines.push(line);
        for (const w of [...waiting])
          if (w.match(line)) {
            waiting.splice(waiting.indexOf(w), 1);
            w.resolve(line);
          }
      },
    },
  );
  return {
    log,
    lines,
    /** The first line (already written or to come) for which `match` holds; rejects after 10 s naming `what`. */
    next(what: string, match: (l: Line) => boolean): Promise<Line> {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no log line ${what}`)), 10_000);
        waiting.push({ match, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      });
    },
  };
}

const capture = logCapture();
const run = inProcessService(t, 'access-log', { log: capture.log });
const accessLine = (requestId: string | null) =>
  capture.next(`request of ${requestId}`, (l) => l.msg === 'request' && l.request_id === requestId);

t.test(
  'an authenticated request: method, route pattern, status, ms, request_id, organization; no secrets',
  async (t) => {
    const o = await orgWithKey(run.service, { name: 'Logged' });
    const res = await call(run.service.url, o.key, 'GET', '/v1/jobs/job_nosuchjob?signature=hush-hush');
    t.equal(res.status, 404);
    const line = await accessLine(res.headers.get('x-request-id'));
    t.match(line, {
      level: 30,
      method: 'GET',
      route: '/v1/jobs/:id',
      status: 404,
      orgId: o.orgId,
      request_id: /^req_/,
    });
    t.type(line['ms'], 'number');
    t.ok((line['ms'] as number) >= 0);
    for (const secret of [o.key, 'Bearer', 'job_nosuchjob', 'hush-hush', 'signature'])
      t.notOk(line.raw.toLowerCase().includes(secret.toLowerCase()), `no ${secret.slice(0, 12)}… in the line`);
    t.same(
      Object.keys(line)
        .filter((k) => !['level', 'time', 'pid', 'hostname', 'msg', 'raw'].includes(k))
        .sort(),
      ['method', 'ms', 'orgId', 'request_id', 'route', 'status'],
    );
  },
);

t.test('unauthenticated and unmatched requests: no organization, no URL', async (t) => {
  const denied = await call(run.service.url, 'pk_live_notakeyatallnotakeyatallnotakeyatall00', 'GET', '/v1/balance');
  t.equal(denied.status, 401);
  const line = await accessLine(denied.headers.get('x-request-id'));
  t.match(line, { route: '/v1/balance', status: 401 });
  t.equal(line['orgId'], undefined);
  t.notOk(line.raw.includes('pk_live_'), 'the rejected key is not logged');
  const pdf = await call(run.service.url, null, 'GET', '/plans/job_abc.pdf?expires=1&signature=c2lnbmF0dXJl');
  const pdfLine = await accessLine(pdf.headers.get('x-request-id'));
  t.match(pdfLine, { route: '/plans/:file', status: pdf.status });
  t.notOk(
    pdfLine.raw.includes('c2lnbmF0dXJl') || pdfLine.raw.includes('job_abc'),
    "a PDF link's signature and file are not logged",
  );
  const lost = await call(run.service.url, null, 'GET', '/v1/somewhere/secret-token');
  const lostLine = await accessLine(lost.headers.get('x-request-id'));
  t.match(lostLine, { route: 'unmatched', status: 404 });
  t.notOk(lostLine.raw.includes('secret-token'));
});

t.test('the log line of a 500 carries the request_id of its answer', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Broken' });
  // Every read past the maintenance gate fails, as when the read store's server is gone.
  const fails = () => Promise.reject(new Error('the read store fell over'));
  const reads = run.service.services.reads;
  const broken = Object.assign(Object.create(reads) as ReadStore, {
    collection: (name: string) =>
      name === SERVICE_SETTINGS
        ? reads.collection(name)
        : { get: fails, put: fails, delete: fails, find: fails, count: fails },
  });
  // Without the read-model cache, whose own reads would not fail.
  const { readCache: _held, ...services } = run.service.services;
  const app = createApp({ ...services, reads: broken });
  const server = createServer(app);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  t.teardown(() => new Promise<void>((ok) => server.close(() => ok())));
  const res = await call(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, o.key, 'GET', '/v1/balance');
  t.same([res.status, res.body.error.code], [500, 'internal_error']);
  const requestId = res.headers.get('x-request-id');
  t.equal(res.body.error.request_id, requestId);
  const error = await capture.next('internal error', (l) => l.msg === 'internal error' && l.request_id === requestId);
  t.match(error, { level: 50, route: '/v1/balance', method: 'GET', err: { message: 'the read store fell over' } });
  t.match(await accessLine(requestId), { status: 500, route: '/v1/balance' });
});
