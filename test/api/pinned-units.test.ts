/**
 * Pinned units over the API (our extension, Vehicle.loaded), through the service started in
 * process: a job whose request pins four pallets in a trailer succeeds with them where they
 * were, as instances 1..4 in loading steps 1..4, the rest packed around them and the plan passing
 * the verifier (rule pinned included); the stored request keeps `loaded`; pinned units that
 * overlap are reported by POST /v1/estimate (valid false) and refused by POST /v1/pack with the
 * spec's error envelope.
 */
import t from 'tap';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../../api/http/pack-request/check.js';
import type { Plan } from '../../domain/pack/plan.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';

const run = inProcessService(t, 'pinned-units');

/** Four pallets pinned at the front of a 13.6 m trailer, 22 more to pack. */
const loaded = [
  { item_id: 'pal', x: 0, y: 0, z: 0, orientation: 'lwh' },
  { item_id: 'pal', x: 0, y: 0, z: 80, orientation: 'lwh' },
  { item_id: 'pal', x: 0, y: 0, z: 160, orientation: 'lwh', copy: 1 },
  { item_id: 'pal', x: 120, y: 0, z: 0, orientation: 'lwh' },
];
const request = {
  reference: 'pinned pallets',
  vehicles: [{ id: 'semi', type: 'trailer', length: 1360, width: 248, height: 270, max_weight: 24000, loaded }],
  items: [
    {
      id: 'pal',
      shape: 'pallet',
      length: 120,
      width: 80,
      height: 150,
      weight: 700,
      quantity: 26,
      stackable: false,
    },
  ],
  options: { packing_mode: 'fleet_only', seed: 5, work_limit: 3000, time_limit: 20 },
};

t.test('a job with pinned units keeps them where they were and packs the rest around them', async (t) => {
  const { key } = await orgWithKey(run.service, { name: 'Pinned' });
  const res = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', request);
  t.equal(res.status, 200);
  t.equal(res.body.status, 'succeeded', JSON.stringify(res.body.error));
  const result = res.body.result;
  t.equal(result.vehicles.length, 1);
  const v = result.vehicles[0];
  t.equal(v.items_placed, 26, 'every pallet placed');
  for (const [k, u] of loaded.entries()) {
    const p = v.placements.find((q: { instance: number }) => q.instance === k + 1);
    t.match(
      p,
      { item_id: 'pal', x: u.x, y: u.y, z: u.z, orientation: u.orientation },
      `pinned unit ${k} is instance ${k + 1}, where it was`,
    );
    t.ok(p.step <= 4, `and loaded in the first four steps (step ${p.step})`);
  }
  const checked = checkPackRequest(request, SCRIPT_CHECK_CONTEXT);
  if (!checked.ok) throw new Error(JSON.stringify(checked.details));
  const plan: Plan = { vehicles: result.vehicles, unplaced: result.unplaced };
  t.same(verifyPlan(checked.model, plan), [], 'the returned plan passes the verifier, rule pinned included');

  const job = await call(run.service.url, key, 'GET', `/v1/jobs/${res.body.id}?include=request`);
  t.equal(job.status, 200);
  t.same(job.body.request.vehicles[0].loaded, loaded, 'the stored request keeps the pinned units');
});

t.test('overlapping pinned units are refused with validation_failed at their path', async (t) => {
  const { key } = await orgWithKey(run.service, { name: 'Overlap' });
  const overlapping = structuredClone(request);
  overlapping.vehicles[0]!.loaded = [loaded[0]!, { item_id: 'pal', x: 60, y: 0, z: 40, orientation: 'lwh' }];
  const detail = {
    path: 'vehicles[0].loaded[0]',
    code: 'invalid_value',
    message: /^the pinned units alone break the rule overlap: pal#1 and pal#2 in vehicle 0 overlap/,
  };
  const estimate = await call(run.service.url, key, 'POST', '/v1/estimate', overlapping);
  t.equal(estimate.status, 200, 'an estimate answers, with the problems');
  t.equal(estimate.body.valid, false);
  t.match(estimate.body.errors, [detail]);
  const pack = await call(run.service.url, key, 'POST', '/v1/pack', overlapping);
  t.equal(pack.status, 422);
  t.equal(pack.body.error.code, 'validation_failed');
  t.match(pack.body.error.details, [detail]);
});
