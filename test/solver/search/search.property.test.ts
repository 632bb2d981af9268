import t from 'tap';
import fc from 'fast-check';
import type {
  AxleModel,
  GroupRouting,
  ItemModel,
  Orientation,
  PackModel,
  Placement,
  Plan,
} from '../../../domain/pack/plan.js';
import { ALL_ORIENTATIONS } from '../../../domain/pack/plan.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { propertyRuns } from '../../helpers/property-runs.js';

/** Deterministic search budget of these tests: block placements per worker (search.ts SearchTask.work). */
const SEARCH_WORK = 4000;

const E = 1e-6;

/** Independent geometry checks of one plan (kept apart from the search code). */
function localProblems(model: PackModel, plan: Plan): string[] {
  const out: string[] = [];
  for (const v of plan.vehicles) {
    const def = model.vehicles.find((d) => d.id === v.vehicle_id)!;
    const ps = v.placements;
    const level = new Map<Placement, number>();
    const bySteps = [...ps].sort((a, b) => a.step - b.step);
    let weight = 0;
    for (const p of bySteps) {
      weight += p.weight;
      const it = model.items.find((i) => i.id === p.item_id)!;
      if (!it.orientations.includes(p.orientation)) out.push(`orientation ${p.item_id}`);
      if (
        p.x < -E ||
        p.y < -E ||
        p.z < -E ||
        p.x + p.length > v.length + E ||
        p.y + p.height > v.height + E ||
        p.z + p.width > v.width + E
      ) {
        out.push(`bounds ${p.item_id}#${p.instance}`);
      }
      let covered = 0,
        lv = 0;
      // A unit on the second deck stands on the deck, whatever ends just under it.
      const onDeck = def.auxDeck !== null && Math.abs(p.y - def.auxDeck.height) < E;
      for (const q of ps) {
        if (q === p) continue;
        const ox = Math.min(p.x + p.length, q.x + q.length) - Math.max(p.x, q.x);
        const oz = Math.min(p.z + p.width, q.z + q.width) - Math.max(p.z, q.z);
        const oy = Math.min(p.y + p.height, q.y + q.height) - Math.max(p.y, q.y);
        if (ox > E && oz > E && oy > E) out.push(`overlap ${p.item_id}#${p.instance}`);
        if (ox > E && oz > E && Math.abs(q.y + q.height - p.y) < E && p.y > E && !onDeck) {
          covered += ox * oz;
          const qi = model.items.find((i) => i.id === q.item_id)!;
          if (!qi.stackable) out.push(`on non-stackable ${p.item_id}#${p.instance}`);
          if (q.step >= p.step) out.push(`step ${p.item_id}#${p.instance}`);
          lv = Math.max(lv, level.get(q) ?? Infinity);
        }
      }
      if (p.y > E && !onDeck && covered < p.length * p.width - 1e-4) out.push(`support ${p.item_id}#${p.instance}`);
      level.set(p, lv + 1);
      if (model.maxStackItems > 0 && lv + 1 > model.maxStackItems) out.push(`stack ${p.item_id}#${p.instance}`);
      if (p.y <= E) {
        for (const r of def.blockedAreas) {
          if (
            Math.min(p.x + p.length, r.x + r.length) - Math.max(p.x, r.x) > E &&
            Math.min(p.z + p.width, r.z + r.width) - Math.max(p.z, r.z) > E
          ) {
            out.push(`blocked ${p.item_id}#${p.instance}`);
          }
        }
      }
    }
    if (!model.allowOverweight && weight > v.max_weight + E) out.push(`weight vehicle ${v.index}`);
    if (Math.abs(weight - v.total_weight) > 1e-6) out.push(`total_weight ${v.index}`);
  }
  for (const it of model.items) {
    const seen = [
      ...plan.vehicles
        .flatMap((v) => v.placements)
        .filter((p) => p.item_id === it.id)
        .map((p) => p.instance),
      ...plan.unplaced.filter((u) => u.item_id === it.id).map((u) => u.instance),
    ].sort((a, b) => a - b);
    if (seen.join() !== Array.from({ length: it.quantity }, (_, i) => i + 1).join()) out.push(`instances ${it.id}`);
  }
  return out;
}

