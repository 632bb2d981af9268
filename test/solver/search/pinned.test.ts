/**
 * Pinned units in the search (PackModel.vehicles[i].loaded, solver/search/pinned.ts): hand-made
 * cases solved by a short deterministic search and checked by the verifier. The pinned units stay
 * where they are, keep instances 1..k and loading steps 1..p, their vehicle copy is always in the
 * plan, and what the search adds stands around and on them within their load limits.
 */
import t from 'tap';
import type { PackModel, PinnedUnit, Plan, PlannedVehicle } from '../../../domain/pack/plan.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { item } from '../verify/plan-fixture.js';

/** The best plan of a deterministic search of `model` (`work` block placements, one worker). */
function solve(model: PackModel, work = 3000): Plan {
  const plan = search({ model, worker: 0, stride: 1, deadline: Date.now() + 60_000, work }).plans[0]?.plan;
  if (!plan) throw new Error('no plan');
  return plan;
}

/** A 40 ft container, 1203 × 235 × 239 cm, 26,000 kg payload. */
function container(quantity = 1): PackModel['vehicles'][number] {
  return {
    id: 'c40',
    name: '40 ft container',
    type: 'container',
    length: 1203,
    width: 235,
    height: 239,
    maxWeight: 26_000,
    quantity,
    blockedAreas: [],
    floorLoadCapacity: 0,
    axles: null,
    auxDeck: null,
  };
}

function model(over: Partial<PackModel>): PackModel {
  return {
    vehicles: [container()],
    items: [],
    packingMode: 'fleet_only',
    maxVehicles: 1,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 60_000,
    seed: 3,
    ...over,
  };
}

/** The placement of the pinned unit `u` in `v`, matched by place and orientation. */
function at(v: PlannedVehicle | undefined, u: PinnedUnit) {
  return v?.placements.find(
    (p) =>
      Math.abs(p.x - u.x) <= 1e-6 &&
      Math.abs(p.y - u.y) <= 1e-6 &&
      Math.abs(p.z - u.z) <= 1e-6 &&
      p.orientation === u.orientation,
  );
}

t.test('a 40 ft container with 6 pinned EUR pallets at the front: 20 more packed around and on them', async (t) => {
  // 20 floor places of two pallets side by side (10 rows of 120 cm), two layers of 110 cm: 40 places.
  // Three pairs of pallets lengthwise against the front wall and the right side wall (x 0–360, z 0–160).
  const loaded: PinnedUnit[] = [0, 120, 240].flatMap((x) =>
    [0, 80].map((z): PinnedUnit => ({ item: 0, x, y: 0, z, orientation: 'lwh', copy: 1 })),
  );
  const m = model({
    vehicles: [{ ...container(), loaded }],
    items: [
      item({
        id: 'eur',
        shape: 'pallet',
        length: 120,
        width: 80,
        height: 110,
        weight: 600,
        quantity: 26,
        orientations: ['lwh', 'wlh'],
      }),
    ],
  });
  const plan = solve(m);
  t.same(verifyPlan(m, plan), [], 'the plan verifies (rule pinned included)');
  t.equal(plan.vehicles.length, 1);
  const v = plan.vehicles[0]!;
  t.equal(v.items_placed, 26, 'all 26 pallets placed: the 6 pinned and 20 more');
  loaded.forEach((u, k) => {
    const p = at(v, u);
    t.ok(p, `pinned pallet ${k + 1} is where it was`);
    t.equal(p?.instance, k + 1, `pinned pallet ${k + 1} is instance ${k + 1}`);
    t.equal(p?.step, k + 1, `pinned pallet ${k + 1} is loaded in step ${k + 1} (request order)`);
  });
  t.same(
    v.placements
      .filter((p) => p.step <= 6)
      .map((p) => p.instance)
      .sort((a, b) => a - b),
    [1, 2, 3, 4, 5, 6],
    'steps 1..6 are the pinned units',
  );
  t.ok(
    v.placements.filter((p) => p.instance > 6).every((p) => p.x >= 360 - 1e-6 || p.z >= 160 - 1e-6 || p.y >= 110),
    'the others stand behind, beside or on the pinned pallets',
  );
});

t.test('a copy with pinned units is in the plan even when nothing else goes in it', async (t) => {
  const m = model({
    vehicles: [{ ...container(2), loaded: [{ item: 0, x: 500, y: 0, z: 100, orientation: 'lwh', copy: 2 }] }],
    items: [item({ id: 'box', length: 100, width: 100, height: 100, weight: 10, quantity: 5 })],
    maxVehicles: 2,
  });
  const plan = solve(m);
  t.same(verifyPlan(m, plan), []);
  t.same(
    plan.vehicles.map((v) => [v.copy, v.items_placed]).sort(),
    [
      [1, 4],
      [2, 1],
    ],
    'copy 1 takes the four others, copy 2 carries only its pinned unit',
  );
  const second = plan.vehicles.find((v) => v.copy === 2)!;
  t.match(second.placements, [{ item_id: 'box', instance: 1, x: 500, y: 0, z: 100, step: 1 }]);
  t.notOk(second.auto_added);
});

