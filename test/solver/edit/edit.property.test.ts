/**
 * Properties of plan editing (solver/edit) over solver plans of random small jobs (deterministic
 * search, small work limit) and hand-built stacks:
 * (a) a valid plan stays valid under the identity edit, with the same units and figures;
 * (b) a move onto another unit is refused with `overlap` naming the moved unit, and operationOf
 *     names that move;
 * (c) a unit raised with nothing under it is refused with `support`;
 * (d) a unit put onto a non-stackable unit, or beyond a max_stack_weight, is refused with
 *     `stacking` / `stack_weight`.
 */
import t from 'tap';
import fc from 'fast-check';
import type { ItemModel, Orientation, PackModel, Plan, PlannedVehicle } from '../../../domain/pack/plan.js';
import { ALL_ORIENTATIONS } from '../../../domain/pack/plan.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { checkLayout } from '../../../solver/edit/plan-check.js';
import { layoutOf, type Layout } from '../../../solver/edit/layout.js';
import { applyOperations, operationOf, type EditOperation } from '../../../solver/edit/operations.js';
import { gridPlan, item } from '../verify/plan-fixture.js';

/** Block placements of each search (deterministic mode): small, so each job solves in milliseconds. */
const SEARCH_WORK = 300;
const FIGURE_TOLERANCE = 1e-9;

const dim = fc.integer({ min: 10, max: 100 }).map((n) => n / 2);
const itemArb = fc.record({
  length: dim,
  width: dim,
  height: dim,
  weight: fc.integer({ min: 0, max: 200 }),
  quantity: fc.integer({ min: 1, max: 12 }),
  stackable: fc.boolean(),
  orientations: fc.subarray<Orientation>([...ALL_ORIENTATIONS], { minLength: 1 }),
});
const modelArb = fc
  .record({
    vehicles: fc.array(
      fc.record({
        length: fc.integer({ min: 80, max: 300 }),
        width: fc.integer({ min: 80, max: 220 }),
        height: fc.integer({ min: 80, max: 220 }),
        maxWeight: fc.integer({ min: 200, max: 3000 }),
      }),
      { minLength: 1, maxLength: 2 },
    ),
    items: fc.array(itemArb, { minLength: 1, maxLength: 4 }),
    auto: fc.boolean(),
    maxStackItems: fc.integer({ min: 0, max: 3 }),
    seed: fc.integer({ min: 1, max: 1000 }),
  })
  .map((m): PackModel => ({
    vehicles: m.vehicles.map((v, i) => ({
      id: `v${i}`,
      name: `V${i}`,
      type: 'truck',
      ...v,
      quantity: 1,
      blockedAreas: [],
      floorLoadCapacity: 0,
      axles: null,
      auxDeck: null,
    })),
    items: m.items.map((it, i): ItemModel => item({ id: `i${i}`, label: `item ${i}`, ...it })),
    packingMode: m.auto ? 'auto' : 'fleet_only',
    maxVehicles: m.vehicles.length + (m.auto ? 2 : 0),
    allowOverweight: false,
    maxStackItems: m.maxStackItems,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 300,
    seed: m.seed,
  }));

/** The best plan of a short deterministic search of `model`, checked by the verifier first. */
function solved(model: PackModel): Plan {
  const plan = search({ model, worker: 0, stride: 1, deadline: Date.now() + 5000, work: SEARCH_WORK }).plans[0]?.plan;
  if (!plan) throw new Error('no plan');
  const violations = verifyPlan(model, plan);
  if (violations.length > 0) throw new Error(`solver plan does not verify: ${JSON.stringify(violations.slice(0, 2))}`);
  return plan;
}

/** Random jobs solved once, shared by the properties (a)–(c); only plans placing ≥ 2 units. */
const JOBS = fc
  .sample(modelArb, { numRuns: 120, seed: 25 })
  .map((model) => ({ model, plan: solved(model) }))
  .filter((j) => j.plan.vehicles.reduce((n, v) => n + v.placements.length, 0) >= 2);

/** Every placed unit of a plan with its vehicle index. */
const unitsOf = (plan: Plan) => plan.vehicles.flatMap((v, vehicle) => v.placements.map((p) => ({ p, vehicle })));

const near = (a: number, b: number): boolean => Math.abs(a - b) <= FIGURE_TOLERANCE * Math.max(1, Math.abs(b));