/**
 * The best plan of a short deterministic search of `model` (`work` block placements), after checking it with the
 * verifier and (unless `nesting`) the local checks above; throws with the first problems found.
 */
function checkedPlan(model: PackModel, worker: number, work: number, nesting = false): Plan {
  const plan = search({ model, worker, stride: 2, deadline: Date.now() + 2000, work }).plans[0]?.plan;
  if (!plan) throw new Error('no plan');
  const violations = verifyPlan(model, plan);
  if (violations.length > 0) throw new Error(`verifier: ${JSON.stringify(violations.slice(0, 3))}`);
  // The local checks know nothing of nesting (overlaps and supports between nested units) nor of
  // round footprints (staggered drums whose bounding boxes overlap).
  if (nesting) return plan;
  const local = localProblems(model, plan);
  if (local.length > 0) throw new Error(`local: ${local.slice(0, 5).join(', ')}`);
  return plan;
}

const dim = fc.integer({ min: 10, max: 120 }).map((n) => n / 2);
const itemArb = fc.record({
  length: dim,
  width: dim,
  height: dim,
  weight: fc.integer({ min: 0, max: 400 }),
  quantity: fc.integer({ min: 1, max: 30 }),
  stackable: fc.boolean(),
  orientations: fc.subarray<Orientation>([...ALL_ORIENTATIONS], { minLength: 1 }),
  priority: fc.integer({ min: 0, max: 2 }),
  groupOrder: fc.constantFrom(1, 2, Number.MAX_SAFE_INTEGER),
});
const vehicleArb = fc.record({
  length: fc.integer({ min: 60, max: 400 }),
  width: fc.integer({ min: 60, max: 240 }),
  height: fc.integer({ min: 60, max: 250 }),
  maxWeight: fc.integer({ min: 100, max: 5000 }),
  quantity: fc.integer({ min: 1, max: 2 }),
  blocked: fc.array(
    fc.record({
      x: fc.integer({ min: 0, max: 50 }),
      z: fc.integer({ min: 0, max: 50 }),
      length: fc.integer({ min: 5, max: 40 }),
      width: fc.integer({ min: 5, max: 40 }),
    }),
    { maxLength: 2 },
  ),
});
const modelArb = fc
  .record({
    vehicles: fc.array(vehicleArb, { minLength: 1, maxLength: 3 }),
    items: fc.array(itemArb, { minLength: 1, maxLength: 6 }),
    auto: fc.boolean(),
    allowOverweight: fc.boolean(),
    maxStackItems: fc.integer({ min: 0, max: 3 }),
    maxVehicles: fc.integer({ min: 1, max: 6 }),
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
      floorLoadCapacity: 0,
      axles: null,
      auxDeck: null,
    })),
    items: m.items.map((it, i): ItemModel => ({
      id: `i${i}`,
      label: `item ${i}`,
      shape: 'box',
      ...it,
      maxStackWeight: 0,
      nestingHeight: 0,
      hazardous: false,
      group: it.groupOrder === Number.MAX_SAFE_INTEGER ? null : `g${it.groupOrder}`,
      color: null,
    })),
    packingMode: m.auto ? 'auto' : 'fleet_only',
    maxVehicles: m.maxVehicles + m.vehicles.reduce((s, v) => s + v.quantity, 0),
    allowOverweight: m.allowOverweight,
    maxStackItems: m.maxStackItems,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 300,
    seed: m.seed,
  }));

t.test('every plan of random small models verifies and accounts for every unit once', async (t) => {
  fc.assert(
    fc.property(modelArb, (model) => {
      const plan = checkedPlan(model, 0, 600);
      for (const v of plan.vehicles) if (v.placements.length === 0) throw new Error('empty vehicle in plan');
      if (model.packingMode === 'fleet_only' && plan.vehicles.some((v) => v.auto_added))
        throw new Error('auto_added in fleet_only');
    }),
    propertyRuns(50, 42),
  );
  t.pass('random models');
});

