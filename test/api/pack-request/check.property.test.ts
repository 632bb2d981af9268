import t from 'tap';
import fc from 'fast-check';
import { checkPackRequest, type CheckOutcome } from '../../../api/http/pack-request/check.js';
import type { DetailCode } from '../../../domain/pack/diagnostics.js';
import { testContext, validBody } from '../../domain/pack/resolve/resolve-context.js';

const ctx = testContext({ axleAccess: true });
const CODES: readonly DetailCode[] = [
  'required',
  'invalid_value',
  'out_of_range',
  'duplicate_id',
  'unknown_vehicle',
  'unknown_template',
  'type_not_allowed',
  'unknown_group',
  'does_not_fit',
  'too_many_items',
  'too_many_vehicles',
  'unknown_field',
  'invalid_json',
];

/** The outcome is well formed: ok with a usable model, or an error answer with at least one known detail. */
function wellFormed(o: CheckOutcome): boolean {
  if (o.ok) {
    return (
      o.model.vehicles.length > 0 &&
      o.model.items.every(
        (i) => i.orientations.length > 0 && i.length > 0 && i.width > 0 && i.height > 0 && i.weight > 0,
      ) &&
      o.minVehicles >= 1 &&
      o.minVehicles <= o.model.maxVehicles &&
      o.model.budgetMs >= 1 &&
      o.model.budgetMs <= ctx.maxTimeLimitSeconds * 1000
    );
  }
  return (
    (o.status === 400) === (o.code === 'invalid_json') &&
    o.details.length > 0 &&
    o.details.every(
      (d) =>
        typeof d.path === 'string' && CODES.includes(d.code) && typeof d.message === 'string' && d.message.length > 0,
    ) &&
    (o.status === 400) === o.details.some((d) => d.code === 'invalid_json')
  );
}

const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withSparseArray: true,
  withTypedArray: true,
  maxDepth: 4,
});

t.test('never throws on arbitrary values', async (t) => {
  fc.assert(
    fc.property(anything, (v) => wellFormed(checkPackRequest(v, ctx))),
    { numRuns: 400 },
  );
  t.pass('400 arbitrary values');
});

t.test('never throws on arbitrary JSON', async (t) => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => wellFormed(checkPackRequest(v, ctx))),
    { numRuns: 400 },
  );
  t.pass('400 JSON values');
});