/** Differences between two vehicles' figures beyond the tolerance (names of the fields). */
function figureDifferences(a: PlannedVehicle, b: PlannedVehicle): string[] {
  const out: string[] = [];
  for (const k of ['items_placed', 'total_weight', 'volume_utilization', 'weight_utilization'] as const)
    if (!near(a[k], b[k])) out.push(`${k} ${a[k]} ≠ ${b[k]}`);
  for (const k of ['x', 'y', 'z'] as const)
    if (!near(a.center_of_gravity[k], b.center_of_gravity[k])) out.push(`center_of_gravity.${k}`);
  for (const k of ['vehicle_id', 'copy', 'auto_added', 'index'] as const) if (a[k] !== b[k]) out.push(k);
  return out;
}

/** `item#instance@vehicle:x,y,z,orientation,length×width×height` of every unit, sorted. */
const unitSet = (plan: Plan): string[] =>
  unitsOf(plan)
    .map(
      ({ p, vehicle }) =>
        `${p.item_id}#${p.instance}@${vehicle}:${p.x},${p.y},${p.z},${p.orientation},${p.length}×${p.width}×${p.height},${p.weight}`,
    )
    .sort();

t.test('(a) a valid plan stays valid under the identity edit: same units, same figures', async (t) => {
  t.ok(JOBS.length >= 100, `${JOBS.length} solved jobs`);
  fc.assert(
    fc.property(fc.constantFrom(...JOBS), ({ model, plan }) => {
      const check = checkLayout(model, layoutOf(plan));
      if (!check.valid) throw new Error(`identity edit refused: ${JSON.stringify(check.problems.slice(0, 2))}`);
      if (unitSet(check.plan).join('|') !== unitSet(plan).join('|')) throw new Error('units changed');
      if (check.plan.vehicles.length !== plan.vehicles.length) throw new Error('vehicle count changed');
      // Loading steps are recomputed (solver/search/loading-steps.ts), not copied: each vehicle's are 1..n.
      for (const v of check.plan.vehicles) {
        const steps = v.placements.map((p) => p.step).sort((m, n) => m - n);
        if (steps.some((step, i) => step !== i + 1)) throw new Error(`steps ${steps.join()}`);
      }
      check.plan.vehicles.forEach((v, i) => {
        const diff = figureDifferences(v, plan.vehicles[i]!);
        if (diff.length > 0) throw new Error(`vehicle ${i}: ${diff.join(', ')}`);
      });
      const unplaced = (p: Plan) => p.unplaced.map((u) => `${u.item_id}#${u.instance}:${u.reason}`).sort();
      if (unplaced(check.plan).join() !== unplaced(plan).join()) throw new Error('unplaced changed');
      // The same holds through applyOperations with no operation.
      const edited = applyOperations(model, layoutOf(plan), []);
      if (edited.errors.length > 0 || !checkLayout(model, edited.layout).valid) throw new Error('empty edit refused');
    }),
    { numRuns: 150, seed: 1 },
  );
  const stepsOf = (p: Plan) =>
    unitsOf(p)
      .map(({ p: u }) => `${u.item_id}#${u.instance}:${u.step}`)
      .sort()
      .join();
  const reordered = JOBS.filter(
    ({ model, plan }) => stepsOf(checkLayout(model, layoutOf(plan)).plan) !== stepsOf(plan),
  );
  t.comment(`${reordered.length} of ${JOBS.length} solver plans get another (valid) loading order when rebuilt`);
});

/** Identity moves of `count` units of `layout` (each to where it stands), as operations. */
function identityMoves(layout: Layout, picks: readonly number[]): EditOperation[] {
  const all = layout.vehicles.flatMap((v, vehicle) => v.placements.map((u) => ({ ...u, vehicle })));
  return picks.map((i) => {
    const u = all[i % all.length]!;
    return {
      op: 'move',
      item_id: u.item_id,
      instance: u.instance,
      vehicle: u.vehicle,
      x: u.x,
      y: u.y,
      z: u.z,
      orientation: u.orientation,
    };
  });
}

