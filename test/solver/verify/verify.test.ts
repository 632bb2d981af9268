import t from 'tap';
import type { AxleLoad, AxleModel, PackModel, Placement, Plan } from '../../../domain/pack/plan.js';
import type { VerifyRule, Violation } from '../../../solver/verify/verify.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { refigure, smallModel, smallPlan } from './plan-fixture.js';

function unit(plan: Plan, vehicle: number, itemId: string, instance: number): Placement {
  const found = plan.vehicles[vehicle]!.placements.find((p) => p.item_id === itemId && p.instance === instance);
  if (!found) throw new Error(`fixture has no ${itemId}#${instance} in vehicle ${vehicle}`);
  return found;
}

/** Axles at 50 and 250 cm with maximum `max` kg on each (0 = none). */
function twoAxles(max: number): AxleModel {
  return { kind: 'axles', positions: [50, 250], maxLoads: [max, max], cogRangeX: null, cogRangeY: null };
}

/** Gives the truck two axles and both planned vehicles their axle loads, worked by hand. */
function withAxleLoads(plan: Plan, model: PackModel, max: number): void {
  model.vehicles[0]!.axles = twoAxles(max);
  // Vehicle 0: 50 kg at x 77; vehicle 1: 20 kg at x 30.
  const loads = (w: number, x: number): AxleLoad[] => [
    { name: 'Axle 1', position: 50, load: (w * (250 - x)) / 200, max, ok: max <= 0 || (w * (250 - x)) / 200 <= max },
    { name: 'Axle 2', position: 250, load: (w * (x - 50)) / 200, max, ok: max <= 0 || (w * (x - 50)) / 200 <= max },
  ];
  plan.vehicles[0]!.axle_loads = loads(50, 77);
  plan.vehicles[1]!.axle_loads = loads(20, 30);
}

function rulesOf(violations: readonly Violation[]): VerifyRule[] {
  return [...new Set(violations.map((v) => v.rule))].sort();
}

t.test('the small hand-made plan verifies clean', async (t) => {
  t.same(verifyPlan(smallModel(), smallPlan()), []);
});

t.test('the test-side figures agree with the hand-worked ones', async (t) => {
  const plan = smallPlan();
  const before = structuredClone(plan);
  for (const v of plan.vehicles) refigure(v);
  for (const [i, v] of plan.vehicles.entries()) {
    const want = before.vehicles[i]!;
    t.equal(v.total_weight, want.total_weight);
    t.ok(Math.abs(v.volume_utilization - want.volume_utilization) < 1e-12);
    t.same(v.center_of_gravity, want.center_of_gravity);
  }
});

interface Mutation {
  name: string;
  rule: VerifyRule;
  /** Changes the plan and/or model so that exactly `rule` breaks. */
  mutate: (plan: Plan, model: PackModel) => void;
  /** Keep the plan's figures as mutated (default: recompute them so `figures` stays clean). */
  keepFigures?: boolean;
  /** A field the first violation of `rule` must carry. */
  expect?: Partial<Violation>;
  /** Text the message must contain. */
  says?: RegExp;
}

