/**
 * Projects on the real embedded service (in process, temporary data dir, free port): CRUD with
 * exact records, packing a project (pv_/item_ ids, plan and PDF saved into the project),
 * project_busy, project_not_saved after a change during the run, Idempotency-Key replay charged
 * once, plan_limit_reached, other organizations (404) and scopes.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import { DEFAULT_LIMITS, type OrgLimits } from '../../domain/organization/limits.js';
import { call } from '../helpers/service-process.js';
import { untilJob } from '../helpers/job-state.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-projects-'));
let service: RunningService;

t.before(async () => {
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
  });
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const RATES = { perMinute: 10_000, perHour: 10_000, perDay: 10_000 };

/** A new organization (owner "Owner <name>") with a key of `scopes` (default all). */
async function org(
  name: string,
  opts: { credits?: number; limits?: Partial<OrgLimits>; scopes?: Parameters<typeof createApiKey>[1]['scopes'] } = {},
) {
  const now = new Date().toISOString();
  const o = await provisionOrganization(service.services.store, {
    name,
    ownerName: `Owner ${name}`,
    subscriptionCredits: opts.credits ?? 1000,
    expiresAt: '2099-01-01T00:00:00.000Z',
    limits: { ...DEFAULT_LIMITS, rateLimits: RATES, ...opts.limits },
    now,
  });
  const k = await createApiKey(service.services.store, {
    orgId: o.orgId,
    memberId: o.ownerId,
    name: 't',
    now,
    ...(opts.scopes ? { scopes: opts.scopes } : {}),
  });
  await service.services.projections.waitFor(k.position);
  const api = (method: string, path: string, body?: unknown) => call(service.url, k.secret, method, path, body);
  return { ...o, key: k.secret, api };
}