t.test(
  '(b) a move onto another unit is refused with overlap naming the moved unit, and operationOf names the move',
  async (t) => {
    fc.assert(
      fc.property(
        fc.constantFrom(...JOBS),
        fc.nat(),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 3 }),
        ({ model, plan }, a, b, before) => {
          const units = unitsOf(plan);
          const moved = units[a % units.length]!;
          const onto = units[(a + 1 + (b % (units.length - 1))) % units.length]!;
          const base = layoutOf(plan);
          // A few identity moves first: the overlap's operation is the last one, whatever came before.
          const ops: EditOperation[] = [
            ...identityMoves(base, before),
            {
              op: 'move',
              item_id: moved.p.item_id,
              instance: moved.p.instance,
              vehicle: onto.vehicle,
              x: onto.p.x,
              y: onto.p.y,
              z: onto.p.z,
              orientation: moved.p.orientation,
            },
          ];
          const edited = applyOperations(model, base, ops);
          if (edited.errors.length > 0) throw new Error(`ops refused: ${JSON.stringify(edited.errors)}`);
          const check = checkLayout(model, edited.layout);
          if (check.valid) throw new Error('an overlapping move was accepted');
          const named = (u: { item_id: string; instance: number }, p: { item_id: string; instance: number }) =>
            u.item_id === p.item_id && u.instance === p.instance;
          const overlap = check.problems.find(
            (pr) =>
              pr.rule === 'overlap' &&
              pr.units.some((u) => named(u, moved.p)) &&
              pr.units.some((u) => named(u, onto.p)),
          );
          if (!overlap) throw new Error(`no overlap of the moved unit: ${JSON.stringify(check.problems.slice(0, 3))}`);
          if (operationOf(overlap, edited.touchedBy) !== ops.length - 1)
            throw new Error(`operationOf ${operationOf(overlap, edited.touchedBy)}, expected ${ops.length - 1}`);
        },
      ),
      { numRuns: 200, seed: 2 },
    );
    t.pass('200 moves onto another unit refused');
  },
);

t.test('(c) a unit raised with nothing under it is refused with support', async (t) => {
  let tried = 0;
  fc.assert(
    fc.property(
      fc.constantFrom(...JOBS),
      fc.nat(),
      fc.double({ min: 0, max: 1, noNaN: true }),
      ({ model, plan }, a, share) => {
        const units = unitsOf(plan);
        const { p, vehicle } = units[a % units.length]!;
        const v = plan.vehicles[vehicle]!;
        // Free heights over its footprint: gaps between the other units standing there (merged spans of y).
        const spans = v.placements
          .filter(
            (q) =>
              q !== p &&
              Math.min(p.x + p.length, q.x + q.length) - Math.max(p.x, q.x) > 0 &&
              Math.min(p.z + p.width, q.z + q.width) - Math.max(p.z, q.z) > 0,
          )
          .map((q) => [q.y, q.y + q.height] as const)
          .sort((m, n) => m[0] - n[0]);
        const gaps: [number, number][] = [];
        let top = 0;
        for (const [from, to] of spans) {
          if (from > top) gaps.push([top, from]);
          top = Math.max(top, to);
        }
        gaps.push([top, v.height]);
        // Room to float at least 1 cm over what is under it, below what is over it.
        const room = gaps.filter(([lo, hi]) => hi - p.height - lo >= 1);
        fc.pre(room.length > 0);
        const [lo, hi] = room[a % room.length]!;
        tried++;
        const y = lo + 1 + share * (hi - p.height - lo - 1);
        const ops: EditOperation[] = [
          {
            op: 'move',
            item_id: p.item_id,
            instance: p.instance,
            vehicle,
            x: p.x,
            y,
            z: p.z,
            orientation: p.orientation,
          },
        ];
        const edited = applyOperations(model, layoutOf(plan), ops);
        const check = checkLayout(model, edited.layout);
        const support = check.problems.find(
          (pr) => pr.rule === 'support' && pr.units.some((u) => u.item_id === p.item_id && u.instance === p.instance),
        );
        if (!support)
          throw new Error(`raised to y ${y} without a support problem: ${JSON.stringify(check.problems.slice(0, 3))}`);
        if (operationOf(support, edited.touchedBy) !== 0) throw new Error('operationOf does not name the move');
      },
    ),
    { numRuns: 200, seed: 3 },
  );
  t.ok(tried >= 100, `${tried} raised units checked`);
});

/**
 * Two boxes on the floor of a roomy container: `base` at the origin, `top` beside it (a valid
 * plan), `top`'s footprint no larger than `base`'s.
 */