// Loads where units that support nothing meet stackable columns (capped columns), over several
// vehicles in auto mode (repacks of the last vehicle into an earlier one).
const flatArb = fc.record({
  length: dim,
  width: dim,
  height: fc.integer({ min: 10, max: 40 }).map((n) => n / 2),
  weight: fc.integer({ min: 0, max: 100 }),
  quantity: fc.integer({ min: 1, max: 20 }),
  stackable: fc.constant(false),
  orientations: fc.constantFrom<Orientation[]>(['lwh'], ['lwh', 'wlh']),
  priority: fc.constant(0),
  groupOrder: fc.constant(Number.MAX_SAFE_INTEGER),
});
const cappedArb = fc
  .record({
    base: modelArb,
    flats: fc.array(flatArb, { minLength: 1, maxLength: 3 }),
    maxStackItems: fc.integer({ min: 0, max: 4 }),
  })
  .map(({ base, flats, maxStackItems }): PackModel => ({
    ...base,
    items: [
      ...base.items.map((it) => ({ ...it, stackable: true })),
      ...flats.map((it, i): ItemModel => ({
        id: `f${i}`,
        label: `flat ${i}`,
        shape: 'box',
        ...it,
        maxStackWeight: 0,
        nestingHeight: 0,
        hazardous: false,
        group: null,
        color: null,
      })),
    ],
    packingMode: 'auto',
    maxStackItems,
  }));

t.test('plans with capped columns and repacked vehicles verify and account for every unit once', async (t) => {
  fc.assert(
    fc.property(cappedArb, (model) => {
      const plan = checkedPlan(model, 1, 300);
      for (const v of plan.vehicles) if (v.placements.length === 0) throw new Error('empty vehicle in plan');
    }),
    propertyRuns(35, 7),
  );
  t.pass('random models');
});

// Loads with max_stack_weight per item, floor load per vehicle and a stack density: every plan
// must pass the verifier's load rules (weight passed down by contact area).
const loadArb = fc
  .record({
    base: modelArb,
    maxStackWeights: fc.array(fc.constantFrom(0, 0, 1, 20, 100, 400, 1000), { minLength: 6, maxLength: 6 }),
    floorLoads: fc.array(fc.constantFrom(0, 500, 2000, 8000, 30000), { minLength: 3, maxLength: 3 }),
    density: fc.constantFrom(0, 0, 1000, 5000, 20000),
  })
  .map(({ base, maxStackWeights, floorLoads, density }): PackModel => ({
    ...base,
    vehicles: base.vehicles.map((v, i) => ({ ...v, floorLoadCapacity: floorLoads[i]!, axles: null, auxDeck: null })),
    items: base.items.map((it, i) => ({ ...it, maxStackWeight: maxStackWeights[i]! })),
    maxStackDensity: density,
  }));

t.test('plans under max_stack_weight, floor load and stack density limits verify', async (t) => {
  let loadLimited = 0;
  fc.assert(
    fc.property(loadArb, (model) => {
      const plan = checkedPlan(model, 0, 300);
      const limited =
        model.maxStackDensity > 0 ||
        model.vehicles.some((v) => v.floorLoadCapacity > 0) ||
        model.items.some((it) => it.maxStackWeight > 0);
      if (plan.unplaced.some((u) => u.reason === 'load_limit')) {
        if (!limited) throw new Error('load_limit without a load limit');
        loadLimited++;
      }
    }),
    propertyRuns(50, 11),
  );
  t.ok(loadLimited > 0, `${loadLimited} plans left units unplaced for load_limit: the limits bind`);
});

// Round units: some items become drums (upright) or cylinders (upright or lying, as
// their orientations allow), 2r × 2r × h, among boxes, under the load limits above. Every plan
// must pass the verifier, which sees upright round units as circles.
const roundArb = fc
  .record({
    base: loadArb,
    shapes: fc.array(fc.constantFrom('box', 'drum', 'cylinder', 'cylinder'), { minLength: 6, maxLength: 6 }),
  })
  .map(({ base, shapes }): PackModel => ({
    ...base,
    items: base.items.map((it, i) => {
      const shape = shapes[i]!;
      if (shape === 'box') return it;
      const d = Math.min(it.length, it.width);
      return { ...it, shape, length: d, width: d, orientations: shape === 'drum' ? ['lwh'] : it.orientations };
    }),
  }));

