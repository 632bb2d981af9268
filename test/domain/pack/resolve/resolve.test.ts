import t from 'tap';
import { resolvePackRequest, type ResolveOutcome } from '../../../../domain/pack/resolve/resolve.js';
import type { PackRequest } from '../../../../domain/pack/request.js';
import { VEHICLE_PRESETS, findPreset } from '../../../../domain/vehicle/presets.js';
import { testContext } from './resolve-context.js';

type Ok = Extract<ResolveOutcome, { ok: true }>;
function ok(req: PackRequest, over: Parameters<typeof testContext>[0] = {}): Ok {
  const o = resolvePackRequest(req, testContext(over));
  if (!o.ok) throw new Error(JSON.stringify(o.details));
  return o;
}

const trailer = { id: 't', type: 'trailer' as const, length: 1360, width: 248, height: 270, max_weight: 24000 };
const crate = { id: 'c', length: 120, width: 80, height: 100, weight: 300 };

t.test('vehicle_id takes the saved vehicle; fields beside it override', async (t) => {
  const o = ok({
    vehicles: [
      { vehicle_id: 'container-20-dry', max_weight: 20000, name: 'Our 20 ft', quantity: 2 },
      { vehicle_id: 'van-3-5t', id: 'van' },
    ],
    items: [crate],
  });
  t.same(o.model.vehicles[0], {
    id: 'container-20-dry',
    name: 'Our 20 ft',
    type: 'container',
    length: 589,
    width: 235,
    height: 239,
    maxWeight: 20000,
    quantity: 2,
    blockedAreas: [],
    floorLoadCapacity: 0,
    axles: null,
    auxDeck: null,
  });
  t.equal(o.model.vehicles[1]?.id, 'van');
  t.equal(o.model.vehicles[1]?.name, 'Van 3.5 t', 'name defaults to the saved name');
  t.equal(o.model.vehicles[1]?.maxWeight, 1100);
});

t.test('template_id supplies the item; fields beside it override', async (t) => {
  const o = ok({
    vehicles: [trailer],
    items: [
      { template_id: 'tpl_crate', weight: 275, quantity: 4 },
      { template_id: 'tpl_drum', id: 'drums', rotation: 'all' },
    ],
  });
  const [a, b] = o.model.items;
  t.match(a, {
    id: 'tpl_crate',
    label: 'Crate',
    length: 120,
    width: 80,
    height: 100,
    weight: 275,
    quantity: 4,
    orientations: ['lwh', 'wlh'],
    color: '#112233',
  });
  t.match(b, {
    id: 'drums',
    label: 'Drum 200 l',
    shape: 'drum',
    length: 60,
    width: 60,
    height: 90,
    weight: 220,
    orientations: ['lwh'],
  });
});

t.test('defaults', async (t) => {
  const o = ok({
    vehicles: [{ type: 'truck', length: 620, width: 245, height: 240, max_weight: 2800 }],
    items: [{ length: 10, width: 20, height: 30, weight: 1 }],
  });
  t.same(o.model.vehicles[0], {
    id: 'vehicle-1',
    name: 'vehicle-1',
    type: 'truck',
    length: 620,
    width: 245,
    height: 240,
    maxWeight: 2800,
    quantity: 1,
    blockedAreas: [],
    floorLoadCapacity: 0,
    axles: null,
    auxDeck: null,
  });
  t.same(o.model.items[0], {
    id: 'item-1',
    label: 'item-1',
    shape: 'box',
    length: 10,
    width: 20,
    height: 30,
    weight: 1,
    quantity: 1,
    stackable: true,
    maxStackWeight: 0,
    nestingHeight: 0,
    orientations: ['lwh', 'wlh', 'lhw', 'hwl', 'whl', 'hlw'],
    priority: 0,
    hazardous: false,
    group: null,
    groupOrder: Number.MAX_SAFE_INTEGER,
    color: null,
  });
  t.match(o.model, {
    packingMode: 'auto',
    maxVehicles: 20,
    allowOverweight: false,
    maxStackItems: 0,
    budgetMs: 2015,
    seed: 7,
  });
  t.same(o.warnings, []);
});