t.test('pinned units in a copy the search had auto-added (a re-plan raises the quantity)', async (t) => {
  const base = model({
    vehicles: [{ ...container(), length: 300 }],
    items: [item({ id: 'box', length: 100, width: 100, height: 100, weight: 10, quantity: 14 })],
    packingMode: 'auto',
    maxVehicles: 3,
  });
  const first = solve(base);
  t.same(verifyPlan(base, first), []);
  const added = first.vehicles.find((v) => v.auto_added);
  if (!added) throw new Error('expected an auto-added copy');
  const loaded = added.placements.map((p): PinnedUnit => ({
    item: 0,
    x: p.x,
    y: p.y,
    z: p.z,
    orientation: p.orientation,
    copy: added.copy,
  }));
  const replan = model({
    ...base,
    vehicles: [{ ...base.vehicles[0]!, quantity: added.copy, loaded }],
  });
  const plan = solve(replan);
  t.same(verifyPlan(replan, plan), [], 'the re-plan verifies');
  const v = plan.vehicles.find((pv) => pv.copy === added.copy);
  t.ok(v, `copy ${added.copy} is in the plan`);
  t.notOk(v?.auto_added, 'listed now, not auto-added');
  t.ok(
    loaded.every((u) => at(v, u)),
    `its ${loaded.length} pinned units are where they were`,
  );
  t.equal(
    plan.vehicles.reduce((s, pv) => s + pv.items_placed, 0),
    14,
    'every unit placed',
  );
});

t.test('a pinned pallet carries what the search puts on it, within its max_stack_weight', async (t) => {
  // The vehicle is the pallet's footprint: the boxes can only go on the pallet. 4 boxes of 100 kg
  // make 400 kg ≤ 500 kg on it; a second layer would press more than the boxes under it bear.
  const m = model({
    vehicles: [
      {
        ...container(),
        length: 120,
        width: 80,
        height: 250,
        loaded: [{ item: 0, x: 0, y: 0, z: 0, orientation: 'lwh', copy: 1 }],
      },
    ],
    items: [
      item({ id: 'pallet', length: 120, width: 80, height: 100, weight: 200, quantity: 1, maxStackWeight: 500 }),
      item({ id: 'box', length: 60, width: 40, height: 50, weight: 100, quantity: 6, orientations: ['lwh'] }),
    ],
  });
  const plan = solve(m);
  t.same(verifyPlan(m, plan), [], 'the plan verifies (stack_weight included)');
  const v = plan.vehicles[0]!;
  const boxes = v.placements.filter((p) => p.item_id === 'box');
  t.equal(boxes.length, 4, 'four boxes on the pallet');
  t.ok(
    boxes.every((p) => p.y === 100),
    'all on its top',
  );
  t.match(
    v.placements.find((p) => p.item_id === 'pallet'),
    { instance: 1, x: 0, y: 0, z: 0, step: 1 },
  );
  t.same(
    plan.unplaced.map((u) => [u.item_id, u.reason]),
    [
      ['box', 'load_limit'],
      ['box', 'load_limit'],
    ],
    'the two others are unplaced for the load',
  );
});

t.test('with a group routing, earlier groups do not go in front of pinned units of a later one', async (t) => {
  const m = model({
    vehicles: [{ ...container(2), length: 400, loaded: [{ item: 1, x: 0, y: 0, z: 0, orientation: 'lwh', copy: 1 }] }],
    items: [
      item({ id: 'first', length: 100, width: 100, height: 100, weight: 10, quantity: 4, group: 'a', groupOrder: 1 }),
      item({ id: 'second', length: 100, width: 100, height: 100, weight: 10, quantity: 3, group: 'b', groupOrder: 2 }),
    ],
    groupRouting: 'wall',
    maxVehicles: 2,
  });
  const plan = solve(m);
  t.same(verifyPlan(m, plan), [], 'the plan verifies (group_routing included)');
  const pinnedCopy = plan.vehicles.find((v) => v.copy === 1)!;
  t.notOk(
    pinnedCopy.placements.some((p) => p.item_id === 'first'),
    'group a is not loaded into the copy whose pinned unit is of group b',
  );
  t.equal(plan.unplaced.length, 0, 'the other copy takes group a');
});

t.test('pinned units listed before what they rest on still load after it', async (t) => {
  const m = model({
    vehicles: [
      {
        ...container(),
        loaded: [
          { item: 0, x: 0, y: 100, z: 0, orientation: 'lwh', copy: 1 },
          { item: 0, x: 0, y: 0, z: 0, orientation: 'lwh', copy: 1 },
        ],
      },
    ],
    items: [item({ id: 'box', length: 100, width: 100, height: 100, weight: 10, quantity: 3 })],
  });
  const plan = solve(m);
  t.same(verifyPlan(m, plan), [], 'the plan verifies (rule steps included)');
  t.match(
    [...plan.vehicles[0]!.placements].sort((a, b) => a.step - b.step),
    [
      { instance: 2, y: 0, step: 1 },
      { instance: 1, y: 100, step: 2 },
      { instance: 3, step: 3 },
    ],
    'instances in request order, steps in loading order: the lower unit first',
  );
});