t.test('plans with drums and cylinders among the items verify', async (t) => {
  let staggered = 0,
    round = 0;
  fc.assert(
    fc.property(roundArb, (model) => {
      const plan = checkedPlan(model, 0, 300, true);
      const upright = plan.vehicles.flatMap((v) =>
        v.placements.filter((p) => {
          const it = model.items.find((i) => i.id === p.item_id)!;
          return it.shape !== 'box' && (p.orientation === 'lwh' || p.orientation === 'wlh');
        }),
      );
      round += upright.length;
      // Two upright round units whose bounding boxes overlap: a staggered arrangement was used.
      if (
        upright.some((p, i) =>
          upright
            .slice(0, i)
            .some(
              (q) =>
                q.y === p.y &&
                Math.min(p.x + p.length, q.x + q.length) - Math.max(p.x, q.x) > E &&
                Math.min(p.z + p.width, q.z + q.width) - Math.max(p.z, q.z) > E,
            ),
        )
      )
        staggered++;
    }),
    propertyRuns(35, 23),
  );
  t.ok(round > 0, `${round} upright round units placed`);
  t.ok(staggered > 0, `${staggered} plans use a staggered arrangement`);
});

// enforce_axle on random vehicles: axle positions and maxima (a share of the payload), centre-of-
// gravity ranges, and sometimes the semi-trailer model. Every plan must pass the axle rules.
const axleArb = fc.record({
  kind: fc.constantFrom('axles', 'axles', 'semi_trailer', 'none'),
  positions: fc.array(fc.integer({ min: -100, max: 100 }), { minLength: 1, maxLength: 3 }),
  share: fc.constantFrom(0.3, 0.5, 0.8, 1.2),
  cogX: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  cogY: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
});
const enforcedArb = fc
  .record({ base: modelArb, axles: fc.array(axleArb, { minLength: 3, maxLength: 3 }) })
  .map(({ base, axles }): PackModel => ({
    ...base,
    enforceAxle: true,
    vehicles: base.vehicles.map((v, i) => {
      const a = axles[i]!;
      const cog = {
        cogRangeX: a.cogX === null ? null : Math.min(a.cogX, v.length / 2),
        cogRangeY: a.cogY === null ? null : Math.min(a.cogY, v.width / 2),
      };
      const model: AxleModel =
        a.kind === 'axles'
          ? {
              kind: 'axles',
              positions: a.positions.map((p, k) => Math.round(((k + 1) * v.length) / (a.positions.length + 1)) + p),
              maxLoads: a.positions.map(() => v.maxWeight * a.share),
              ...cog,
            }
          : a.kind === 'semi_trailer'
            ? {
                kind: 'semi_trailer',
                tractorWeight: 7500,
                emptyTrailerWeight: 6500,
                frontAxleToMiddleAxle: 360,
                frontAxleToTractorCog: 150,
                frontAxleToKingpin: 300,
                kingpinToRearAxle: Math.max(50, v.length - 150),
                trailerCogToRearAxle: 300,
                trailerStartToKingpin: 100,
                maxMiddleAxleWeight: 5600 + v.maxWeight * a.share,
                maxRearAxleWeight: 3000 + v.maxWeight * a.share,
                ...cog,
              }
            : { kind: 'none', ...cog };
      return { ...v, axles: model };
    }),
  }));

t.test('plans with enforce_axle keep every axle and centre of gravity within limits and verify', async (t) => {
  let axleLimited = 0;
  fc.assert(
    fc.property(enforcedArb, (model) => {
      const plan = checkedPlan(model, 0, 300);
      if (plan.unplaced.some((u) => u.reason === 'axle_limit')) axleLimited++;
    }),
    propertyRuns(50, 13),
  );
  t.ok(axleLimited > 0, `${axleLimited} plans left units unplaced for axle_limit: the limits bind`);
});

