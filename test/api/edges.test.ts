/**
 * Edges found by review: odd paths and methods, bodies of unauthenticated requests, broken
 * encodings, empty chunked bodies, exact path matching, UTF-8 Idempotency-Keys, a graceful stop
 * during a search, and cancel billing from the real compute start.
 */
import t from 'tap';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import { call } from '../helpers/service-process.js';
import { computing, running, untilJob } from '../helpers/job-state.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-edges-'));
let service: RunningService;
let key: string;
const small = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'c', length: 60, width: 40, height: 40, weight: 12, quantity: 5 }],
};
// 200 kinds that do not fit a van: the search cannot stop early, it runs until stopped.
const busyBody = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: Array.from({ length: 200 }, (_, i) => ({
    id: `sku-${i}`,
    length: 20 + (i % 37),
    width: 15 + (i % 23),
    height: 10 + (i % 29),
    weight: 3,
    quantity: 10,
  })),
  // Far longer than any test here takes on a loaded machine: it ends by a cancel or a stop.
  options: { packing_mode: 'fleet_only', time_limit: 60 },
};

// One compute slot: a second organization's job then holds its own slot while it waits for the solver.
const start = () =>
  startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    solverConcurrency: 1,
    log: pino({ level: 'silent' }),
  });
t.before(async () => {
  service = await start();
  // An organization with room for polling: the demo one has the spec's 60 requests a minute.
  const now = new Date().toISOString();
  const org = await provisionOrganization(service.services.store, {
    name: 'Edges',
    ownerName: 'E',
    subscriptionCredits: 100,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
    limits: { rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 } },
  });
  const created = await createApiKey(service.services.store, {
    orgId: org.orgId,
    memberId: org.ownerId,
    name: 'edges',
    now,
  });
  await service.services.projections.waitFor(created.position);
  key = created.secret;
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw HTTP exchange (for headers fetch will not send as given). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | string,
): Promise<{ status: number; body: any; requestId: string }> {
  const url = new URL(service.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode!,
          body: text ? JSON.parse(text) : null,
          requestId: String(res.headers['x-request-id']),
        });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

t.test('a path that does not percent-decode is 404 not_found, not 500', async (t) => {
  for (const path of ['/v1/jobs/%E0%A4%A', '/v1/vehicles/%ZZ', '/plans/%ZZ.pdf']) {
    const res = await call(service.url, key, 'GET', path);
    t.equal(res.status, 404, path);
    t.equal(res.body.error.code, 'not_found', path);
    t.equal(res.body.error.request_id, res.headers.get('x-request-id'));
  }
});

t.test('OPTIONS, wrong case and trailing slashes name no endpoint', async (t) => {
  for (const [method, path] of [
    ['OPTIONS', '/v1/pack'],
    ['GET', '/V1/balance'],
    ['GET', '/v1/balance/'],
  ] as const) {
    const res = await call(service.url, key, method, path);
    t.equal(res.status, 404, `${method} ${path}`);
    t.equal(res.body.error.code, 'not_found');
  }
});

t.test('an unauthenticated request gets 401 before its body is read', async (t) => {
  const res = await raw('POST', '/v1/pack', { 'content-type': 'application/json' }, '{bad');
  t.equal(res.status, 401);
  t.equal(res.body.error.code, 'unauthorized');
});

t.test('a body whose Content-Encoding does not decode is 400 invalid_json', async (t) => {
  const res = await raw(
    'POST',
    '/v1/pack',
    { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
    'notgzip',
  );
  t.equal(res.status, 400);
  t.equal(res.body.error.code, 'invalid_json');
  t.equal(res.body.error.request_id, res.requestId);
});

t.test('an empty chunked body is 400 invalid_json', async (t) => {
  const res = await raw(
    'POST',
    '/v1/pack',
    { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    '',
  );
  t.equal(res.status, 400);
  t.equal(res.body.error.code, 'invalid_json');
});

t.test('Idempotency-Key length counts characters, not UTF-8 bytes', async (t) => {
  const key100 = 'é'.repeat(100);
  const ok = await raw(
    'POST',
    '/v1/pack',
    {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': Buffer.from(key100, 'utf8').toString('latin1'),
    },
    JSON.stringify(small),
  );
  t.equal(ok.status, 202, JSON.stringify(ok.body));
  const long = await raw(
    'POST',
    '/v1/pack',
    {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': Buffer.from('é'.repeat(129), 'utf8').toString('latin1'),
    },
    JSON.stringify(small),
  );
  t.equal(long.status, 400);
  t.equal(long.body.error.code, 'idempotency_key_invalid');
});

t.test('a cancel bills compute from when the search started, not from when the slot was given', async (t) => {
  const busy = await call(service.url, key, 'POST', '/v1/pack', busyBody);
  await untilJob(service.services, busy.body.id, 'computing', computing);
  // Another organization gets its own slot (running) but waits for the busy solver.
  const now = new Date().toISOString();
  const other = await provisionOrganization(service.services.store, {
    name: 'B',
    ownerName: 'B',
    subscriptionCredits: 10,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
    limits: { rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 } },
  });
  const otherKey = await createApiKey(service.services.store, {
    orgId: other.orgId,
    memberId: other.ownerId,
    name: 'b',
    now,
  });
  await service.services.projections.waitFor(otherKey.position);
  const waiting = await call(service.url, otherKey.secret, 'POST', '/v1/pack', small);
  await untilJob(service.services, waiting.body.id, 'running', running);
  t.equal(
    (await call(service.url, otherKey.secret, 'GET', `/v1/jobs/${waiting.body.id}`)).body.status,
    'running',
    'it has its own slot',
  );
  // Time passes while it holds the slot: billing from the slot would charge it. The busy search
  // (60 s limit) keeps the only solver, so it cannot have computed, however long this takes.
  await new Promise((r) => setTimeout(r, 300));
  const canceled = await call(service.url, otherKey.secret, 'DELETE', `/v1/jobs/${waiting.body.id}`);
  t.equal(canceled.body.status, 'canceled');
  t.same(
    canceled.body.cost.breakdown,
    { base: 0.1, vehicles: 0, compute: 0, large_load: 0 },
    'no compute billed: it never computed',
  );
  const busyCanceled = await call(service.url, key, 'DELETE', `/v1/jobs/${busy.body.id}`);
  t.ok(busyCanceled.body.cost.breakdown.compute > 0, 'the computing job pays its compute');
});

t.test('a graceful stop during a search leaves no cancel: the job fails server_restarted, not charged', async (t) => {
  const busy = await call(service.url, key, 'POST', '/v1/pack', busyBody);
  t.equal(busy.status, 202);
  await untilJob(service.services, busy.body.id, 'computing', computing);
  await service.close();
  service = await start();
  const job = await call(service.url, key, 'GET', `/v1/jobs/${busy.body.id}?wait=60`);
  t.equal(job.body.status, 'failed');
  t.equal(job.body.error.code, 'server_restarted');
  t.equal(job.body.cost.credits, 0);
});