t.test('generated ids avoid ids sent by the caller', async (t) => {
  const o = ok({
    vehicles: [trailer],
    items: [
      { ...crate, id: 'item-2' },
      { ...crate, id: undefined },
      { ...crate, id: undefined },
    ],
  });
  t.same(
    o.model.items.map((i) => i.id),
    ['item-2', 'item-2-2', 'item-3'],
  );
});

t.test('group order: listed order or position, unlisted after, none last', async (t) => {
  const items = ['A', 'C', 'B', undefined, 'D', 'C'].map((group, i) => ({ ...crate, id: `i${i}`, group }));
  const o = ok({
    vehicles: [trailer],
    items,
    groups: [
      { name: 'B', color: '#ff0000' },
      { name: 'A', order: 5 },
    ],
  });
  t.same(
    o.model.items.map((i) => [i.group, i.groupOrder]),
    [
      ['A', 5],
      ['C', 6],
      ['B', 1],
      [null, Number.MAX_SAFE_INTEGER],
      ['D', 7],
      ['C', 6],
    ],
  );
  t.equal(o.model.items[2]?.color, '#ff0000', 'colour falls back to the group colour');
});

t.test('lock_rotations keeps one orientation per item', async (t) => {
  const o = ok({
    vehicles: [{ ...trailer, height: 200 }],
    items: [
      { ...crate, id: 'flat' },
      { id: 'tall', length: 100, width: 100, height: 250, weight: 5 },
      { id: 'cube', length: 50, width: 50, height: 50, weight: 5 },
    ],
    options: { lock_rotations: true },
  });
  // tall: lhw would stand 100 cm high but is 250 cm wide (> 248); hwl lies it along x.
  t.same(
    o.model.items.map((i) => i.orientations),
    [['lwh'], ['hwl'], ['lwh']],
  );
});

t.test('packing mode, vehicle limit, budget and fewest vehicles', async (t) => {
  const fleet = ok({
    vehicles: [{ ...trailer, quantity: 3 }],
    items: [{ ...crate, quantity: 200 }],
    options: { packing_mode: 'fleet_only', time_limit: 12.5 },
  });
  t.match(fleet.model, { packingMode: 'fleet_only', maxVehicles: 3, budgetMs: 12_500 });
  t.equal(fleet.items, 200);
  // 200 crates of 0.96 m³ = 192 m³ in a 91.07 m³ trailer → 3 by volume; 60 t / 24 t → 3 by weight.
  t.equal(fleet.minVehicles, 3);
  const heavy = ok({ vehicles: [trailer], items: [{ ...crate, weight: 1000, quantity: 100 }] });
  t.equal(heavy.minVehicles, 5, '100 t over 24 t payloads');
  t.equal(heavy.model.budgetMs, 3500);
  const over = ok({
    vehicles: [trailer],
    items: [{ ...crate, weight: 1000, quantity: 100 }],
    options: { allow_overweight: true, time_limit: 500 },
  });
  t.equal(over.minVehicles, 2, 'by volume only');
  t.equal(over.model.budgetMs, 90_000);
  t.same(
    over.warnings.map((w) => w.code),
    ['time_limit_capped'],
  );
});

t.test('deterministic mode: options seed and work_limit reach the model (our extension)', async (t) => {
  const plain = ok({ vehicles: [trailer], items: [crate] });
  t.equal(plain.model.seed, 7, 'the context seed without options.seed');
  t.equal(plain.model.workLimit, undefined);
  const fixed = ok({ vehicles: [trailer], items: [crate], options: { seed: 42, work_limit: 50_000 } });
  t.equal(fixed.model.seed, 42);
  t.equal(fixed.model.workLimit, 50_000);
});

