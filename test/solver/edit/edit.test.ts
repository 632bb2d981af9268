import t from 'tap';
import { checkLayout } from '../../../solver/edit/plan-check.js';
import { layoutOf, planFromLayout } from '../../../solver/edit/layout.js';
import { applyOperations, operationOf } from '../../../solver/edit/operations.js';
import { replanRequest } from '../../../solver/edit/replan-request.js';
import { smallModel, smallPlan } from '../verify/plan-fixture.js';

t.test('the layout of a valid plan rebuilds into the same plan: figures, steps and unplaced', async (t) => {
  const plan = smallPlan();
  const check = checkLayout(smallModel(), layoutOf(plan));
  t.same(check.problems, []);
  t.equal(check.valid, true);
  const v0 = check.plan.vehicles[0]!;
  t.equal(v0.total_weight, 50);
  t.equal(v0.volume_utilization, 0.068);
  t.same(v0.center_of_gravity, { x: 77, y: 32, z: 42 });
  // An unedited vehicle keeps its loading steps.
  t.same(
    v0.placements.map((p) => [`${p.item_id}#${p.instance}`, p.step]),
    plan.vehicles[0]!.placements.map((p) => [`${p.item_id}#${p.instance}`, p.step]),
  );
  t.equal(check.plan.vehicles[1]!.auto_added, true);
  t.same(check.plan.unplaced, [{ item_id: 'C', instance: 1, label: 'C', reason: 'time_limit' }]);
});

t.test('a move onto another unit is refused with the overlap rule, naming both units and the operation', async (t) => {
  const model = smallModel();
  const ops = [
    { op: 'move' as const, item_id: 'B', instance: 2, vehicle: 0, x: 120, y: 0, z: 0, orientation: 'lwh' as const },
  ];
  const edited = applyOperations(model, layoutOf(smallPlan()), ops);
  t.same(edited.errors, []);
  const check = checkLayout(model, edited.layout);
  t.equal(check.valid, false);
  const overlap = check.problems.find((p) => p.rule === 'overlap')!;
  t.ok(overlap, 'an overlap is reported');
  t.same(overlap.units.map((u) => `${u.item_id}#${u.instance}`).sort(), ['B#1', 'B#2']);
  t.equal(operationOf(overlap, edited.touchedBy), 0);
  // The edited vehicle's steps are recomputed: 1..5, every unit after what it rests on.
  t.same(
    check.plan.vehicles[0]!.placements.map((p) => p.step),
    [1, 2, 3, 4, 5],
  );
  // The emptied vehicle 1 is left out of the rebuilt plan.
  t.equal(check.plan.vehicles.length, 1);
});

t.test('a unit moved into the air is refused with the support rule', async (t) => {
  const model = smallModel();
  const ops = [
    { op: 'move' as const, item_id: 'B', instance: 2, vehicle: 0, x: 200, y: 50, z: 100, orientation: 'lwh' as const },
  ];
  const check = checkLayout(model, applyOperations(model, layoutOf(smallPlan()), ops).layout);
  t.same(
    check.problems.map((p) => p.rule),
    ['support'],
  );
});

t.test('remove, place and swap', async (t) => {
  const model = smallModel();
  const base = layoutOf(smallPlan());
  const edited = applyOperations(model, base, [
    { op: 'remove', item_id: 'A', instance: 3 },
    { op: 'place', item_id: 'C', instance: 1, vehicle: 1, x: 100, y: 0, z: 0, orientation: 'lwh' },
    { op: 'swap', a: { item_id: 'A', instance: 3 }, b: { item_id: 'B', instance: 1 } },
    { op: 'remove', item_id: 'B', instance: 1 },
    { op: 'place', item_id: 'Z', instance: 1, vehicle: 0, x: 0, y: 0, z: 0, orientation: 'lwh' },
    { op: 'move', item_id: 'B', instance: 2, vehicle: 5, x: 0, y: 0, z: 0, orientation: 'lwh' },
    { op: 'move', item_id: 'B', instance: 2, vehicle: 0, x: 0, y: 0, z: 0, orientation: 'hwl' },
  ]);
  t.same(
    edited.errors.map((e) => e.index),
    [3, 4, 5, 6],
  );
  t.match(edited.errors[0]!.message, /B#1 is not placed/);
  t.match(edited.errors[1]!.message, /item "Z" is not in the request/);
  t.match(edited.errors[2]!.message, /vehicle 5 is not in the result/);
  t.match(edited.errors[3]!.message, /may not stand in orientation hwl/);
  const check = checkLayout(model, edited.layout);
  t.same(check.problems, []);
  // A#3 took B#1's place (x 100, floor), B#1 became unplaced.
  const a3 = check.plan.vehicles[0]!.placements.find((p) => p.item_id === 'A' && p.instance === 3)!;
  t.same([a3.x, a3.y, a3.z, a3.orientation], [100, 0, 0, 'lwh']);
  t.same(
    check.plan.unplaced.map((u) => `${u.item_id}#${u.instance}:${u.reason}`),
    ['B#1:no_space'],
  );
});

t.test('planFromLayout keeps unknown names for the verifier to report', async (t) => {
  const model = smallModel();
  const plan = planFromLayout(model, {
    vehicles: [
      {
        vehicle_id: 'nope',
        copy: 1,
        placements: [{ item_id: 'Q', instance: 1, x: 0, y: 0, z: 0, orientation: 'lwh' }],
      },
    ],
  });
  t.equal(plan.vehicles[0]!.placements[0]!.length, 0);
  const rules = new Set(checkLayout(model, layoutOf(plan)).problems.map((p) => p.rule));
  t.ok(rules.has('vehicles') && rules.has('instances'), [...rules].join(', '));
});

t.test('replanRequest pins the earlier vehicles whole and the chosen one up to step K', async (t) => {
  const request = {
    vehicles: [{ vehicle_id: 'truck', length: 300, width: 200, height: 200, max_weight: 1000 }],
    items: [{ id: 'A', length: 100, width: 50, height: 40, weight: 10, quantity: 3 }],
  };
  const plan = smallPlan();
  const replan = replanRequest(request, plan, 1, 0);
  const loaded = (replan.vehicles[0] as { loaded?: { item_id: string; copy: number }[] }).loaded!;
  t.same(
    loaded.map((u) => `${u.item_id}@${u.copy}`),
    ['A@1', 'A@1', 'B@1', 'A@1'],
  );
  const k2 = replanRequest(request, plan, 0, 2);
  t.equal((k2.vehicles[0] as { loaded?: unknown[] }).loaded!.length, 2);
  t.equal(replanRequest(request as never, plan, 1, 1).vehicles[0]!.quantity, 2);
  t.throws(() => replanRequest(request, plan, 2, 1), RangeError);
  t.equal((request.vehicles[0] as { loaded?: unknown }).loaded, undefined, 'the request is not changed');
});
