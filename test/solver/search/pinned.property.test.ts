/**
 * Property of pinned units (PackModel.vehicles[i].loaded): for random jobs, a valid plan of the
 * search is cut at a random loading step per vehicle (a set closed under support: every unit
 * with step ≤ K_v of vehicle v), those units are pinned where they are, and the job is solved
 * again (second decks, nesting, drums, load limits, hazardous items, group routings and
 * enforced axles among the jobs). The pinned units alone pass admission (with enforce_axle, unless
 * they break the axle rules alone), and the new plan verifies (verifyPlan empty,
 * rule `pinned` included), keeps every pinned unit exactly where it was, and loads each vehicle's
 * pinned units in its first steps, at the steps they had. Short deterministic searches (work limit), so it runs in
 * seconds.
 */
import t from 'tap';
import fc from 'fast-check';
import type {
  AxleModel,
  GroupRouting,
  ItemModel,
  Orientation,
  PackModel,
  PinnedUnit,
  Plan,
} from '../../../domain/pack/plan.js';
import { ALL_ORIENTATIONS } from '../../../domain/pack/plan.js';
import { pinnedProblems } from '../../../api/http/pack-request/pinned-admission.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { propertyRuns } from '../../helpers/property-runs.js';

/** Block placements per search (search.ts SearchTask.work). */
const WORK = 300;

function solve(model: PackModel): Plan {
  const plan = search({ model, worker: 0, stride: 2, deadline: Date.now() + 30_000, work: WORK }).plans[0]?.plan;
  if (!plan) throw new Error('no plan');
  return plan;
}

const dim = fc.integer({ min: 10, max: 120 }).map((n) => n / 2);
const itemArb = fc.record({
  length: dim,
  width: dim,
  height: dim,
  weight: fc.integer({ min: 0, max: 400 }),
  quantity: fc.integer({ min: 1, max: 25 }),
  stackable: fc.boolean(),
  orientations: fc.subarray<Orientation>([...ALL_ORIENTATIONS], { minLength: 1 }),
  priority: fc.integer({ min: 0, max: 2 }),
  groupOrder: fc.constantFrom(1, 2, Number.MAX_SAFE_INTEGER),
  shape: fc.constantFrom('box', 'box', 'box', 'drum', 'cylinder'),
  maxStackWeight: fc.constantFrom(0, 0, 0, 50, 400, 2000),
  hazardous: fc.constantFrom(false, false, false, true),
  nesting: fc.constantFrom(0, 0, 0, 0.3),
});
const vehicleArb = fc.record({
  length: fc.integer({ min: 60, max: 400 }),
  width: fc.integer({ min: 60, max: 240 }),
  height: fc.integer({ min: 60, max: 250 }),
  maxWeight: fc.integer({ min: 100, max: 5000 }),
  quantity: fc.integer({ min: 1, max: 2 }),
  floorLoad: fc.constantFrom(0, 0, 2000, 8000),
  blocked: fc.array(
    fc.record({
      x: fc.integer({ min: 0, max: 50 }),
      z: fc.integer({ min: 0, max: 50 }),
      length: fc.integer({ min: 5, max: 40 }),
      width: fc.integer({ min: 5, max: 40 }),
    }),
    { maxLength: 2 },
  ),
  deck: fc.constantFrom(0, 0, 0.45, 0.6),
  axles: fc.option(
    fc.record({
      share: fc.constantFrom(0.5, 0.8, 1.2),
      cogX: fc.option(fc.integer({ min: 20, max: 100 }), { nil: null }),
    }),
    { nil: null },
  ),
});
const modelArb = fc
  .record({
    vehicles: fc.array(vehicleArb, { minLength: 1, maxLength: 3 }),
    items: fc.array(itemArb, { minLength: 1, maxLength: 5 }),
    auto: fc.boolean(),
    maxStackItems: fc.integer({ min: 0, max: 3 }),
    maxVehicles: fc.integer({ min: 1, max: 4 }),
    routing: fc.constantFrom<GroupRouting>('none', 'none', 'wall', 'routing', 'no_stack'),
    enforceAxle: fc.boolean(),
    seed: fc.integer({ min: 0, max: 1000 }),
  })
  .map((m): PackModel => ({
    vehicles: m.vehicles.map((v, i) => ({
      id: `v${i}`,
      name: `V${i}`,
      type: 'truck',
      length: v.length,
      width: v.width,
      height: v.height,
      maxWeight: v.maxWeight,
      quantity: v.quantity,
      blockedAreas: v.blocked,
      floorLoadCapacity: v.floorLoad,
      axles:
        v.axles === null
          ? null
          : ({
              kind: 'axles',
              positions: [Math.round(v.length / 4), Math.round((3 * v.length) / 4)],
              maxLoads: [v.maxWeight * v.axles.share, v.maxWeight * v.axles.share],
              cogRangeX: v.axles.cogX === null ? null : Math.min(v.axles.cogX, v.length / 2),
              cogRangeY: null,
            } satisfies AxleModel),
      auxDeck: v.deck > 0 ? { height: Math.round(v.height * v.deck), maxWeight: v.maxWeight / 2 } : null,
    })),
    items: m.items.map((it, i): ItemModel => {
      const round = it.shape !== 'box';
      const d = Math.min(it.length, it.width);
      return {
        id: `i${i}`,
        label: `item ${i}`,
        shape: it.shape,
        length: round ? d : it.length,
        width: round ? d : it.width,
        height: it.height,
        weight: it.weight,
        quantity: it.quantity,
        stackable: it.stackable,
        maxStackWeight: it.maxStackWeight,
        nestingHeight: Math.round(it.height * it.nesting),
        orientations: it.shape === 'drum' ? ['lwh'] : it.orientations,
        priority: it.priority,
        hazardous: it.hazardous,
        group: it.groupOrder === Number.MAX_SAFE_INTEGER ? null : `g${it.groupOrder}`,
        groupOrder: it.groupOrder,
        color: null,
      };
    }),
    packingMode: m.auto ? 'auto' : 'fleet_only',
    maxVehicles: m.maxVehicles + m.vehicles.reduce((s, v) => s + v.quantity, 0),
    allowOverweight: false,
    maxStackItems: m.maxStackItems,
    maxStackDensity: 0,
    enforceAxle: m.enforceAxle,
    groupRouting: m.routing,
    budgetMs: 30_000,
    seed: m.seed,
  }));

