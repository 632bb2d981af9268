/**
 * Axle loads and enforce_axle end to end in the solver: the axle model from the request fields,
 * the search's linear axle lines against the verifier's own statics, and plans of a semi-trailer
 * and a rigid truck that respect axle maxima and centre-of-gravity ranges (spec Vehicle axle
 * fields, Options.enforce_axle, ResultVehicle.axle_loads).
 */
import t from 'tap';
import fc from 'fast-check';
import type { AxleModel, ItemModel, PackModel, Plan, VehicleModel } from '../../../domain/pack/plan.js';
import type { PackRequest } from '../../../domain/pack/request.js';
import { resolvePackRequest, type ResolveOutcome } from '../../../domain/pack/resolve/resolve.js';
import { axleLines, axleLoad } from '../../../solver/search/axle-load.js';
import { search } from '../../../solver/search/search.js';
import { expectedAxles } from '../../../solver/verify/axle.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { testContext } from '../../domain/pack/resolve/resolve-context.js';

/** Deterministic search budget of these tests: block placements per worker (search.ts SearchTask.work). */
const SEARCH_WORK = 4000;

type Ok = Extract<ResolveOutcome, { ok: true }>;
function resolved(req: PackRequest, axleAccess = true): Ok {
  const o = resolvePackRequest(req, testContext({ axleAccess }));
  if (!o.ok) throw new Error(JSON.stringify(o.details));
  return o;
}

/** A 13.6 m semi-trailer behind a 4x2 tractor; figures of a common European combination. */
const semi = {
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
};
const semiModel: AxleModel = {
  kind: 'semi_trailer',
  tractorWeight: 7500,
  emptyTrailerWeight: 6500,
  frontAxleToMiddleAxle: 360,
  frontAxleToTractorCog: 150,
  frontAxleToKingpin: 300,
  kingpinToRearAxle: 770,
  trailerCogToRearAxle: 350,
  trailerStartToKingpin: 120,
  maxMiddleAxleWeight: 11500,
  maxRearAxleWeight: 24000,
  cogRangeX: null,
  cogRangeY: null,
};
const trailer = { id: 't', type: 'trailer' as const, length: 1360, width: 248, height: 270, max_weight: 24000 };
const crate = { id: 'c', length: 120, width: 80, height: 100, weight: 300 };

t.test('the axle model comes from the fields, only with axle access', async (t) => {
  const full = resolved({
    vehicles: [{ ...trailer, ...semi, cog_range_x: 200 }],
    items: [crate],
    options: { enforce_axle: true },
  });
  t.same(full.model.vehicles[0]!.axles, { ...semiModel, cogRangeX: 200 });
  t.same(full.warnings, []);
  t.equal(full.model.enforceAxle, true);

  const { max_rear_axle_weight: _, ...partial } = semi;
  const some = resolved({
    vehicles: [{ ...trailer, ...partial, axle_positions: [200, 900], axle_max_loads: [8000, 18000] }],
    items: [crate],
  });
  t.same(
    some.model.vehicles[0]!.axles,
    { kind: 'axles', positions: [200, 900], maxLoads: [8000, 18000], cogRangeX: null, cogRangeY: null },
    'an incomplete semi-trailer model gives way to axle_positions',
  );
  t.match(some.warnings, [
    { code: 'constraint_not_enforced', path: 'vehicles[0]', message: /missing max_rear_axle_weight/ },
  ]);

  const both = resolved({
    vehicles: [{ ...trailer, ...semi, axle_positions: [200], axle_max_loads: [8000] }],
    items: [crate],
  });
  t.equal(both.model.vehicles[0]!.axles!.kind, 'semi_trailer');
  t.match(both.warnings, [{ code: 'constraint_not_enforced', path: 'vehicles[0].axle_positions' }]);

  const nothing = resolved({ vehicles: [trailer], items: [crate], options: { enforce_axle: true } });
  t.match(nothing.warnings, [
    { code: 'constraint_not_enforced', path: 'options.enforce_axle', message: /nothing to enforce/ },
  ]);

  const noAccess = resolved(
    { vehicles: [{ ...trailer, ...semi }], items: [crate], options: { enforce_axle: true } },
    false,
  );
  t.equal(noAccess.model.vehicles[0]!.axles, null);
  t.equal(noAccess.model.enforceAxle, false);
  t.same(
    noAccess.warnings.map((w) => w.code),
    ['axle_access_missing', 'axle_access_missing'],
  );
});

