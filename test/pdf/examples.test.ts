/**
 * The example requests in examples/*.json: valid JSON, within the default job limits and the
 * spec's field tables (checked here by hand; the JSON Schema validator lives in api/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';

const DIR = join(import.meta.dirname, '../../examples');

const TOP = ['reference', 'vehicles', 'items', 'groups', 'options'];
const VEHICLE = [
  'id',
  'vehicle_id',
  'type',
  'name',
  'length',
  'width',
  'height',
  'max_weight',
  'quantity',
  'floor_load_capacity',
  'aux_deck',
  'aux_deck_height',
  'aux_deck_max_weight',
  'blocked_areas',
];
const ITEM = [
  'id',
  'template_id',
  'label',
  'shape',
  'length',
  'width',
  'height',
  'radius',
  'weight',
  'quantity',
  'stackable',
  'max_stack_weight',
  'rotation',
  'hazardous',
  'priority',
  'group',
  'color',
  'nesting_height',
];
const GROUP = ['name', 'order', 'color'];
const OPTIONS = [
  'packing_mode',
  'group_routing',
  'allow_overweight',
  'max_stack_items',
  'max_stack_density_kg_m2',
  'lock_rotations',
  'group_identical_bins',
  'time_limit',
  'enforce_axle',
];
const TYPES = ['truck', 'trailer', 'container', 'pallet'];
const SHAPES = ['box', 'cylinder', 'pallet', 'bag', 'drum'];
const HEX = /^#[0-9a-fA-F]{6}$/;

type Json = Record<string, unknown>;

function unknownKeys(o: Json, allowed: readonly string[]): string[] {
  return Object.keys(o).filter((k) => !allowed.includes(k));
}

/** Item bounding box (cm) and whether it may only turn about the vertical axis. */
function itemBox(i: Json): { l: number; w: number; h: number; rotation: string } {
  const round = i.shape === 'cylinder' || i.shape === 'drum';
  const r = Number(i.radius);
  const upright = i.shape === 'pallet' || i.shape === 'drum';
  const rotation = upright && i.rotation !== 'fixed' ? 'upright' : String(i.rotation ?? 'all');
  return { l: round ? 2 * r : Number(i.length), w: round ? 2 * r : Number(i.width), h: Number(i.height), rotation };
}

function fits(i: Json, v: Json): boolean {
  const { l, w, h, rotation } = itemBox(i);
  const [L, W, H] = [Number(v.length), Number(v.width), Number(v.height)];
  const orientations: Array<[number, number, number]> =
    rotation === 'fixed'
      ? [[l, w, h]]
      : rotation === 'upright'
        ? [
            [l, w, h],
            [w, l, h],
          ]
        : [
            [l, w, h],
            [w, l, h],
            [l, h, w],
            [h, w, l],
            [w, h, l],
            [h, l, w],
          ];
  return orientations.some(([a, b, c]) => a <= L && b <= W && c <= H) && Number(i.weight) <= Number(v.max_weight);
}

const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

t.test('at least the four named examples exist', async (t) => {
  for (const name of [
    'eur-pallets-13-6m-trailer.json',
    'cartons-40hc-overflow.json',
    'weight-bound-mixed-fleet.json',
    'multi-stop-box-truck.json',
  ]) {
    t.ok(files.includes(name), name);
  }
  const readme = readFileSync(join(DIR, 'README.md'), 'utf8');
  for (const f of files) t.match(readme, f, `README lists ${f}`);
});

for (const file of files) {
  t.test(file, async (t) => {
    const body = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Json;
    t.same(unknownKeys(body, TOP), [], 'top-level fields');
    const vehicles = body.vehicles as Json[];
    const items = body.items as Json[];
    const groups = (body.groups ?? []) as Json[];
    const options = (body.options ?? {}) as Json;
    t.ok(vehicles.length >= 1 && items.length >= 1);
    t.same(unknownKeys(options, OPTIONS), [], 'options fields');
    t.ok(typeof body.reference !== 'string' || body.reference.length <= 128);

    const vehicleCount = vehicles.reduce((s, v) => s + Number(v.quantity ?? 1), 0);
    t.ok(vehicleCount <= 20, `${vehicleCount} vehicles ≤ 20`);
    for (const v of vehicles) {
      t.same(unknownKeys(v, VEHICLE), [], `vehicle ${String(v.id)}: no unknown or axle fields`);
      t.ok(TYPES.includes(String(v.type)), `vehicle type ${String(v.type)}`);
      for (const k of ['length', 'width', 'height', 'max_weight']) t.ok(Number(v[k]) > 0, `vehicle ${k}`);
    }

    const units = items.reduce((s, i) => s + Number(i.quantity ?? 1), 0);
    t.ok(units <= 2000, `${units} units ≤ 2000`);
    const ids = items.map((i) => i.id);
    t.equal(new Set(ids).size, ids.length, 'item ids unique');
    const groupNames = groups.map((g) => g.name);
    for (const g of groups) {
      t.same(unknownKeys(g, GROUP), [], 'group fields');
      t.ok(g.color === undefined || HEX.test(String(g.color)));
    }
    for (const i of items) {
      const name = `item ${String(i.id)}`;
      t.same(unknownKeys(i, ITEM), [], `${name}: fields`);
      t.ok(typeof i.label === 'string' && i.label.length > 0 && i.label.length <= 255, `${name}: label`);
      t.ok(HEX.test(String(i.color)), `${name}: color`);
      t.ok(SHAPES.includes(String(i.shape ?? 'box')), `${name}: shape`);
      const q = Number(i.quantity ?? 1);
      t.ok(Number.isInteger(q) && q >= 1 && q <= 10000, `${name}: quantity`);
      if (i.shape === 'cylinder' || i.shape === 'drum') {
        t.ok(
          Number(i.radius) > 0 && i.length === undefined && i.width === undefined,
          `${name}: radius, no length/width`,
        );
      } else {
        t.ok(Number(i.length) > 0 && Number(i.width) > 0, `${name}: length, width`);
      }
      t.ok(Number(i.height) > 0 && Number(i.weight) > 0, `${name}: height, weight`);
      if (i.group !== undefined && groups.length > 0) t.ok(groupNames.includes(i.group), `${name}: group listed`);
      t.ok(
        vehicles.some((v) => fits(i, v)),
        `${name}: fits a listed vehicle`,
      );
    }
  });
}