t.test('warnings for accepted but not enforced features', async (t) => {
  const req: PackRequest = {
    vehicles: [
      {
        ...trailer,
        floor_load_capacity: 2000,
        aux_deck: true,
        aux_deck_height: 120,
        aux_deck_max_weight: 5000,
        axle_positions: [100],
        axle_max_loads: [9000],
        blocked_areas: [{ x: 0, z: 0, length: 50, width: 50 }],
      },
    ],
    items: [{ ...crate, hazardous: true, max_stack_weight: 500, nesting_height: 10 }],
    options: {
      group_routing: 'wall',
      max_stack_density_kg_m2: 800,
      group_identical_bins: true,
      enforce_axle: true,
      max_stack_items: 3,
    },
  };
  const without = ok(req);
  t.same(
    without.warnings.map((w) => `${w.code} ${w.path}`),
    [
      'axle_access_missing vehicles[0]',
      'constraint_not_enforced options.group_identical_bins',
      'axle_access_missing options.enforce_axle',
    ],
  );
  t.equal(without.model.maxStackItems, 3);
  t.same(
    [
      without.model.vehicles[0]?.floorLoadCapacity,
      without.model.items[0]?.maxStackWeight,
      without.model.maxStackDensity,
    ],
    [2000, 500, 800],
    'the load limits are enforced, so they are in the model and get no warning',
  );
  t.equal(without.model.groupRouting, 'wall', 'so is the group routing');
  t.equal(without.model.items[0]?.hazardous, true, 'and hazardous items');
  t.same(without.model.vehicles[0]?.auxDeck, { height: 120, maxWeight: 5000 }, 'and the second deck');
  t.equal(without.model.items[0]?.nestingHeight, 10, 'and nesting');
  t.same(without.model.vehicles[0]?.blockedAreas, [{ x: 0, z: 0, length: 50, width: 50 }]);
  const withAccess = ok(req, { axleAccess: true });
  t.same(
    withAccess.warnings.filter((w) => w.path === 'vehicles[0]' || w.path === 'options.enforce_axle'),
    [],
    'with axle access the axle data is used',
  );
  t.same(withAccess.model.vehicles[0]?.axles, {
    kind: 'axles',
    positions: [100],
    maxLoads: [9000],
    cogRangeX: null,
    cogRangeY: null,
  });
  t.equal(withAccess.model.enforceAxle, true);
  t.equal(without.model.enforceAxle, false, 'without access enforce_axle is ignored');
  t.equal(without.model.vehicles[0]?.axles, null);
});

t.test('resolve alone reports an incomplete definition it cannot use', async (t) => {
  const o = resolvePackRequest(
    { vehicles: [trailer], items: [{ ...crate, length: 'long' as unknown as number }] },
    testContext(),
  );
  t.match(o, { ok: false, incomplete: true, details: [{ path: 'items[0]', code: 'invalid_value' }] });
});

t.test('presets', async (t) => {
  t.equal(VEHICLE_PRESETS.length, 11);
  t.equal(new Set(VEHICLE_PRESETS.map((v) => v.id)).size, 11, 'ids unique');
  for (const v of VEHICLE_PRESETS) {
    t.match(v.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${v.id} is a slug`);
    t.ok(v.name.length > 0 && v.length > 0 && v.width > 0 && v.height > 0 && v.max_weight > 0, `${v.id} complete`);
  }
  t.match(findPreset('semi-trailer-13-6'), {
    type: 'trailer',
    length: 1360,
    width: 248,
    height: 270,
    max_weight: 24000,
  });
  t.match(findPreset('container-40-hc'), {
    type: 'container',
    length: 1203,
    width: 235,
    height: 269,
    max_weight: 26500,
  });
  t.match(findPreset('pallet-us'), { type: 'pallet', length: 121.9, width: 101.6, height: 160 });
  t.equal(findPreset('veh_123'), undefined);
  t.ok(Object.isFrozen(VEHICLE_PRESETS) && Object.isFrozen(VEHICLE_PRESETS[0]));
});
