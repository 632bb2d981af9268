/**
 * POST /v1/plans/verify on the real service in process: a job's own result verifies as it is and
 * comes back with the job's figures; an edited result with an overlap is answered valid false
 * naming both units; problems of the body answer 422 with paths under `request.` and `result.`;
 * nothing is charged; the route needs pack:write and keeps within the organization's limits.
 */
import t, { type Test } from 'tap';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { createApiKey } from '../../application/provision.js';
import { PackingClient, type PackRequest } from '../../clients/typescript/src/index.js';

const run = inProcessService(t, 'plan-verify');

const request = {
  reference: 'verify',
  vehicles: [{ id: 'truck', type: 'truck', name: 'Truck', length: 400, width: 240, height: 260, max_weight: 3000 }],
  items: [
    { id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 12.5, quantity: 6 },
    { id: 'crate', label: 'Crate', length: 80, width: 60, height: 50, weight: 30, quantity: 3, stackable: false },
  ],
  options: { seed: 7, work_limit: 3000 },
};

interface Placement {
  item_id: string;
  instance: number;
  x: number;
  y: number;
  z: number;
  orientation: string;
}

/** A finished job's result of `request` for `key`. */
async function jobResult(t: Test, key: string): Promise<any> {
  const created = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', request);
  t.equal(created.status, 200, 'the job ended within the wait');
  t.equal(created.body.status, 'succeeded');
  const result = await call(run.service.url, key, 'GET', `/v1/jobs/${created.body.id}/result`);
  t.equal(result.status, 200);
  return result.body;
}

t.test("a job's own result verifies as it is and comes back with the job's figures", async (t) => {
  const { key } = await orgWithKey(run.service);
  const job = await jobResult(t, key);
  t.equal(job.unplaced.length, 0, 'the example job places everything');
  const res = await call(run.service.url, key, 'POST', '/v1/plans/verify', { request, result: job });
  t.equal(res.status, 200);
  t.equal(res.body.valid, true);
  t.same(res.body.problems, []);
  const result = res.body.result;
  t.same(result.vehicles, job.vehicles, 'vehicles, placements, steps and figures equal the job’s');
  t.same(result.unplaced, job.unplaced);
  t.same(
    Object.keys(result),
    ['job_id', 'vehicles', 'unplaced', 'warnings', 'pdf_url', 'viewer_url', 'expires_at', 'stop_reason'],
    'the shape of GET /v1/jobs/{id}/result',
  );
  t.equal(result.job_id, '');
  t.equal(result.pdf_url, '');
  t.equal(result.viewer_url, '');
  t.equal(result.stop_reason, null);
  t.ok(Math.abs(Date.parse(result.expires_at) - Date.now()) < 60_000, 'expires_at is the time of the answer');

  // Only the layout is read: figures, labels and steps sent wrong are recomputed.
  const scrambled = structuredClone(job);
  for (const v of scrambled.vehicles) {
    v.total_weight = 1;
    v.center_of_gravity = { x: 0, y: 0, z: 0 };
    for (const p of v.placements) {
      p.label = 'x';
      p.step = 99;
      p.length = 1;
    }
  }
  const again = await call(run.service.url, key, 'POST', '/v1/plans/verify', { request, result: scrambled });
  t.equal(again.status, 200);
  t.equal(again.body.valid, true);
  t.same(again.body.result.vehicles, job.vehicles);
});

t.test('an edited result with an overlap is answered valid false, naming both units', async (t) => {
  const { key } = await orgWithKey(run.service);
  const job = await jobResult(t, key);
  const edited = structuredClone(job);
  const ps = edited.vehicles[0].placements as Placement[];
  const [a, b] = [ps[0]!, ps[1]!];
  Object.assign(b, { x: a.x, y: a.y, z: a.z });
  const res = await call(run.service.url, key, 'POST', '/v1/plans/verify', { request, result: edited });
  t.equal(res.status, 200);
  t.equal(res.body.valid, false);
  const overlap = res.body.problems.find((p: { rule: string }) => p.rule === 'overlap');
  t.ok(overlap, JSON.stringify(res.body.problems));
  t.same(
    overlap.units.map((u: Placement) => `${u.item_id}#${u.instance}`).sort(),
    [`${a.item_id}#${a.instance}`, `${b.item_id}#${b.instance}`].sort(),
  );
  t.match(overlap.message, /overlap/i);
  const moved = res.body.result.vehicles[0].placements.find(
    (p: Placement) => p.item_id === b.item_id && p.instance === b.instance,
  );
  t.same([moved.x, moved.y, moved.z], [a.x, a.y, a.z], 'the rebuilt plan has the unit where it was put');

  // A unit taken out becomes unplaced with the reason sent.
  const removed = structuredClone(job);
  const out = removed.vehicles[0].placements.pop() as Placement;
  removed.unplaced = [{ item_id: out.item_id, instance: out.instance, reason: 'weight_limit' }];
  const less = await call(run.service.url, key, 'POST', '/v1/plans/verify', { request, result: removed });
  t.equal(less.status, 200);
  t.equal(less.body.valid, true, JSON.stringify(less.body.problems));
  t.same(less.body.result.unplaced, [
    {
      item_id: out.item_id,
      instance: out.instance,
      label: out.item_id === 'box' ? 'Box' : 'Crate',
      reason: 'weight_limit',
    },
  ]);
});