async function withKey(key: string, method: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(service.url + path, { method, headers: { authorization: `Bearer ${key}`, ...headers } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const cartons = { label: 'Carton', length: 60, width: 40, height: 40, weight: 12, quantity: 10 };
const crates = { label: 'Crate', length: 100, width: 80, height: 60, weight: 40, quantity: 2 };
const truck = { vehicle_id: 'rigid-7-5t', quantity: 1 };
/** Room for a loaded machine: the search stops as soon as its plan is optimal, so the limit is rarely used. */
const roomy = { time_limit: 10 };

t.test('create, read, list, update and delete with exact records', async (t) => {
  const a = await org('crud');
  const created = await a.api('POST', '/v1/projects', {
    name: 'Weekly run',
    vehicles: [{ vehicle_id: 'rigid-7-5t', quantity: 2, height: 230 }],
    items: [cartons],
  });
  t.equal(created.status, 201);
  const p = created.body;
  t.match(p.id, /^prj_[a-z0-9]{24}$/);
  t.match(p.vehicles[0].id, /^pv_[a-z0-9]{24}$/);
  t.match(p.items[0].id, /^item_[a-z0-9]{24}$/);
  const owner = { id: a.ownerId, name: 'Owner crud' };
  t.same(p, {
    id: p.id,
    object: 'project',
    name: 'Weekly run',
    vehicles: [{ id: p.vehicles[0].id, vehicle_id: 'rigid-7-5t', quantity: 2, height: 230 }],
    items: [{ id: p.items[0].id, ...cartons }],
    groups: [],
    options: {},
    plan: null,
    plan_job_id: null,
    plan_summary: null,
    plan_saved_at: null,
    pdf_url: '',
    viewer_url: '',
    packing: null,
    created_at: p.created_at,
    updated_at: p.created_at,
    created_by: owner,
    updated_by: owner,
  });
  t.same((await a.api('GET', `/v1/projects/${p.id}`)).body, p, 'GET answers the record POST answered');

  const second = (
    await a.api('POST', '/v1/projects', {
      name: 'Export order',
      vehicles: [{ vehicle_id: 'van-3-5t' }],
      items: [crates],
    })
  ).body;
  t.same(second.vehicles[0].quantity, 1, 'quantity defaults to 1');
  const list = await a.api('GET', '/v1/projects');
  t.equal(list.status, 200);
  t.same(
    list.body.data.map((x: any) => x.id),
    [second.id, p.id],
    'newest first',
  );
  t.notOk('plan' in list.body.data[0], 'lists leave the plan out');
  t.equal(list.body.next_cursor, '');
  const first = await a.api('GET', '/v1/projects?limit=1');
  t.same(
    first.body.data.map((x: any) => x.id),
    [second.id],
  );
  t.same(
    (await a.api('GET', `/v1/projects?limit=1&cursor=${first.body.next_cursor}`)).body.data.map((x: any) => x.id),
    [p.id],
  );
  t.same(
    (await a.api('GET', '/v1/projects?q=weekly')).body.data.map((x: any) => x.id),
    [p.id],
    'q matches the name',
  );
  t.same((await a.api('GET', '/v1/projects?created_by=me')).body.data.length, 2);
  t.same((await a.api('GET', '/v1/projects?created_by=usr_nobody')).body.data, []);
  t.equal((await a.api('GET', '/v1/projects?created_by=someone')).status, 422);

  // PATCH replaces the lists given whole; sent ids are kept, new entries get new ids.
  const patched = await a.api('PATCH', `/v1/projects/${p.id}`, {
    name: 'Weekly run 2',
    items: [{ id: p.items[0].id, ...cartons, quantity: 5 }, crates],
  });
  t.equal(patched.status, 200);
  t.equal(patched.body.name, 'Weekly run 2');
  t.same(patched.body.vehicles, p.vehicles, 'lists not sent are kept');
  t.equal(patched.body.items[0].id, p.items[0].id);
  t.equal(patched.body.items[0].quantity, 5);
  t.match(patched.body.items[1].id, /^item_/);
  t.not(patched.body.items[1].id, p.items[0].id);
  t.equal(patched.body.created_at, p.created_at);
  t.ok(patched.body.updated_at >= p.updated_at);

  const badId = await a.api('PATCH', `/v1/projects/${p.id}`, {
    items: [
      { id: 'item_unknown', ...cartons },
      { id: p.items[0].id, ...cartons },
      { id: p.items[0].id, ...cartons },
    ],
  });
  t.equal(badId.status, 422);
  t.same(
    badId.body.error.details.map((d: any) => [d.path, d.code]),
    [
      ['items[0].id', 'invalid_value'],
      ['items[2].id', 'duplicate_id'],
    ],
  );
  const unknown = await a.api('PATCH', `/v1/projects/${p.id}`, {
    vehicles: [{ vehicle_id: 'veh_missing' }],
    items: [{ template_id: 'tpl_missing' }],
  });
  t.same(
    unknown.body.error.details.map((d: any) => [d.path, d.code]),
    [
      ['vehicles[0].vehicle_id', 'unknown_vehicle'],
      ['items[0].template_id', 'unknown_template'],
    ],
  );
  const wrongType = await a.api('POST', '/v1/projects', { name: 'x', items: [{ ...cartons, length: '60' }] });
  t.equal(wrongType.status, 400);
  t.equal(wrongType.body.error.code, 'invalid_json');
  t.same(
    wrongType.body.error.details.map((d: any) => d.path),
    ['items[0].length'],
  );
  const invalid = await a.api('POST', '/v1/projects', { vehicles: [{ quantity: 0 }], colour: 'red' });
  t.equal(invalid.status, 422);
  t.same(invalid.body.error.details.map((d: any) => [d.path, d.code]).sort(), [
    ['colour', 'unknown_field'],
    ['name', 'required'],
    ['vehicles[0].quantity', 'out_of_range'],
    ['vehicles[0].vehicle_id', 'required'],
  ]);
  t.equal(invalid.body.error.request_id, invalid.headers.get('x-request-id'));
  t.same((await a.api('GET', `/v1/projects/${p.id}`)).body.name, 'Weekly run 2', 'refused writes change nothing');

  const del = await a.api('DELETE', `/v1/projects/${p.id}`);
  t.same(del.body, { id: p.id, object: 'project', deleted: true });
  const gone = await a.api('GET', `/v1/projects/${p.id}`);
  t.equal(gone.status, 404);
  t.equal(gone.body.error.code, 'project_not_found');
  t.equal((await a.api('DELETE', `/v1/projects/${p.id}`)).status, 404);
  t.same(
    (await a.api('GET', '/v1/projects')).body.data.map((x: any) => x.id),
    [second.id],
  );
});

t.test('packing a project: pv_/item_ ids, plan and PDF saved into the project', async (t) => {
  const a = await org('pack');
  const p = (
    await a.api('POST', '/v1/projects', { name: 'Dock 4', vehicles: [truck], items: [cartons, crates], options: roomy })
  ).body;
  const res = await a.api('POST', `/v1/projects/${p.id}/pack?wait=60`);
  t.equal(res.status, 200);
  const job = res.body;
  t.equal(job.status, 'succeeded', JSON.stringify(job.error));
  t.equal(job.project_id, p.id);
  t.equal(job.reference, 'Project Dock 4', 'the job names the project it was packed from');
  t.equal(job.source, 'api');
  t.same(job.warnings, []);
  t.same(
    job.result.vehicles.map((v: any) => v.vehicle_id),
    [p.vehicles[0].id],
    'results name the slot',
  );
  const placedItems = new Set(job.result.vehicles.flatMap((v: any) => v.placements.map((x: any) => x.item_id)));
  t.same([...placedItems].sort(), p.items.map((i: any) => i.id).sort(), 'placements name the project items');

  const after = (await a.api('GET', `/v1/projects/${p.id}`)).body;
  t.equal(after.plan_job_id, job.id);
  t.equal(after.packing, null);
  t.same(after.plan, { ...job.result, warnings: [] });
  t.same(after.plan_summary, {
    items_placed: 12,
    items_unplaced: 0,
    vehicles_used: 1,
    total_weight: job.summary.total_weight,
    volume_utilization: job.summary.volume_utilization,
  });
  t.equal(after.pdf_url, job.pdf_url);
  t.equal(after.viewer_url, job.viewer_url, 'the saved plan opens in the viewer too');
  t.match(after.viewer_url, /\/viewer\/job_[a-z0-9]+\?expires=\d+&signature=[0-9a-f]{64}$/);
  const pdf = await fetch(after.pdf_url);
  t.equal(pdf.status, 200);
  t.equal(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
  t.equal((await a.api('GET', `/v1/jobs/${job.id}`)).body.project_id, p.id);
  const plain = (await a.api('POST', '/v1/pack', { vehicles: [truck], items: [cartons] })).body;
  t.notOk('project_id' in plain, 'jobs of POST /v1/pack have no project_id');

  // A project that no longer makes a valid job: 422 with paths into the project, nothing claimed.
  await a.api('PATCH', `/v1/projects/${p.id}`, {
    items: [
      { id: p.items[0].id, label: 'No length', width: 10, height: 10, weight: 1 },
      { label: 'Huge', length: 5000, width: 100, height: 100, weight: 1 },
    ],
  });
  const bad = await a.api('POST', `/v1/projects/${p.id}/pack`);
  t.equal(bad.status, 422);
  t.same(
    bad.body.error.details.map((d: any) => [d.path, d.code]),
    [
      ['items[0].length', 'required'],
      ['items[1]', 'does_not_fit'],
    ],
  );
  const empty = (await a.api('POST', '/v1/projects', { name: 'Empty' })).body;
  const emptyPack = await a.api('POST', `/v1/projects/${empty.id}/pack`);
  t.same(
    emptyPack.body.error.details.map((d: any) => [d.path, d.code]),
    [
      ['vehicles', 'out_of_range'],
      ['items', 'out_of_range'],
    ],
  );
  t.equal((await a.api('GET', `/v1/projects/${p.id}`)).body.plan_job_id, job.id, 'the saved plan stays');
});

t.test('a refused job frees the project again', async (t) => {
  const poor = await org('poor', { credits: 0.05 });
  const p = (await poor.api('POST', '/v1/projects', { name: 'P', vehicles: [truck], items: [cartons] })).body;
  for (let i = 0; i < 2; i++) {
    const res = await poor.api('POST', `/v1/projects/${p.id}/pack`);
    t.equal(res.status, 402, 'insufficient_credits, not project_busy');
    t.equal(res.body.error.code, 'insufficient_credits');
  }
  t.equal((await poor.api('GET', `/v1/projects/${p.id}`)).body.packing, null);
});

/** 60 distinct kinds of boxes, far more than a van holds: the search uses its whole time limit (60 s here, ended by a cancel). */
const manyKinds = Array.from({ length: 60 }, (_, i) => ({
  label: `Kind ${i}`,
  length: 30 + i,
  width: 20 + ((i * 7) % 40),
  height: 25 + ((i * 11) % 50),
  weight: 3,
  quantity: 4,
}));

t.test('project_busy while a pack runs; a change during the run leaves the plan on the job', async (t) => {
  const a = await org('busy');
  const long = (
    await a.api('POST', '/v1/projects', {
      name: 'Long',
      vehicles: [{ vehicle_id: 'van-3-5t' }],
      items: manyKinds,
      options: { packing_mode: 'fleet_only', time_limit: 60 },
    })
  ).body;
  const quick = (
    await a.api('POST', '/v1/projects', { name: 'Quick', vehicles: [truck], items: [cartons], options: roomy })
  ).body;
  const firstPlan = (await a.api('POST', `/v1/projects/${quick.id}/pack?wait=60`)).body;
  t.equal(firstPlan.status, 'succeeded');

  const running = await a.api('POST', `/v1/projects/${long.id}/pack`);
  t.equal(running.status, 202);
  t.equal((await a.api('GET', `/v1/projects/${long.id}`)).body.packing, running.body.id);
  const busy = await a.api('POST', `/v1/projects/${long.id}/pack`);
  t.equal(busy.status, 409);
  t.equal(busy.body.error.code, 'project_busy');
  t.equal(busy.body.error.request_id, busy.headers.get('x-request-id'));

  // Concurrency 1: the quick project's job waits behind the long one, so the PATCH lands during its run.
  const queued = await a.api('POST', `/v1/projects/${quick.id}/pack`);
  t.equal(queued.body.status, 'queued');
  t.equal((await a.api('PATCH', `/v1/projects/${quick.id}`, { name: 'Quick (edited)' })).status, 200);
  t.equal(
    (await a.api('GET', `/v1/jobs/${queued.body.id}`)).body.status,
    'queued',
    'the change came while the job was not done',
  );

  const canceled = await a.api('DELETE', `/v1/jobs/${running.body.id}`);
  t.equal(canceled.body.status, 'canceled');
  const ended = (await a.api('GET', `/v1/jobs/${queued.body.id}?wait=60`)).body;
  t.equal(ended.status, 'succeeded', JSON.stringify(ended.error));
  // The warning is written by the process manager right after the end: wait for it.
  await untilJob(service.services, queued.body.id, 'warned', (job) =>
    job.warnings.some((w) => w.code === 'project_not_saved'),
  );
  const warned = (await a.api('GET', `/v1/jobs/${queued.body.id}`)).body;
  t.same(
    warned.warnings.map((w: any) => w.code),
    ['project_not_saved'],
  );
  t.same(
    (await a.api('GET', `/v1/jobs/${queued.body.id}/result`)).body.warnings.map((w: any) => w.code),
    ['project_not_saved'],
    'the plan stays on the job',
  );
  const q = (await a.api('GET', `/v1/projects/${quick.id}`)).body;
  t.equal(q.plan_job_id, firstPlan.id, "the project's plan is unchanged");
  t.equal(q.packing, null);
  const l = (await a.api('GET', `/v1/projects/${long.id}`)).body;
  t.equal(l.packing, null, 'a canceled pack frees the project');
  t.equal(l.plan_job_id, null);
  t.equal(
    (await a.api('POST', `/v1/projects/${quick.id}/pack?wait=60`)).body.status,
    'succeeded',
    'packing again works',
  );
});

t.test('Idempotency-Key replays the same job, charged once, even while it runs', async (t) => {
  const a = await org('idem');
  const p = (await a.api('POST', '/v1/projects', { name: 'Idem', vehicles: [truck], items: [cartons], options: roomy }))
    .body;
  const before = (await a.api('GET', '/v1/balance')).body.available_credits;
  const first = await withKey(a.key, 'POST', `/v1/projects/${p.id}/pack`, { 'idempotency-key': 'order-42' });
  // A small job may end before the answer is written: 200 then, else 202 (the same rule as a replay).
  t.equal(first.status, ['succeeded', 'failed', 'canceled'].includes(first.body.status) ? 200 : 202);
  t.equal(first.headers.get('idempotent-replayed'), null);
  const again = await withKey(a.key, 'POST', `/v1/projects/${p.id}/pack`, { 'idempotency-key': 'order-42' });
  const ended = ['succeeded', 'failed', 'canceled'].includes(again.body.status);
  t.equal(again.status, ended ? 200 : 202, 'a replay (200 once ended, else 202), not project_busy');
  t.equal(again.body.id, first.body.id);
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  const done = (await a.api('GET', `/v1/jobs/${first.body.id}?wait=60`)).body;
  t.equal(done.status, 'succeeded');
  const later = await withKey(a.key, 'POST', `/v1/projects/${p.id}/pack?wait=5`, { 'idempotency-key': 'order-42' });
  t.equal(later.status, 200);
  t.equal(later.body.id, first.body.id);
  t.equal(later.headers.get('idempotent-replayed'), 'true');
  const list = (await a.api('GET', '/v1/jobs')).body.data;
  t.equal(list.length, 1, 'one job');
  const after = (await a.api('GET', '/v1/balance')).body.available_credits;
  t.equal(after, Number((before - done.cost.credits).toFixed(6)), 'charged once');
  t.ok(done.cost.credits > 0);
  const long = await withKey(a.key, 'POST', `/v1/projects/${p.id}/pack`, { 'idempotency-key': 'k'.repeat(129) });
  t.equal(long.body.error.code, 'idempotency_key_invalid');
});

t.test('plan_limit_reached beyond max_projects', async (t) => {
  const a = await org('cap', { limits: { maxProjects: 1 } });
  const one = await a.api('POST', '/v1/projects', { name: 'One' });
  t.equal(one.status, 201);
  const two = await a.api('POST', '/v1/projects', { name: 'Two' });
  t.equal(two.status, 403);
  t.equal(two.body.error.code, 'plan_limit_reached');
  await a.api('DELETE', `/v1/projects/${one.body.id}`);
  t.equal((await a.api('POST', '/v1/projects', { name: 'Two' })).status, 201, 'a deleted project frees its place');
});

t.test("another organization's projects are invisible", async (t) => {
  const a = await org('owner');
  const b = await org('other');
  const p = (await a.api('POST', '/v1/projects', { name: 'Secret', vehicles: [truck], items: [cartons] })).body;
  for (const [method, path, body] of [
    ['GET', `/v1/projects/${p.id}`],
    ['PATCH', `/v1/projects/${p.id}`, { name: 'Mine now' }],
    ['DELETE', `/v1/projects/${p.id}`],
    ['POST', `/v1/projects/${p.id}/pack`],
  ] as [string, string, unknown?][]) {
    const res = await b.api(method, path, body);
    t.equal(res.status, 404, `${method} ${path}`);
    t.equal(res.body.error.code, 'project_not_found');
  }
  t.same((await b.api('GET', '/v1/projects')).body.data, []);
  t.equal((await a.api('GET', `/v1/projects/${p.id}`)).body.name, 'Secret');
});

t.test('scopes: resources:write for writes, pack:write and resources:write to pack', async (t) => {
  const a = await org('scopes');
  const p = (await a.api('POST', '/v1/projects', { name: 'S', vehicles: [truck], items: [cartons] })).body;
  const now = new Date().toISOString();
  const keyOf = async (scopes: Parameters<typeof createApiKey>[1]['scopes']) => {
    const k = await createApiKey(service.services.store, {
      orgId: a.orgId,
      memberId: a.ownerId,
      name: 'limited',
      now,
      scopes,
    });
    await service.services.projections.waitFor(k.position);
    return k.secret;
  };
  const readOnly = await keyOf(['resources:read', 'pack:write']);
  for (const [method, path] of [
    ['POST', `/v1/projects/${p.id}/pack`],
    ['POST', '/v1/projects'],
    ['PATCH', `/v1/projects/${p.id}`],
    ['DELETE', `/v1/projects/${p.id}`],
  ]) {
    const res = await call(
      service.url,
      readOnly,
      method!,
      path!,
      method === 'POST' && path === '/v1/projects' ? { name: 'x' } : undefined,
    );
    t.equal(res.status, 403, `${method} ${path}`);
    t.equal(res.body.error.code, 'scope_missing');
  }
  t.equal((await call(service.url, readOnly, 'GET', `/v1/projects/${p.id}`)).status, 200);
  const noPack = await keyOf(['resources:read', 'resources:write']);
  t.equal((await call(service.url, noPack, 'POST', `/v1/projects/${p.id}/pack`)).body.error.code, 'scope_missing');
  const noRead = await keyOf(['resources:write', 'pack:write']);
  t.equal((await call(service.url, noRead, 'GET', '/v1/projects')).body.error.code, 'scope_missing');
});