const mutations: Mutation[] = [
  // vehicles
  {
    name: 'vehicle name differs from its definition',
    rule: 'vehicles',
    mutate: (p) => {
      p.vehicles[0]!.name = 'Van';
    },
    expect: { vehicle: 0 },
    says: /name "Van"; the definition says "Box truck"/,
  },
  {
    name: 'vehicle length differs from its definition',
    rule: 'vehicles',
    mutate: (p) => {
      p.vehicles[1]!.length = 310;
    },
    expect: { vehicle: 1 },
    keepFigures: true,
    says: /length 310; the definition says 300/,
  },
  {
    name: 'unknown vehicle_id',
    rule: 'vehicles',
    mutate: (p) => {
      p.vehicles[1]!.vehicle_id = 'ghost';
    },
    expect: { vehicle: 1 },
    says: /ghost/,
  },
  {
    name: 'index out of order',
    rule: 'vehicles',
    mutate: (p) => {
      p.vehicles[1]!.index = 5;
    },
    expect: { vehicle: 1 },
    says: /index 5/,
  },
  {
    name: 'copy used twice',
    rule: 'vehicles',
    mutate: (p) => {
      p.vehicles[1]!.copy = 1;
      p.vehicles[1]!.auto_added = false;
    },
    expect: { vehicle: 1 },
    says: /copy 1 of vehicle truck is used twice/,
  },
  {
    name: 'copy 0',
    rule: 'vehicles',
    mutate: (p) => {
      p.vehicles[0]!.copy = 0;
    },
    expect: { vehicle: 0 },
  },
  {
    name: 'auto_added false beyond the listed quantity',
    rule: 'vehicles',
    mutate: (p) => {
      p.vehicles[1]!.auto_added = false;
    },
    expect: { vehicle: 1 },
    says: /beyond the listed quantity 1/,
  },
  {
    name: 'auto-added copy in fleet_only mode',
    rule: 'vehicles',
    mutate: (_p, m) => {
      m.packingMode = 'fleet_only';
    },
    expect: { vehicle: 1 },
    says: /fleet_only/,
  },
  {
    name: 'more vehicles than maxVehicles',
    rule: 'vehicles',
    mutate: (_p, m) => {
      m.maxVehicles = 1;
    },
    says: /2 vehicles; the job allows at most 1/,
  },
  {
    name: 'empty vehicle listed',
    rule: 'vehicles',
    mutate: (p) => {
      const last = p.vehicles[1]!;
      p.vehicles.push({ ...structuredClone(last), index: 2, copy: 3, placements: [] });
    },
    expect: { vehicle: 2 },
    says: /carries no units/,
  },
  // bounds
  {
    name: 'unit past the vehicle length',
    rule: 'bounds',
    mutate: (p) => {
      unit(p, 0, 'B', 1).x = 250;
    },
    expect: { vehicle: 0, item_id: 'B', instance: 1 },
    says: /250 \+ 60 = 310 cm exceeds the vehicle length 300/,
  },
  {
    name: 'unit below the floor',
    rule: 'bounds',
    mutate: (p) => {
      unit(p, 1, 'B', 2).y = -1;
    },
    expect: { vehicle: 1, item_id: 'B', instance: 2 },
    says: /y = -1 cm is below 0/,
  },
  {
    name: 'unit past the vehicle width',
    rule: 'bounds',
    mutate: (p) => {
      unit(p, 1, 'B', 2).z = 141;
    },
    expect: { vehicle: 1 },
    says: /exceeds the vehicle width 200/,
  },
  {
    name: 'unit with a NaN coordinate',
    rule: 'bounds',
    mutate: (p) => {
      unit(p, 1, 'B', 2).x = Number.NaN;
    },
    keepFigures: true,
    expect: { vehicle: 1 },
  },
  // overlap
  {
    name: 'crate pushed into the cartons',
    rule: 'overlap',
    mutate: (p) => {
      unit(p, 0, 'B', 1).x = 90;
    },
    expect: { vehicle: 0 },
    says: /overlap by 10 × 50 × 40 cm/,
  },
  // orientation
  {
    name: 'orientation not allowed for the item',
    rule: 'orientation',
    mutate: (p) => {
      Object.assign(unit(p, 0, 'B', 1), { orientation: 'lhw', rotated: true });
    },
    expect: { item_id: 'B', instance: 1 },
    says: /lhw is not allowed for item B \(allowed: lwh, wlh\)/,
  },
  {
    name: 'sizes do not match the orientation',
    rule: 'orientation',
    mutate: (p) => {
      Object.assign(unit(p, 0, 'A', 1), { orientation: 'wlh', rotated: true });
    },
    expect: { item_id: 'A', instance: 1 },
    says: /gives 50 × 100 × 40 cm/,
  },
  {
    name: 'rotated flag wrong',
    rule: 'orientation',
    mutate: (p) => {
      unit(p, 0, 'A', 2).rotated = true;
    },
    expect: { item_id: 'A', instance: 2 },
    says: /rotated is true/,
  },
  {
    name: 'unknown orientation code',
    rule: 'orientation',
    mutate: (p) => {
      Object.assign(unit(p, 0, 'A', 2), { orientation: 'xyz', rotated: true });
    },
    expect: { item_id: 'A', instance: 2 },
  },
  // support
  {
    name: 'unit floating',
    rule: 'support',
    mutate: (p) => {
      unit(p, 0, 'A', 3).y = 81;
    },
    expect: { item_id: 'A', instance: 3 },
    says: /floats at y = 81 cm/,
  },
  {
    name: 'unit half supported',
    rule: 'support',
    mutate: (p) => {
      unit(p, 0, 'A', 2).z = 100;
    },
    expect: { item_id: 'A', instance: 3 },
    says: /2500 of 5000 cm² of its base \(50%, by 1 unit\)/,
  },
  // stacking
  {
    name: 'carton on a non-stackable item',
    rule: 'stacking',
    mutate: (_p, m) => {
      m.items[0]!.stackable = false;
    },
    expect: { vehicle: 0, item_id: 'A' },
    says: /A#3 rests on A#1/,
  },
  // stack_items
  {
    name: 'stack higher than max_stack_items',
    rule: 'stack_items',
    mutate: (_p, m) => {
      m.maxStackItems = 1;
    },
    expect: { vehicle: 0, item_id: 'A', instance: 3 },
    says: /unit 2 of its stack; max_stack_items is 1/,
  },
  // stack_weight, floor_load, stack_density: A#3 (10 kg) rests half on A#1, half on A#2
  {
    name: 'more weight on a unit than max_stack_weight',
    rule: 'stack_weight',
    mutate: (_p, m) => {
      m.items[0]!.maxStackWeight = 4;
    },
    expect: { vehicle: 0, item_id: 'A', instance: 1 },
    says: /A#1 in vehicle 0 carries 5 kg; item A allows 4 kg resting on one unit/,
  },
  {
    name: 'a crate pressing on the floor beyond floor_load_capacity',
    rule: 'floor_load',
    mutate: (_p, m) => {
      m.vehicles[0]!.floorLoadCapacity = 50;
    },
    expect: { vehicle: 0, item_id: 'B', instance: 1 },
    says: /55\.556 kg\/m² \(20 kg on 3600 cm²\); the floor_load_capacity is 50 kg\/m²/,
  },
  {
    name: 'a stack denser than max_stack_density_kg_m2',
    rule: 'stack_density',
    mutate: (_p, m) => {
      m.maxStackDensity = 40;
    },
    expect: { vehicle: 0, item_id: 'B', instance: 1 },
    says: /weighs 55\.556 kg\/m² .*max_stack_density_kg_m2 is 40/,
  },
  // axle_load, cog_range (truck axles at 50 and 250 cm; vehicle 0 cargo 50 kg with CoG x 77 cm:
  // 50 · (250 − 77) / 200 = 43.25 kg on axle 1, 6.75 kg on axle 2)
  {
    name: 'axle_loads missing on a vehicle with an axle model',
    rule: 'axle_load',
    mutate: (_p, m) => {
      m.vehicles[0]!.axles = twoAxles(0);
    },
    expect: { vehicle: 0 },
    says: /Vehicle 0 has axle data but no axle_loads/,
  },
  {
    name: 'an axle load that is not what the cargo puts on it',
    rule: 'axle_load',
    mutate: (p, m) => {
      withAxleLoads(p, m, 0);
      p.vehicles[0]!.axle_loads![0]!.load = 40;
    },
    expect: { vehicle: 0 },
    says: /Axle 1 load is 40 kg; its cargo puts 43.25 kg on it/,
  },
  {
    name: 'an axle over its maximum with enforce_axle',
    rule: 'axle_load',
    mutate: (p, m) => {
      withAxleLoads(p, m, 40);
      m.enforceAxle = true;
    },
    expect: { vehicle: 0 },
    says: /Axle 1 carries 43.25 kg, above its maximum 40 kg/,
  },
  {
    name: 'centre of gravity outside cog_range_x with enforce_axle',
    rule: 'cog_range',
    mutate: (_p, m) => {
      m.vehicles[0]!.axles = { kind: 'none', cogRangeX: 10, cogRangeY: null };
      m.enforceAxle = true;
    },
    expect: { vehicle: 0 },
    says: /73 cm from the middle of the length; cog_range_x allows 10 cm/,
  },
  // group_routing
  {
    name: 'a later group in front of an earlier one with wall routing',
    rule: 'group_routing',
    mutate: (_p, m) => {
      m.groupRouting = 'wall';
      Object.assign(m.items[0]!, { group: 'late', groupOrder: 2 });
      Object.assign(m.items[1]!, { group: 'early', groupOrder: 1 });
    },
    expect: { vehicle: 0 },
    says: /group "late" starts at x = 0 cm, inside the section of an earlier group \(group "early" reaches x = 160 cm\)/,
  },
  // hazardous: A#3 stands on A#1/A#2; A#1 and B#1 touch at x = 100
  {
    name: 'a hazardous unit above the floor',
    rule: 'hazardous',
    mutate: (_p, m) => {
      m.items[0]!.hazardous = true;
    },
    expect: { vehicle: 0, item_id: 'A', instance: 3 },
    says: /A#3 is hazardous and stands at y = 40 cm/,
  },
  {
    name: 'two hazardous items side by side',
    rule: 'hazardous',
    mutate: (p, m) => {
      m.items[1]!.hazardous = true;
      m.items[2]!.hazardous = true;
      m.items[2]!.quantity = 1;
      p.unplaced = [];
      p.vehicles[1]!.placements.push({
        item_id: 'C',
        instance: 1,
        label: 'C',
        x: 80,
        y: 0,
        z: 0,
        length: 10,
        width: 10,
        height: 10,
        rotated: false,
        orientation: 'lwh',
        step: 2,
        weight: 1,
      });
    },
    expect: { vehicle: 1, item_id: 'C', instance: 1 },
    says: /C#1 is 20 cm apart from B#2 of another hazardous item in vehicle 1; they must be 50 cm apart/,
  },
  // aux_deck
  {
    name: 'units through a second deck at 50 cm',
    rule: 'aux_deck',
    mutate: (_p, m) => {
      m.vehicles[0]!.auxDeck = { height: 50, maxWeight: 1000 };
    },
    expect: { vehicle: 0, item_id: 'B', instance: 1 },
    says: /B#1 in vehicle 0 spans y = 0–60 cm, through the second deck at 50 cm/,
  },
  // blocked_area
  {
    name: 'crate on the blocked corner',
    rule: 'blocked_area',
    mutate: (p) => {
      Object.assign(unit(p, 0, 'B', 1), { x: 240, z: 140 });
    },
    expect: { vehicle: 0, item_id: 'B', instance: 1 },
    says: /blocked area 0 .* over 50 × 50 cm/,
  },
  // weight
  {
    name: 'placement weight differs from the item',
    rule: 'weight',
    mutate: (p) => {
      unit(p, 0, 'A', 1).weight = 11;
    },
    expect: { item_id: 'A', instance: 1 },
    says: /weighs 11 kg; item A weighs 10 kg/,
  },
  {
    name: 'vehicle over its payload',
    rule: 'weight',
    mutate: (p, m) => {
      m.vehicles[0]!.maxWeight = 40;
      for (const v of p.vehicles) v.max_weight = 40;
    },
    expect: { vehicle: 0 },
    says: /carries 50 kg; its max_weight is 40 kg \(10 kg over\)/,
  },
  // instances
  {
    name: 'unit both placed and unplaced',
    rule: 'instances',
    mutate: (p) => {
      p.unplaced.push({ item_id: 'A', instance: 1, label: 'Carton A', reason: 'no_space' });
    },
    expect: { item_id: 'A', instance: 1 },
    says: /appears 2 times \(vehicle 0, unplaced\)/,
  },
  {
    name: 'unit missing',
    rule: 'instances',
    mutate: (p) => {
      p.unplaced = [];
    },
    expect: { item_id: 'C', instance: 1 },
    says: /1 of 1 units appear neither placed nor unplaced \(instances 1\)/,
  },
  {
    name: 'unknown item_id',
    rule: 'instances',
    mutate: (p) => {
      p.unplaced.push({ item_id: 'Z', instance: 1, label: 'Z', reason: 'no_space' });
    },
    expect: { item_id: 'Z' },
  },
  {
    name: 'instance beyond the quantity',
    rule: 'instances',
    mutate: (p) => {
      p.unplaced.push({ item_id: 'C', instance: 2, label: 'C', reason: 'no_space' });
    },
    expect: { item_id: 'C', instance: 2 },
    says: /outside 1\.\.1/,
  },
  {
    name: 'wrong label',
    rule: 'instances',
    mutate: (p) => {
      unit(p, 1, 'B', 2).label = 'Crate';
    },
    expect: { item_id: 'B', instance: 2 },
  },
  {
    name: 'unknown unplaced reason',
    rule: 'instances',
    mutate: (p) => {
      (p.unplaced[0] as { reason: string }).reason = 'too_big';
    },
    expect: { item_id: 'C' },
    says: /too_big/,
  },
  // steps
  {
    name: 'unit loaded before its support',
    rule: 'steps',
    mutate: (p) => {
      unit(p, 0, 'A', 1).step = 4;
      unit(p, 0, 'A', 3).step = 1;
    },
    expect: { item_id: 'A', instance: 3 },
    says: /A#3 \(step 1\) rests on A#1 \(step 4\)/,
  },
  {
    name: 'step used twice and one missing',
    rule: 'steps',
    mutate: (p) => {
      unit(p, 0, 'B', 1).step = 1;
    },
    expect: { vehicle: 0 },
    says: /Step 1 of vehicle 0 is given to 2 units/,
  },
  {
    name: 'step beyond the unit count',
    rule: 'steps',
    mutate: (p) => {
      unit(p, 1, 'B', 2).step = 2;
    },
    expect: { vehicle: 1 },
  },
  // figures
  {
    name: 'items_placed wrong',
    rule: 'figures',
    keepFigures: true,
    mutate: (p) => {
      p.vehicles[0]!.items_placed = 5;
    },
    expect: { vehicle: 0 },
    says: /items_placed is 5 but it holds 4/,
  },
  {
    name: 'total_weight wrong',
    rule: 'figures',
    keepFigures: true,
    mutate: (p) => {
      p.vehicles[0]!.total_weight = 50.1;
    },
    says: /total_weight is 50.1; the sum of its placement weights \(kg\) is 50/,
  },
  {
    name: 'volume_utilization rounded',
    rule: 'figures',
    keepFigures: true,
    mutate: (p) => {
      p.vehicles[0]!.volume_utilization = 0.07;
    },
  },
  {
    name: 'weight_utilization wrong',
    rule: 'figures',
    keepFigures: true,
    mutate: (p) => {
      p.vehicles[1]!.weight_utilization = 0.2;
    },
    expect: { vehicle: 1 },
  },
  {
    name: 'centre of gravity off by 0.01 cm',
    rule: 'figures',
    keepFigures: true,
    mutate: (p) => {
      p.vehicles[0]!.center_of_gravity.z = 42.01;
    },
    says: /\(77, 32, 42.01\) cm; the weighted centre of its units is \(77, 32, 42\) cm/,
  },
];

