/**
 * GET /v1/jobs on the real embedded service: newest-first cursor paging across pages, every
 * filter (status list, reference, created_after/before, project_id, q, created_by), other
 * organizations invisible, and 422 with the parameter's name as path.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import { newId } from '../../application/id.js';
import { handleCommand } from '../../domain/decider/handle.js';
import { organizationDecider } from '../../domain/organization/decide.js';
import { orgStream } from '../../domain/organization/streams.js';
import { call } from '../helpers/service-process.js';
import { running, untilJob } from '../helpers/job-state.js';
import { matchesJobFilters, parseJobFilters } from '../../api/http/routes/job-list.js';
import type { JobDocument } from '../../projections/jobs/job-document.js';
import { serviceActor } from '../../domain/decider/actor.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-job-list-'));
let service: RunningService;
const small = (reference: string) => ({
  reference,
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 20 }],
  // A roomy budget: on a busy machine the default 2.3 s could end before a vehicle is packed.
  options: { time_limit: 20 },
});
// Cannot converge early: it computes until canceled (see account.test.ts).
const busyItems = Array.from({ length: 200 }, (_, i) => ({
  id: `sku-${i}`,
  length: 20 + (i % 37),
  width: 15 + (i % 23),
  height: 10 + (i % 29),
  weight: 3,
  quantity: 10,
}));

// More requests than the spec's 60 a minute: this file walks many pages.
const ROOMY = { rateLimits: { perMinute: 1000, perHour: 10_000, perDay: 50_000 } };
let ownerKey: string;
let memberKey: string;
let memberId: string;
let otherKey: string;
/** Jobs by name, in creation order. */
const jobs: Record<string, any> = {};

async function org(name: string) {
  const now = new Date().toISOString();
  const o = await provisionOrganization(service.services.store, {
    name,
    ownerName: 'Owner',
    subscriptionCredits: 100,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
    limits: ROOMY,
  });
  const k = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'owner', now });
  await service.services.projections.waitFor(k.position);
  return { ...o, key: k.secret };
}