const stackArb = fc
  .record({
    base: fc.record({
      length: fc.integer({ min: 20, max: 120 }),
      width: fc.integer({ min: 20, max: 120 }),
      height: fc.integer({ min: 10, max: 100 }),
    }),
    top: fc.record({
      length: fc.double({ min: 0.1, max: 1, noNaN: true }),
      width: fc.double({ min: 0.1, max: 1, noNaN: true }),
      height: fc.integer({ min: 10, max: 80 }),
    }),
    at: fc.record({ x: fc.double({ min: 0, max: 1, noNaN: true }), z: fc.double({ min: 0, max: 1, noNaN: true }) }),
    rule: fc.constantFrom('stacking' as const, 'stack_weight' as const),
    limit: fc.integer({ min: 1, max: 500 }),
    excess: fc.double({ min: 0.01, max: 300, noNaN: true }),
  })
  .map((s) => {
    const top = {
      length: Math.max(5, Math.floor(s.base.length * s.top.length)),
      width: Math.max(5, Math.floor(s.base.width * s.top.width)),
      height: s.top.height,
    };
    const topWeight = s.rule === 'stack_weight' ? s.limit + s.excess : 10;
    const { model, plan } = gridPlan({ length: 400, width: 300, height: 300 }, [
      { x: 0, y: 0, z: 0, ...s.base, weight: 50 },
      { x: s.base.length + 10, y: 0, z: 0, ...top, weight: topWeight },
    ]);
    model.items[0] =
      s.rule === 'stacking'
        ? { ...model.items[0]!, stackable: false }
        : { ...model.items[0]!, maxStackWeight: s.limit };
    const x = s.at.x * (s.base.length - top.length);
    const z = s.at.z * (s.base.width - top.width);
    return { model, plan, rule: s.rule, to: { x, y: s.base.height, z } };
  });

t.test('(d) a unit put onto a non-stackable unit or beyond its max_stack_weight is refused', async (t) => {
  fc.assert(
    fc.property(stackArb, ({ model, plan, rule, to }) => {
      const before = checkLayout(model, layoutOf(plan));
      if (!before.valid) throw new Error(`the side-by-side plan is refused: ${JSON.stringify(before.problems)}`);
      const edited = applyOperations(model, layoutOf(plan), [
        { op: 'move', item_id: 'u1', instance: 1, vehicle: 0, ...to, orientation: 'lwh' },
      ]);
      const check = checkLayout(model, edited.layout);
      if (check.valid) throw new Error(`${rule}: the stacked plan was accepted`);
      const rules = check.problems.map((p) => p.rule);
      if (rules.join() !== rule) throw new Error(`expected only ${rule}, got ${rules.join(', ')}`);
      // The verifier names the unit carrying the load (u0) and the unit on top (u1): the move.
      const problem = check.problems[0]!;
      const named = problem.units.map((u) => u.item_id).join();
      if (named !== 'u0,u1') throw new Error(`names ${JSON.stringify(problem.units)}`);
      if (operationOf(problem, edited.touchedBy) !== 0)
        throw new Error(`the ${rule} problem is not traced to the move`);
    }),
    { numRuns: 200, seed: 4 },
  );
  t.pass('200 stacked units refused');
});

/** Any layout a client could send (the schema's types only): names known or not, any finite numbers. */
const anyLayoutArb = (model: PackModel) => {
  const coordinate = fc.oneof(
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    fc.constantFrom(0, -0, 1e308, -1e308, Number.MIN_VALUE),
  );
  const unit = fc.record({
    item_id: fc.constantFrom(...model.items.map((it) => it.id), 'nope', ''),
    instance: fc.integer({ min: 1, max: 40 }),
    x: coordinate,
    y: coordinate,
    z: coordinate,
    orientation: fc.constantFrom(...ALL_ORIENTATIONS),
  });
  return fc.record({
    vehicles: fc.array(
      fc.record({
        vehicle_id: fc.constantFrom(...model.vehicles.map((v) => v.id), 'nope'),
        copy: fc.integer({ min: 1, max: 5 }),
        placements: fc.array(unit, { maxLength: 12 }),
      }),
      { maxLength: 4 },
    ),
    unplaced: fc.array(
      fc.record({
        item_id: fc.constantFrom(...model.items.map((it) => it.id), 'nope'),
        instance: fc.integer({ min: 1, max: 40 }),
        reason: fc.constantFrom('no_space' as const, 'time_limit' as const),
      }),
      { maxLength: 4 },
    ),
  });
};

t.test('(e) any layout a client can send is checked without throwing, and refused when it breaks a rule', async (t) => {
  fc.assert(
    fc.property(
      fc.constantFrom(...JOBS).chain(({ model }) => fc.tuple(fc.constant(model), anyLayoutArb(model))),
      ([model, layout]) => {
        const check = checkLayout(model, layout);
        if (check.valid !== (check.problems.length === 0)) throw new Error('valid disagrees with problems');
        // Every model unit is accounted for exactly once in the rebuilt plan when it is valid.
        if (check.valid) {
          const units = model.items.reduce((n, it) => n + it.quantity, 0);
          const placed = check.plan.vehicles.reduce((n, v) => n + v.placements.length, 0);
          if (placed + check.plan.unplaced.length !== units) throw new Error('units lost in a valid plan');
        }
      },
    ),
    { numRuns: 300, seed: 5 },
  );
  t.pass('300 arbitrary layouts checked');
});