t.test('every rule: a plan that breaks only that rule is reported with only that rule', async (t) => {
  const covered = new Set(mutations.map((m) => m.rule));
  const all: VerifyRule[] = [
    'vehicles',
    'bounds',
    'overlap',
    'support',
    'orientation',
    'weight',
    'stacking',
    'stack_items',
    'stack_weight',
    'floor_load',
    'stack_density',
    'blocked_area',
    'instances',
    'steps',
    'figures',
    'axle_load',
    'cog_range',
    'group_routing',
    'hazardous',
    'aux_deck',
  ];
  t.same([...covered].sort(), [...all].sort(), 'the table covers every rule');
  for (const m of mutations) {
    t.test(`${m.rule}: ${m.name}`, async (t) => {
      const plan = smallPlan();
      const model = smallModel();
      m.mutate(plan, model);
      if (!m.keepFigures) for (const v of plan.vehicles) refigure(v);
      const violations = verifyPlan(model, plan);
      t.same(rulesOf(violations), [m.rule], violations.map((v) => v.message).join('\n'));
      const first = violations.find((v) => v.rule === m.rule);
      if (m.expect && first) t.match(first, m.expect);
      if (m.says && first) t.match(first.message, m.says);
    });
  }
});

t.test('the weight limit is ignored with allow_overweight; weight_utilization may exceed 1', async (t) => {
  const plan = smallPlan();
  const model = smallModel();
  model.allowOverweight = true;
  model.vehicles[0]!.maxWeight = 40;
  for (const v of plan.vehicles) {
    v.max_weight = 40;
    refigure(v);
  }
  t.equal(plan.vehicles[0]!.weight_utilization, 1.25);
  t.same(verifyPlan(model, plan), []);
});

t.test('touching faces and tiny float noise are not overlaps', async (t) => {
  const plan = smallPlan();
  unit(plan, 0, 'B', 1).x = 100 - 1e-9;
  for (const v of plan.vehicles) refigure(v);
  t.same(verifyPlan(smallModel(), plan), []);
});