// Group routings on random models whose items name groups g1, g2 or none (with random priorities,
// which must not reorder the groups): every plan must pass the group_routing rule.
const routedArb = fc
  .record({ base: modelArb, mode: fc.constantFrom<GroupRouting>('wall', 'routing', 'no_stack') })
  .map(({ base, mode }): PackModel => ({ ...base, groupRouting: mode }));

/**
 * Units of a vehicle a crew cannot reach when loading in step order from the door: a unit loaded
 * earlier lies between it and the door (nearer the door, overlapping its height and width band).
 */
function unreachable(plan: Plan): string[] {
  const out: string[] = [];
  for (const v of plan.vehicles) {
    for (const u of v.placements) {
      const blocker = v.placements.find(
        (w) =>
          w.step < u.step &&
          w.x >= u.x + u.length - E &&
          w.y < u.y + u.height - E &&
          u.y < w.y + w.height - E &&
          w.z < u.z + u.width - E &&
          u.z < w.z + w.width - E,
      );
      if (blocker)
        out.push(
          `${u.item_id}#${u.instance} (step ${u.step}) behind ${blocker.item_id}#${blocker.instance} (step ${blocker.step})`,
        );
    }
  }
  return out;
}

t.test(
  'plans under wall, routing and no_stack group routings verify, every unit reachable from the door',
  async (t) => {
    fc.assert(
      fc.property(routedArb, (model) => {
        const blocked = unreachable(checkedPlan(model, 0, 300));
        if (blocked.length > 0) throw new Error(`unreachable in step order: ${blocked.slice(0, 3).join('; ')}`);
      }),
      propertyRuns(70, 17),
    );
    t.pass('random routed models');
  },
);

// Hazardous items on random models: kept on the floor and 50 cm from other hazardous items.
const hazardArb = fc
  .record({ base: modelArb, flags: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }) })
  .map(({ base, flags }): PackModel => ({
    ...base,
    items: base.items.map((it, i) => ({ ...it, hazardous: flags[i]! })),
  }));

t.test('plans with hazardous items keep them low and apart, and verify', async (t) => {
  let apart = 0;
  fc.assert(
    fc.property(hazardArb, (model) => {
      const plan = checkedPlan(model, 0, 300);
      for (const v of plan.vehicles) {
        const kinds = new Set(
          v.placements.filter((q) => model.items.find((it) => it.id === q.item_id)!.hazardous).map((q) => q.item_id),
        );
        if (kinds.size > 1) apart++;
      }
    }),
    propertyRuns(50, 19),
  );
  t.ok(apart > 0, `${apart} vehicles carry two or more hazardous items apart`);
});

// Second decks on random vehicles: nothing through the deck, the deck's weight limit kept.
const deckArb = fc
  .record({
    base: modelArb,
    decks: fc.array(fc.record({ at: fc.constantFrom(0.3, 0.5, 0.7), kg: fc.integer({ min: 1, max: 2000 }) }), {
      minLength: 3,
      maxLength: 3,
    }),
  })
  .map(({ base, decks }): PackModel => ({
    ...base,
    vehicles: base.vehicles.map((v, i) => ({
      ...v,
      auxDeck: { height: Math.round(v.height * decks[i]!.at), maxWeight: decks[i]!.kg },
    })),
  }));

t.test('plans with second decks verify', async (t) => {
  let onDeck = 0;
  fc.assert(
    fc.property(deckArb, (model) => {
      const plan = checkedPlan(model, 0, 300);
      for (const v of plan.vehicles) {
        const deck = model.vehicles.find((d) => d.id === v.vehicle_id)!.auxDeck!;
        if (v.placements.some((q) => Math.abs(q.y - deck.height) < 1e-9)) onDeck++;
      }
    }),
    propertyRuns(50, 23),
  );
  t.ok(onDeck > 0, `${onDeck} vehicles carry units on their deck`);
});

// Nesting items on random models: telescoped columns must verify (overlap, support, figures).
const nestArb = fc
  .record({ base: modelArb, share: fc.array(fc.constantFrom(0, 0, 0.3, 0.7, 0.95), { minLength: 6, maxLength: 6 }) })
  .map(({ base, share }): PackModel => ({
    ...base,
    items: base.items.map((it, i) => ({ ...it, nestingHeight: it.height * share[i]! })),
  }));