t.test('never throws when the lists and options hold anything', async (t) => {
  const body = fc.record(
    {
      vehicles: fc.array(anything, { maxLength: 3 }),
      items: fc.array(anything, { maxLength: 3 }),
      groups: anything,
      options: anything,
      reference: anything,
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(body, (b) => wellFormed(checkPackRequest(b, ctx))),
    { numRuns: 400 },
  );
  t.pass('400 bodies');
});

// Valid requests: a few vehicles 300 cm or more in every direction, items of at most 200 cm.
const rect = fc.record({
  x: fc.integer({ min: 0, max: 100 }),
  z: fc.integer({ min: 0, max: 100 }),
  length: fc.integer({ min: 1, max: 100 }),
  width: fc.integer({ min: 1, max: 100 }),
});
const vehicle = fc.oneof(
  fc.record(
    {
      vehicle_id: fc.constantFrom('semi-trailer-13-6', 'container-40-hc', 'mega-trailer-13-6'),
      quantity: fc.integer({ min: 1, max: 3 }),
    },
    { requiredKeys: ['vehicle_id'] },
  ),
  fc.record(
    {
      type: fc.constantFrom('truck', 'trailer', 'container'),
      length: fc.integer({ min: 300, max: 1400 }),
      width: fc.integer({ min: 300, max: 300 }),
      height: fc.integer({ min: 300, max: 320 }),
      max_weight: fc.integer({ min: 1000, max: 30000 }),
      quantity: fc.integer({ min: 1, max: 3 }),
      blocked_areas: fc.array(rect, { maxLength: 2 }),
      axle_positions: fc.constant([100, 200]),
      axle_max_loads: fc.constant([9000, 9000]),
    },
    { requiredKeys: ['type', 'length', 'width', 'height', 'max_weight'] },
  ),
);
const item = fc.oneof(
  fc.record(
    {
      shape: fc.constantFrom('box', 'pallet', 'bag'),
      length: fc.double({ min: 1, max: 200, noNaN: true }),
      width: fc.double({ min: 1, max: 200, noNaN: true }),
      height: fc.double({ min: 1, max: 200, noNaN: true }),
      weight: fc.double({ min: 0.1, max: 900, noNaN: true }),
      quantity: fc.integer({ min: 1, max: 50 }),
      rotation: fc.constantFrom('all', 'upright', 'fixed'),
      priority: fc.integer({ min: 0, max: 5 }),
      group: fc.constantFrom('A', 'B'),
      hazardous: fc.boolean(),
      color: fc.constantFrom('#aabbcc', '#000000'),
    },
    { requiredKeys: ['length', 'width', 'height', 'weight'] },
  ),
  fc.record({
    shape: fc.constantFrom('cylinder', 'drum'),
    radius: fc.integer({ min: 1, max: 100 }),
    height: fc.integer({ min: 1, max: 200 }),
    weight: fc.integer({ min: 1, max: 900 }),
  }),
  fc.record(
    { template_id: fc.constantFrom('tpl_crate', 'tpl_drum'), quantity: fc.integer({ min: 1, max: 20 }) },
    { requiredKeys: ['template_id'] },
  ),
);
const options = fc.record(
  {
    packing_mode: fc.constantFrom('auto', 'fleet_only'),
    lock_rotations: fc.boolean(),
    time_limit: fc.integer({ min: 0, max: 200 }),
    max_stack_items: fc.integer({ min: 0, max: 5 }),
    allow_overweight: fc.boolean(),
  },
  { requiredKeys: [] },
);
const validRequest = fc
  .record({
    vehicles: fc.array(vehicle, { minLength: 1, maxLength: 3 }),
    items: fc.array(item, { minLength: 1, maxLength: 5 }),
    options,
  })
  .map((b) => ({
    vehicles: b.vehicles.map((v, i) => ({ ...v, id: `v${i}` })),
    items: b.items.map((it, i) => ({ ...it, id: `i${i}` })),
    options: b.options,
  }));

t.test('generated valid requests are accepted', async (t) => {
  fc.assert(
    fc.property(validRequest, (b) => {
      const o = checkPackRequest(b, ctx);
      if (!o.ok) throw new Error(JSON.stringify(o.details));
      return (
        wellFormed(o) &&
        o.model.items.length === b.items.length &&
        o.items === o.model.items.reduce((n, i) => n + i.quantity, 0)
      );
    }),
    { numRuns: 300 },
  );
  t.pass('300 valid requests');
});

type Json = unknown;
/** Every path (list of keys) into a JSON value. */
function paths(v: Json, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...at, i])));
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}
function mutate(v: Json, at: readonly (string | number)[], how: 'set' | 'delete' | 'key', value: Json): Json {
  const copy = structuredClone(v) as Record<string | number, unknown>;
  if (at.length === 0) return how === 'set' ? value : copy;
  let parent = copy;
  for (const k of at.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = at[at.length - 1]!;
  if (how === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (how === 'key' && typeof parent === 'object' && !Array.isArray(parent)) {
    parent[`${String(last)}_x`] = value;
  } else {
    parent[last] = value;
  }
  return copy;
}

t.test('mutated valid requests give a well-formed answer', async (t) => {
  const mutated = fc
    .tuple(
      validRequest,
      fc.nat(),
      fc.constantFrom('set', 'delete', 'key'),
      fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(-1, 0, 1e308, '', 'x', null, [], {})),
    )
    .map(([b, n, how, value]) => {
      const all = paths(b);
      return mutate(b, all[n % all.length]!, how, value);
    });
  fc.assert(
    fc.property(mutated, (b) => wellFormed(checkPackRequest(b, ctx))),
    { numRuns: 500 },
  );
  t.pass('500 mutated requests');
});

t.test('the valid base body still answers ok after a no-op round trip', async (t) => {
  t.equal(checkPackRequest(JSON.parse(JSON.stringify(validBody())), ctx).ok, true);
});