t.test('problems of the body answer 422 with paths under request. and result.', async (t) => {
  const { key } = await orgWithKey(run.service);
  const job = await jobResult(t, key);
  const bad = structuredClone(job);
  bad.vehicles[0].placements[3].x = 'ten';
  bad.vehicles[0].placements[1].orientation = 'xyz';
  delete bad.vehicles[0].copy;
  const badRequest = structuredClone(request);
  badRequest.items[0]!.length = 0;
  const res = await call(run.service.url, key, 'POST', '/v1/plans/verify', {
    request: badRequest,
    result: bad,
    extra: 1,
  });
  t.equal(res.status, 422);
  t.equal(res.body.error.code, 'validation_failed');
  const paths = res.body.error.details.map((d: { path: string; code: string }) => `${d.path}:${d.code}`).sort();
  t.same(paths, [
    'extra:unknown_field',
    'request.items[0].length:out_of_range',
    'result.vehicles[0].copy:required',
    'result.vehicles[0].placements[1].orientation:invalid_value',
    'result.vehicles[0].placements[3].x:invalid_json',
  ]);

  const missing = await call(run.service.url, key, 'POST', '/v1/plans/verify', { result: job });
  t.equal(missing.status, 422);
  t.same(
    missing.body.error.details.map((d: { path: string }) => d.path),
    ['request'],
  );
  const notObject = await call(run.service.url, key, 'POST', '/v1/plans/verify', [request, job]);
  t.equal(notObject.status, 400);
  t.equal(notObject.body.error.code, 'invalid_json');
  // 1e999 parses to Infinity: no finite coordinate.
  const huge = structuredClone(job);
  huge.vehicles[0].placements[0].x = 123456789;
  const raw = JSON.stringify({ request, result: huge }).replace('123456789', '1e999');
  const infinite = await call(run.service.url, key, 'POST', '/v1/plans/verify', undefined, raw);
  t.equal(infinite.status, 422);
  t.same(
    infinite.body.error.details.map((d: { path: string }) => d.path),
    ['result.vehicles[0].placements[0].x'],
  );
  const resultNotObject = await call(run.service.url, key, 'POST', '/v1/plans/verify', { request, result: [] });
  t.equal(resultNotObject.status, 422);
  t.same(resultNotObject.body.error.details[0].path, 'result');
});

t.test("the result is held to the organization's limits", async (t) => {
  const { key } = await orgWithKey(run.service, { limits: { maxItemsPerRequest: 9, maxVehiclesPerRequest: 2 } });
  const job = await jobResult(t, key);
  const big = structuredClone(job);
  big.vehicles[0].placements.push({ ...big.vehicles[0].placements[0], instance: 99 });
  big.vehicles.push({ ...big.vehicles[0], copy: 2 }, { ...big.vehicles[0], copy: 3 });
  const res = await call(run.service.url, key, 'POST', '/v1/plans/verify', { request, result: big });
  t.equal(res.status, 422);
  t.same(
    res.body.error.details.map((d: { path: string; code: string }) => `${d.path}:${d.code}`),
    ['result.vehicles:too_many_vehicles', 'result.vehicles:too_many_items'],
  );
});

t.test('verifying is free: the balance does not change and no job is made', async (t) => {
  const { key } = await orgWithKey(run.service);
  const job = await jobResult(t, key);
  const before = await call(run.service.url, key, 'GET', '/v1/balance');
  const jobsBefore = await call(run.service.url, key, 'GET', '/v1/jobs?limit=100');
  for (let i = 0; i < 3; i++) {
    const res = await call(run.service.url, key, 'POST', '/v1/plans/verify', { request, result: job });
    t.equal(res.status, 200);
  }
  const after = await call(run.service.url, key, 'GET', '/v1/balance');
  t.same(after.body, before.body, 'the balance is unchanged');
  const jobsAfter = await call(run.service.url, key, 'GET', '/v1/jobs?limit=100');
  t.equal(jobsAfter.body.data.length, jobsBefore.body.data.length, 'no job was made');
});

t.test('a key without pack:write is refused with 403', async (t) => {
  const { key, orgId, ownerId } = await orgWithKey(run.service);
  const job = await jobResult(t, key);
  const k = await createApiKey(run.service.services.store, {
    orgId,
    memberId: ownerId,
    name: 'read only',
    scopes: ['jobs:read'],
    now: new Date().toISOString(),
  });
  await run.service.services.projections.waitFor(k.position);
  const res = await call(run.service.url, k.secret, 'POST', '/v1/plans/verify', { request, result: job });
  t.equal(res.status, 403);
  t.equal(res.body.error.code, 'scope_missing');
});

t.test('the typed client verifies a Result as GET /v1/jobs/{id}/result answers it', async (t) => {
  const { key } = await orgWithKey(run.service);
  const api = new PackingClient({ baseUrl: run.service.url, apiKey: key });
  const job = await api.pack(request as PackRequest, { wait: true });
  t.equal(job.status, 'succeeded');
  const result = await api.getJobResult(job.id);
  const verdict = await api.verifyPlan(request as PackRequest, result);
  t.equal(verdict.valid, true);
  t.same(verdict.result.vehicles, result.vehicles);
});