t.test('plans with nesting items verify', async (t) => {
  let nested = 0;
  fc.assert(
    fc.property(nestArb, (model) => {
      const plan = checkedPlan(model, 0, 300, true);
      for (const v of plan.vehicles) {
        for (const q of v.placements) {
          const it = model.items.find((i) => i.id === q.item_id)!;
          if (
            it.nestingHeight > 0 &&
            v.placements.some(
              (o) =>
                o !== q &&
                o.item_id === q.item_id &&
                o.x === q.x &&
                o.z === q.z &&
                Math.abs(o.y + o.height - it.nestingHeight - q.y) < 1e-6,
            )
          )
            nested++;
        }
      }
    }),
    propertyRuns(50, 29),
  );
  t.ok(nested > 0, `${nested} units sit nested in another`);
});

t.test('units that support nothing go on top of columns, not on the floor under free room', async (t) => {
  const box = (o: Partial<ItemModel>): ItemModel => ({
    id: 'b',
    label: 'b',
    shape: 'box',
    length: 50,
    width: 50,
    height: 40,
    weight: 1,
    quantity: 40,
    stackable: true,
    maxStackWeight: 0,
    nestingHeight: 0,
    orientations: ['lwh'],
    priority: 0,
    hazardous: false,
    group: null,
    groupOrder: Number.MAX_SAFE_INTEGER,
    color: null,
    ...o,
  });
  const model: PackModel = {
    vehicles: [
      {
        id: 'v',
        name: 'V',
        type: 'truck',
        length: 200,
        width: 100,
        height: 200,
        maxWeight: 1e6,
        quantity: 1,
        blockedAreas: [],
        floorLoadCapacity: 0,
        axles: null,
        auxDeck: null,
      },
    ],
    items: [
      box({ quantity: 32 }),
      box({ id: 'glass', length: 100, width: 100, height: 40, quantity: 2, stackable: false }),
    ],
    packingMode: 'fleet_only',
    maxVehicles: 1,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 300,
    seed: 1,
  };
  // 32 boxes (8 floor cells, 4 layers: 160 cm) and 2 glass plates on top fill 200 × 100 × 200.
  const r = search({ model, worker: 0, stride: 1, deadline: Date.now() + 2000, work: SEARCH_WORK });
  const plan = r.plans[0]!.plan;
  t.equal(plan.unplaced.length, 0);
  t.same(verifyPlan(model, plan), []);
  t.ok(
    plan.vehicles[0]!.placements.filter((p) => p.item_id === 'glass').every((p) => p.y > 0),
    'glass on top',
  );
});

t.test('a job where no unit fits any vehicle ends after its first construction, not at the budget', async (t) => {
  const model: PackModel = {
    vehicles: [
      {
        id: 'v',
        name: 'V',
        type: 'truck',
        length: 200,
        width: 100,
        height: 100,
        maxWeight: 1e6,
        quantity: 2,
        blockedAreas: [],
        floorLoadCapacity: 0,
        axles: null,
        auxDeck: null,
      },
    ],
    items: [
      {
        id: 'beam',
        label: 'beam',
        shape: 'box',
        length: 300,
        width: 20,
        height: 20,
        weight: 1,
        quantity: 5,
        stackable: true,
        maxStackWeight: 0,
        nestingHeight: 0,
        orientations: ['lwh'],
        priority: 0,
        hazardous: false,
        group: null,
        groupOrder: Number.MAX_SAFE_INTEGER,
        color: null,
      },
    ],
    packingMode: 'fleet_only',
    maxVehicles: 2,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 300,
    seed: 1,
  };
  const started = Date.now();
  const r = search({ model, worker: 0, stride: 1, deadline: Date.now() + 60_000, work: 1_000_000 });
  t.equal(r.candidates, 1, 'one construction: it proves that nothing fits');
  t.equal(r.budgetReached, false);
  t.equal(r.plans[0]!.atBound, true, 'nothing can be better');
  t.equal(r.plans[0]!.plan.unplaced.length, 5);
  t.ok(Date.now() - started < 30_000, 'long before the 60 s deadline');
});