t.test('hand-worked loads: lever rule on two axles, the semi-trailer with no cargo', async (t) => {
  const two: AxleModel = { kind: 'axles', positions: [0, 1000], maxLoads: [0, 0], cogRangeX: null, cogRangeY: null };
  // 1000 kg centred at 250 cm: 750 kg on the front axle, 250 kg on the rear one.
  t.same(
    axleLines(two).map((l) => axleLoad(l, 1000, 250_000)),
    [750, 250],
  );
  t.same(
    expectedAxles(two, 1000, 250_000).map((a) => a.load),
    [750, 250],
  );
  // Empty: kingpin 6500·350/770 = 2954.55 kg; middle (7500·150 + K·300)/360; front and rear the rest.
  const k = (6500 * 350) / 770;
  const middle = (7500 * 150 + k * 300) / 360;
  const want = [7500 + k - middle, middle, 6500 - k];
  const got = axleLines(semiModel).map((l) => axleLoad(l, 0, 0));
  got.forEach((g, i) => t.ok(Math.abs(g - want[i]!) < 1e-9, `axle ${i + 1}: ${g} kg`));
  t.same(
    axleLines(semiModel).map((l) => [l.name, l.position, l.max]),
    [
      ['Axle 1', -180, 0],
      ['Axle 2', 180, 11500],
      ['Axle 3', 890, 24000],
    ],
  );
});

t.test("the search's axle lines agree with the verifier's statics on random axles and loads", async (t) => {
  const arb = fc.record({
    positions: fc.array(fc.integer({ min: -300, max: 1360 }), { minLength: 1, maxLength: 10 }),
    w: fc.integer({ min: 0, max: 40_000 }),
    cog: fc.integer({ min: 0, max: 1360 }),
  });
  fc.assert(
    fc.property(arb, ({ positions, w, cog }) => {
      const model: AxleModel = {
        kind: 'axles',
        positions,
        maxLoads: positions.map(() => 0),
        cogRangeX: null,
        cogRangeY: null,
      };
      const lines = axleLines(model).map((l) => axleLoad(l, w, w * cog));
      const statics = expectedAxles(model, w, w * cog).map((a) => a.load);
      const sum = lines.reduce((s, x) => s + x, 0);
      if (Math.abs(sum - w) > 1e-6 * Math.max(1, w)) throw new Error(`loads sum to ${sum}, not ${w}`);
      lines.forEach((l, i) => {
        if (Math.abs(l - statics[i]!) > 1e-6 * Math.max(1, w)) throw new Error(`axle ${i}: ${l} vs ${statics[i]}`);
      });
    }),
    { numRuns: 300, seed: 5 },
  );
  t.pass('300 random axle sets');
});

const pallet = (o: Partial<ItemModel> = {}): ItemModel => ({
  id: 'p',
  label: 'pallet',
  shape: 'pallet',
  length: 120,
  width: 80,
  height: 150,
  weight: 1000,
  quantity: 16,
  stackable: false,
  maxStackWeight: 0,
  nestingHeight: 0,
  orientations: ['lwh', 'wlh'],
  priority: 0,
  hazardous: false,
  group: null,
  groupOrder: Number.MAX_SAFE_INTEGER,
  color: null,
  ...o,
});
const vehicle = (axles: AxleModel, o: Partial<VehicleModel> = {}): VehicleModel => ({
  id: 'v',
  name: 'Semi-trailer',
  type: 'trailer',
  length: 1360,
  width: 248,
  height: 270,
  maxWeight: 24000,
  quantity: 1,
  blockedAreas: [],
  floorLoadCapacity: 0,
  axles,
  auxDeck: null,
  ...o,
});
const model = (v: VehicleModel, enforceAxle: boolean, items: ItemModel[] = [pallet()]): PackModel => ({
  vehicles: [v],
  items,
  packingMode: 'fleet_only',
  maxVehicles: 1,
  allowOverweight: false,
  maxStackItems: 0,
  maxStackDensity: 0,
  enforceAxle,
  groupRouting: 'none',
  budgetMs: 500,
  seed: 3,
});
const solve = (m: PackModel): Plan =>
  search({ model: m, worker: 0, stride: 1, deadline: Date.now() + 3000, work: SEARCH_WORK }).plans[0]!.plan;
