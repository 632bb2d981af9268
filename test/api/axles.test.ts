/**
 * Axle data over the API (spec Vehicle axle fields, Options.enforce_axle, ResultVehicle.axle_loads):
 * an organization with axle access gets axle loads within the maxima and a plan that passes the
 * verifier with the axle rules; one without access gets no axle_loads and axle_access_missing.
 */
import t from 'tap';
import { checkPackRequest } from '../../api/http/pack-request/check.js';
import { DEFAULT_LIMITS } from '../../domain/organization/limits.js';
import { findPreset } from '../../domain/vehicle/presets.js';
import type { Plan } from '../../domain/pack/plan.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';

const run = inProcessService(t, 'axles');
const org = async (axleAccess: boolean): Promise<string> =>
  (await orgWithKey(run.service, { name: 'Axles', axleAccess })).key;

/** 16 one-tonne pallets in a 13.6 m semi-trailer behind a 4x2 tractor, drive axle ≤ 11.5 t. */
const request = {
  vehicles: [
    {
      id: 'semi',
      type: 'trailer',
      length: 1360,
      width: 248,
      height: 270,
      max_weight: 24000,
      tractor_weight: 7500,
      empty_trailer_weight: 6500,
      front_axle_to_middle_axle: 360,
      front_axle_to_tractor_cog: 150,
      front_axle_to_kingpin: 300,
      kingpin_to_rear_axle: 770,
      trailer_cog_to_rear_axle: 350,
      trailer_start_to_kingpin: 120,
      max_middle_axle_weight: 11500,
      max_rear_axle_weight: 24000,
      cog_range_y: 20,
    },
  ],
  items: [
    {
      id: 'pallet',
      shape: 'pallet',
      length: 120,
      width: 80,
      height: 150,
      weight: 1000,
      quantity: 16,
      stackable: false,
    },
  ],
  options: { packing_mode: 'fleet_only', enforce_axle: true, time_limit: 20 },
};

function modelOf(axleAccess: boolean) {
  const checked = checkPackRequest(request, {
    allowedVehicleTypes: DEFAULT_LIMITS.allowedVehicleTypes,
    maxItemsPerRequest: DEFAULT_LIMITS.maxItemsPerRequest,
    maxVehiclesPerRequest: DEFAULT_LIMITS.maxVehiclesPerRequest,
    maxTimeLimitSeconds: DEFAULT_LIMITS.maxTimeLimitSeconds,
    axleAccess,
    findVehicle: findPreset,
    findTemplate: () => undefined,
    seed: 1,
  });
  if (!checked.ok) throw new Error(JSON.stringify(checked.details));
  return checked.model;
}

t.test('with axle access: axle loads within the maxima, and the plan passes the axle rules', async (t) => {
  const key = await org(true);
  const res = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', request);
  t.equal(res.status, 200);
  t.equal(res.body.status, 'succeeded', JSON.stringify(res.body.error));
  t.same(res.body.warnings, []);
  const result = res.body.result;
  const v = result.vehicles[0];
  t.equal(v.items_placed, 16);
  t.same(
    v.axle_loads.map((a: any) => [a.name, a.position, a.max]),
    [
      ['Axle 1', -180, 0],
      ['Axle 2', 180, 11500],
      ['Axle 3', 890, 24000],
    ],
  );
  t.ok(
    v.axle_loads.every((a: any) => a.ok && (a.max === 0 || a.load <= a.max)),
    `loads ${v.axle_loads.map((a: any) => a.load).join(', ')} kg`,
  );
  t.ok(Math.abs(v.center_of_gravity.z - 124) <= 20 + 1e-6, 'cargo centred across the width within cog_range_y');
  const plan: Plan = { vehicles: result.vehicles, unplaced: result.unplaced };
  t.same(verifyPlan(modelOf(true), plan), []);
});

t.test('without axle access: no axle_loads, the fields are ignored with a warning', async (t) => {
  const key = await org(false);
  const res = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', request);
  t.equal(res.body.status, 'succeeded', JSON.stringify(res.body.error));
  t.same(
    res.body.warnings.map((w: any) => `${w.code} ${w.path}`),
    ['axle_access_missing vehicles[0]', 'axle_access_missing options.enforce_axle'],
  );
  t.equal(res.body.result.vehicles[0].axle_loads, undefined);
  t.same(verifyPlan(modelOf(false), { vehicles: res.body.result.vehicles, unplaced: res.body.result.unplaced }), []);
});