const list = async (key: string, query: string) => {
  const res = await call(service.url, key, 'GET', `/v1/jobs${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { data: any[]; next_cursor: string };
};
const ids = (page: { data: any[] }) => page.data.map((j) => j.id);

t.before(async () => {
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
  });
  const o = await org('Listers');
  ownerKey = o.key;
  memberId = newId('usr');
  const now = new Date().toISOString();
  await handleCommand(service.services.store, orgStream(o.orgId), organizationDecider, {
    type: 'AddMember',
    data: { userId: memberId, name: 'Mia', role: 'member' },
    metadata: { now, actor: serviceActor('admin') },
  });
  const mk = await createApiKey(service.services.store, { orgId: o.orgId, memberId, name: 'member', now });
  await service.services.projections.waitFor(mk.position);
  memberKey = mk.secret;
  otherKey = (await org('Others')).key;

  for (const [name, key, ref] of [
    ['a', ownerKey, 'REF-a'],
    ['b', ownerKey, 'ref-b'],
    ['c', ownerKey, 'ref-c'],
    ['m', memberKey, 'member-1'],
  ] as const) {
    const res = await call(service.url, key, 'POST', '/v1/pack?wait=60', small(ref));
    if (res.status !== 200 || res.body.status !== 'succeeded') throw new Error(JSON.stringify(res.body));
    jobs[name] = res.body;
  }
  // 60 s: far past the tests that need it running, which cancel it.
  const busy = await call(service.url, ownerKey, 'POST', '/v1/pack', {
    reference: 'busy',
    vehicles: [{ vehicle_id: 'van-3-5t' }],
    items: busyItems,
    options: { packing_mode: 'fleet_only', time_limit: 60 },
  });
  jobs['busy'] = busy.body;
  // Its slot is given by a reaction, after the POST answered: the filters below need it running.
  await untilJob(service.services, busy.body.id, 'running', running);
  jobs['waiting'] = (await call(service.url, ownerKey, 'POST', '/v1/pack', small('waiting'))).body;
  // The other organization's job must never show.
  jobs['foreign'] = (await call(service.url, otherKey, 'POST', '/v1/pack', small('REF-a'))).body;
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

t.test('status filters see queued and running jobs; the answer is the JobList shape', async (t) => {
  t.equal(jobs['waiting'].status, 'queued', 'concurrency 1: the second job waits');
  t.same(ids(await list(ownerKey, '?status=queued')), [jobs['waiting'].id]);
  const running = await list(ownerKey, '?status=running');
  t.same(ids(running), [jobs['busy'].id]);
  t.same(Object.keys(running).sort(), ['data', 'next_cursor']);
  t.equal(running.next_cursor, '');
  t.same(ids(await list(ownerKey, '?status=queued,running')), [jobs['waiting'].id, jobs['busy'].id], 'newest first');
  t.same(
    ids(await list(ownerKey, '?status=queued&status=running')),
    [jobs['waiting'].id, jobs['busy'].id],
    'repeated parameter = list',
  );
  // End both: canceled.
  for (const name of ['waiting', 'busy']) {
    const res = await call(service.url, ownerKey, 'DELETE', `/v1/jobs/${jobs[name].id}`);
    t.equal(res.status, 200);
    jobs[name] = res.body;
  }
  t.same(ids(await list(ownerKey, '?status=canceled')), [jobs['waiting'].id, jobs['busy'].id]);
  t.same(ids(await list(ownerKey, '?status=succeeded')), [jobs['m'].id, jobs['c'].id, jobs['b'].id, jobs['a'].id]);
  t.same(ids(await list(ownerKey, '?status=failed')), []);
});

t.test('the whole list, newest first, equals GET /v1/jobs/{id} of each job, without result', async (t) => {
  const all = await list(ownerKey, '');
  t.same(
    ids(all),
    ['waiting', 'busy', 'm', 'c', 'b', 'a'].map((n) => jobs[n].id),
  );
  t.equal(all.next_cursor, '');
  for (const job of all.data) {
    t.notOk('result' in job, 'listed without result');
    const single = await call(service.url, ownerKey, 'GET', `/v1/jobs/${job.id}`);
    t.same(job, single.body, `${job.id} as GET /v1/jobs/{id} shows it`);
  }
  const foreign = await list(otherKey, '');
  t.same(ids(foreign), [jobs['foreign'].id], 'each organization sees only its own jobs');
});

t.test('cursor paging walks every job once, across pages', async (t) => {
  const expected = ['waiting', 'busy', 'm', 'c', 'b', 'a'].map((n) => jobs[n].id);
  const seen: string[] = [];
  let cursor = '';
  let pages = 0;
  do {
    const page = await list(ownerKey, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
    t.ok(page.data.length <= 4);
    seen.push(...ids(page));
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor !== '' && pages < 10);
  t.equal(pages, 2);
  t.same(seen, expected);
  // Page size 1: six pages, the last with an empty cursor.
  const one: string[] = [];
  cursor = '';
  for (let i = 0; i < 6; i += 1) {
    const page = await list(ownerKey, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    one.push(...ids(page));
    cursor = page.next_cursor;
    t.equal(cursor === '', i === 5, `page ${i + 1} ${i === 5 ? 'is the last' : 'has a next cursor'}`);
  }
  t.same(one, expected);
  const paged = await list(ownerKey, `?status=succeeded&limit=3`);
  t.same(ids(paged), expected.slice(2, 5));
  t.same(
    ids(await list(ownerKey, `?status=succeeded&limit=3&cursor=${paged.next_cursor}`)),
    [jobs['a'].id],
    'filters apply on every page',
  );
});

t.test('reference (exact), q (reference or id, any case), created_by, project_id', async (t) => {
  t.same(ids(await list(ownerKey, '?reference=ref-b')), [jobs['b'].id]);
  t.same(ids(await list(ownerKey, '?reference=ref')), [], 'reference is exact');
  t.same(ids(await list(ownerKey, '?reference=ref-B')), [], 'reference is case-sensitive');
  t.same(
    ids(await list(ownerKey, '?q=ref-')),
    [jobs['c'].id, jobs['b'].id, jobs['a'].id],
    'q finds in the reference, any case',
  );
  t.same(
    ids(await list(ownerKey, `?q=${jobs['m'].id.slice(4, 14).toUpperCase()}`)),
    [jobs['m'].id],
    'q finds in the id',
  );
  t.same(
    ids(await list(ownerKey, '?created_by=me')),
    ['waiting', 'busy', 'c', 'b', 'a'].map((n) => jobs[n].id),
  );
  t.same(ids(await list(memberKey, '?created_by=me')), [jobs['m'].id], 'me = the member of the calling key');
  t.same(ids(await list(ownerKey, `?created_by=${memberId}`)), [jobs['m'].id]);
  t.same(ids(await list(ownerKey, `?created_by=${newId('usr')}`)), []);
  t.same(ids(await list(ownerKey, '?project_id=prj_nosuchproject')), [], 'no project jobs');
  t.same(ids(await list(ownerKey, '?reference=ref-b&status=canceled')), [], 'filters combine');
});

t.test('created_after / created_before are exclusive RFC 3339 bounds', async (t) => {
  const b = jobs['b'].created_at as string;
  t.same(ids(await list(ownerKey, `?created_before=${b}`)), [jobs['a'].id]);
  t.same(ids(await list(ownerKey, `?created_after=${b}&status=succeeded`)), [jobs['m'].id, jobs['c'].id]);
  t.same(ids(await list(ownerKey, `?created_after=${jobs['a'].created_at}&created_before=${jobs['c'].created_at}`)), [
    jobs['b'].id,
  ]);
  // The same instant with an offset.
  const shifted = new Date(Date.parse(b) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
  t.same(ids(await list(ownerKey, `?created_before=${encodeURIComponent(shifted)}`)), [jobs['a'].id]);
  t.same(ids(await list(ownerKey, '?created_after=2000-01-01T00:00:00Z&created_before=2000-01-02T00:00:00Z')), []);
});

t.test('bad parameters answer 422 validation_failed with every problem, path = parameter', async (t) => {
  const one = async (query: string, path: string, code: string) => {
    const res = await call(service.url, ownerKey, 'GET', `/v1/jobs?${query}`);
    t.equal(res.status, 422, query);
    t.equal(res.body.error.code, 'validation_failed');
    t.equal(res.body.error.request_id, res.headers.get('x-request-id'));
    t.same(
      res.body.error.details.map((d: any) => [d.path, d.code]),
      [[path, code]],
      query,
    );
  };
  await one('status=done', 'status', 'invalid_value');
  await one('status=queued,bogus', 'status', 'invalid_value');
  await one('status=', 'status', 'invalid_value');
  await one('reference=' + 'x'.repeat(129), 'reference', 'out_of_range');
  await one('created_after=yesterday', 'created_after', 'invalid_value');
  await one('created_after=2026-11-01', 'created_after', 'invalid_value');
  await one('created_before=2026-13-01T00:00:00Z', 'created_before', 'invalid_value');
  await one('project_id=veh_1', 'project_id', 'invalid_value');
  await one('limit=0', 'limit', 'out_of_range');
  await one('limit=101', 'limit', 'out_of_range');
  await one('cursor=garbage', 'cursor', 'invalid_value');
  await one('created_by=someone', 'created_by', 'invalid_value');
  const many = await call(service.url, ownerKey, 'GET', '/v1/jobs?status=x&created_before=y&limit=z');
  t.equal(many.status, 422);
  t.same(many.body.error.details.map((d: any) => d.path).sort(), ['created_before', 'limit', 'status']);
  const scope = await org('Scopeless');
  const now = new Date().toISOString();
  const k = await createApiKey(service.services.store, {
    orgId: scope.orgId,
    memberId: scope.ownerId,
    name: 'x',
    scopes: ['account:read'],
    now,
  });
  await service.services.projections.waitFor(k.position);
  const denied = await call(service.url, k.secret, 'GET', '/v1/jobs');
  t.equal(denied.status, 403);
  t.equal(denied.body.error.code, 'scope_missing');
});

t.test('project_id keeps the jobs of that project (filter on the read model)', async (t) => {
  const details: { path: string }[] = [];
  const filters = parseJobFilters({ project_id: 'prj_abc', status: 'succeeded,failed' }, details as never);
  t.same(details, []);
  const doc = (over: Partial<JobDocument>) =>
    ({ status: 'succeeded', reference: null, createdAt: '2026-11-22T10:00:00.000Z', ...over }) as JobDocument;
  t.equal(matchesJobFilters(doc({ projectId: 'prj_abc' }), filters), true);
  t.equal(matchesJobFilters(doc({ projectId: 'prj_other' }), filters), false);
  t.equal(matchesJobFilters(doc({}), filters), false, 'jobs of /v1/pack have no project');
  t.equal(matchesJobFilters(doc({ projectId: 'prj_abc', status: 'canceled' }), filters), false);
});