const loads = (p: Plan) => p.vehicles[0]!.axle_loads!.map((a) => Math.round(a.load));

t.test('16 t of pallets loaded from the front overload the drive axle unless enforce_axle is set', async (t) => {
  const free = model(vehicle(semiModel), false);
  const loose = solve(free);
  t.same(verifyPlan(free, loose), []);
  t.equal(loose.vehicles[0]!.placements.length, 16);
  const drive = loose.vehicles[0]!.axle_loads![1]!;
  t.ok(
    drive.load > 11500 && drive.ok === false,
    `without enforce_axle the drive axle carries ${Math.round(drive.load)} kg and ok is false`,
  );

  const strict = model(vehicle(semiModel), true);
  const kept = solve(strict);
  t.same(verifyPlan(strict, kept), []);
  t.equal(kept.vehicles[0]!.placements.length, 16, 'all 16 pallets still load');
  t.ok(
    kept.vehicles[0]!.axle_loads!.every((a) => a.ok),
    `axle loads ${loads(kept).join(', ')} kg`,
  );
});

t.test(
  'a centre-of-gravity range moves the load; axles that cannot carry it all leave a pallet unplaced for axle_limit',
  async (t) => {
    const centred = model(vehicle({ ...semiModel, cogRangeX: 50, cogRangeY: 10 }), true, [pallet({ quantity: 6 })]);
    const p = solve(centred);
    t.same(verifyPlan(centred, p), []);
    const cog = p.vehicles[0]!.center_of_gravity;
    t.ok(
      Math.abs(cog.x - 680) <= 50 + 1e-6 && Math.abs(cog.z - 124) <= 10 + 1e-6,
      `cargo CoG (${cog.x.toFixed(1)}, ${cog.z.toFixed(1)}) within the ranges`,
    );
    t.equal(p.vehicles[0]!.placements.length, 6);

    // Drive axle ≤ 11 500 kg needs kingpin K ≤ 10 050 kg; trailer axle ≤ 12 000 kg needs K ≥ W − 5500:
    // W ≤ 15 550 kg, so one 1000 kg pallet of 16 cannot go.
    const tight = model(vehicle({ ...semiModel, maxRearAxleWeight: 12000 }), true);
    const q = solve(tight);
    t.same(verifyPlan(tight, q), []);
    t.equal(q.vehicles[0]!.placements.length, 15);
    t.same(
      q.unplaced.map((u) => u.reason),
      ['axle_limit'],
    );
    t.ok(
      q.vehicles[0]!.axle_loads!.every((a) => a.ok),
      `axle loads ${loads(q).join(', ')} kg`,
    );
  },
);

t.test('a rigid truck with its front axle ahead of the cargo area keeps both axles within limits', async (t) => {
  // Front axle ≤ 3000 kg with 10 920 kg of cargo: 10 920 · (480 − cog) / 600 ≤ 3000 puts the cargo's
  // centre of gravity at 315 cm or more, behind where loading from the front wall leaves it.
  const rigid: AxleModel = {
    kind: 'axles',
    positions: [-120, 480],
    maxLoads: [3000, 11500],
    cogRangeX: null,
    cogRangeY: null,
  };
  const m = model(vehicle(rigid, { name: 'Rigid 18 t', length: 720, maxWeight: 11000 }), true, [
    pallet({ quantity: 14, weight: 780 }),
  ]);
  const p = solve(m);
  t.same(verifyPlan(m, p), []);
  t.ok(
    p.vehicles[0]!.axle_loads!.every((a) => a.ok),
    `axle loads ${loads(p).join(', ')} kg`,
  );
  t.equal(p.vehicles[0]!.placements.length, 14, 'every pallet loads');
  t.ok(
    p.vehicles[0]!.center_of_gravity.x >= 315 - 1e-6,
    `cargo CoG x ${p.vehicles[0]!.center_of_gravity.x.toFixed(1)} cm`,
  );
  const free = model(vehicle(rigid, { name: 'Rigid 18 t', length: 720, maxWeight: 11000 }), false, [
    pallet({ quantity: 14, weight: 780 }),
  ]);
  t.equal(solve(free).vehicles[0]!.axle_loads![0]!.ok, false, 'without enforce_axle the front axle is overloaded');
});