/**
 * `model` with the units of `plan` up to step `cuts[v]` of each vehicle v pinned (each cut a
 * fraction 0–1 of the vehicle's units); a copy the search auto-added is listed by raising its
 * definition's quantity, as a re-plan does. Null when nothing is pinned.
 */
function pinAt(model: PackModel, plan: Plan, cuts: readonly number[]): PackModel | null {
  const vehicles = model.vehicles.map((v) => ({ ...v, loaded: [] as PinnedUnit[] }));
  plan.vehicles.forEach((pv, i) => {
    const k = Math.floor((cuts[i % cuts.length] ?? 0) * (pv.placements.length + 1));
    const d = model.vehicles.findIndex((v) => v.id === pv.vehicle_id);
    const def = vehicles[d]!;
    for (const p of [...pv.placements].sort((a, b) => a.step - b.step)) {
      if (p.step > k) continue;
      const item = model.items.findIndex((it) => it.id === p.item_id);
      def.loaded.push({ item, x: p.x, y: p.y, z: p.z, orientation: p.orientation, copy: pv.copy });
      def.quantity = Math.max(def.quantity, pv.copy);
    }
  });
  if (vehicles.every((v) => v.loaded.length === 0)) return null;
  return { ...model, vehicles: vehicles.map((v) => (v.loaded.length > 0 ? v : { ...v, loaded: undefined })) };
}

t.test('re-solving with a support-closed part of a valid plan pinned keeps it in place and verifies', async (t) => {
  const cases = propertyRuns(40, 2026);
  let runs = 0,
    pinnedUnits = 0,
    refusedForAxles = 0;
  fc.assert(
    fc.property(
      modelArb,
      fc.array(
        fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
        { minLength: 1, maxLength: 4 },
      ),
      (model, cuts) => {
        const first = solve(model);
        const before = verifyPlan(model, first);
        if (before.length > 0) throw new Error(`the first plan fails: ${JSON.stringify(before.slice(0, 2))}`);
        const pinned = pinAt(model, first, cuts);
        if (!pinned) return;
        // The pinned units of a valid plan pass admission, but for the axle rules (the rest of
        // the load may have balanced them).
        const refused = pinnedProblems(pinned);
        if (refused.some((d) => !/rule (axle_load|cog_range)/.test(d.message)))
          throw new Error(`admission refused: ${JSON.stringify(refused.slice(0, 2))}`);
        if (refused.length > 0) {
          refusedForAxles++;
          return;
        }
        const plan = solve(pinned);
        const violations = verifyPlan(pinned, plan);
        if (violations.length > 0) throw new Error(`the re-plan fails: ${JSON.stringify(violations.slice(0, 3))}`);
        // Independently of the verifier's rule: each pinned unit in its copy, at its place, in the first steps.
        for (const def of pinned.vehicles) {
          for (const copy of new Set((def.loaded ?? []).map((u) => u.copy))) {
            const mine = (def.loaded ?? []).filter((u) => u.copy === copy);
            const v = plan.vehicles.find((pv) => pv.vehicle_id === def.id && pv.copy === copy);
            if (!v) throw new Error(`${def.id} copy ${copy} is missing`);
            for (const u of mine) {
              const p = v.placements.find(
                (q) =>
                  q.item_id === pinned.items[u.item]!.id &&
                  Math.abs(q.x - u.x) <= 1e-6 &&
                  Math.abs(q.y - u.y) <= 1e-6 &&
                  Math.abs(q.z - u.z) <= 1e-6 &&
                  q.orientation === u.orientation,
              );
              if (!p) throw new Error(`a pinned unit of ${def.id} copy ${copy} moved`);
              // Sent in the old plan's step order, a valid loading order: the steps stay the same.
              const old = first.vehicles
                .find((pv) => pv.vehicle_id === def.id && pv.copy === copy)!
                .placements.find((q) => q.x === u.x && q.y === u.y && q.z === u.z && q.item_id === p.item_id)!;
              if (p.step !== old.step) throw new Error(`a pinned unit has step ${p.step}, before ${old.step}`);
            }
            pinnedUnits += mine.length;
          }
        }
        runs++;
      },
    ),
    cases,
  );
  t.ok(
    runs >= cases.numRuns / 2,
    `${runs} re-plans with ${pinnedUnits} pinned units verified (${refusedForAxles} refused for axles alone)`,
  );
  t.ok(pinnedUnits > 4 * cases.numRuns, 'they pinned many units');
});
