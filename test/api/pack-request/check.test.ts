import t from 'tap';
import { checkPackRequest, type CheckOutcome } from '../../../api/http/pack-request/check.js';
import type { ErrorDetail } from '../../../domain/pack/diagnostics.js';
import { testContext, validBody } from '../../domain/pack/resolve/resolve-context.js';

type Body = Record<string, any>;

/** validBody() changed by `edit`. */
function body(edit: (b: Body) => void): Body {
  const b = validBody() as Body;
  edit(b);
  return b;
}

function failure(o: CheckOutcome): Extract<CheckOutcome, { ok: false }> {
  if (o.ok) throw new Error('expected a failure, got ok');
  return o;
}

const truck = { type: 'truck', length: 620, width: 245, height: 240, max_weight: 2800 };

interface Case {
  name: string;
  body: unknown;
  status: 400 | 422;
  path: string;
  code: ErrorDetail['code'];
  message?: RegExp;
  ctx?: Parameters<typeof testContext>[0];
}

const cases: Case[] = [
  {
    name: 'body is an array',
    body: [1, 2],
    status: 400,
    path: '',
    code: 'invalid_json',
    message: /JSON object, got an array/,
  },
  { name: 'body is null', body: null, status: 400, path: '', code: 'invalid_json' },
  { name: 'body is a string', body: 'hello', status: 400, path: '', code: 'invalid_json' },
  {
    name: 'string where a number is due',
    body: body((b) => (b.items[0].weight = '300')),
    status: 400,
    path: 'items[0].weight',
    code: 'invalid_json',
    message: /must be a number, got a string \("300"\)/,
  },
  {
    name: 'null where an object is due',
    body: body((b) => (b.options = null)),
    status: 400,
    path: 'options',
    code: 'invalid_json',
  },
  {
    name: 'object where an array is due',
    body: body((b) => (b.vehicles = {})),
    status: 400,
    path: 'vehicles',
    code: 'invalid_json',
    message: /must be an array, got an object/,
  },
  { name: 'vehicles missing', body: body((b) => delete b.vehicles), status: 422, path: 'vehicles', code: 'required' },
  {
    name: 'vehicle height missing without vehicle_id',
    body: body((b) => delete b.vehicles[0].height),
    status: 422,
    path: 'vehicles[0].height',
    code: 'required',
    message: /unless vehicle_id/,
  },
  {
    name: 'vehicle type missing without vehicle_id',
    body: body((b) => delete b.vehicles[0].type),
    status: 422,
    path: 'vehicles[0].type',
    code: 'required',
  },
  {
    name: 'item weight missing',
    body: body((b) => delete b.items[0].weight),
    status: 422,
    path: 'items[0].weight',
    code: 'required',
  },
  {
    name: 'box length missing',
    body: body((b) => delete b.items[0].length),
    status: 422,
    path: 'items[0].length',
    code: 'required',
    message: /unless shape is cylinder or drum/,
  },
  {
    name: 'cylinder radius missing',
    body: body((b) => (b.items[0].shape = 'cylinder')),
    status: 422,
    path: 'items[0].radius',
    code: 'required',
    message: /when shape is cylinder/,
  },
  {
    name: 'aux deck height missing',
    body: body((b) => Object.assign(b.vehicles[0], { aux_deck: true, aux_deck_max_weight: 5000 })),
    status: 422,
    path: 'vehicles[0].aux_deck_height',
    code: 'required',
  },
  {
    name: 'template lacks weight',
    body: body((b) => (b.items[0] = { template_id: 'tpl_no_weight' })),
    status: 422,
    path: 'items[0].weight',
    code: 'required',
    message: /template tpl_no_weight does not supply it/,
  },
  {
    name: 'group without name',
    body: body((b) => (b.groups = [{ order: 1 }])),
    status: 422,
    path: 'groups[0].name',
    code: 'required',
  },
  {
    name: 'unknown shape',
    body: body((b) => (b.items[0].shape = 'sphere')),
    status: 422,
    path: 'items[0].shape',
    code: 'invalid_value',
    message: /must be one of "box", "cylinder", "pallet", "bag", "drum"; got "sphere"/,
  },
  {
    name: 'colour not #rrggbb',
    body: body((b) => (b.items[0].color = 'red')),
    status: 422,
    path: 'items[0].color',
    code: 'invalid_value',
    message: /#rrggbb/,
  },
  {
    name: 'fractional quantity',
    body: body((b) => (b.items[0].quantity = 1.5)),
    status: 422,
    path: 'items[0].quantity',
    code: 'invalid_value',
    message: /whole number, got 1.5/,
  },
  {
    name: 'unknown packing mode',
    body: body((b) => (b.options = { packing_mode: 'greedy' })),
    status: 422,
    path: 'options.packing_mode',
    code: 'invalid_value',
  },
  {
    name: 'axle arrays of different length',
    body: body((b) => Object.assign(b.vehicles[0], { axle_positions: [100, 900], axle_max_loads: [8000] })),
    status: 422,
    path: 'vehicles[0].axle_max_loads',
    code: 'invalid_value',
    message: /as many entries as axle_positions \(2\), got 1/,
  },
  {
    name: 'item quantity above 10000',
    body: body((b) => (b.items[0].quantity = 20000)),
    status: 422,
    path: 'items[0].quantity',
    code: 'out_of_range',
    message: /^must be at most 10000, got 20000$/,
  },
  {
    name: 'vehicle quantity 0',
    body: body((b) => (b.vehicles[0].quantity = 0)),
    status: 422,
    path: 'vehicles[0].quantity',
    code: 'out_of_range',
    message: /at least 1, got 0/,
  },
  {
    name: 'negative length',
    body: body((b) => (b.items[0].length = -5)),
    status: 422,
    path: 'items[0].length',
    code: 'out_of_range',
    message: /^must be at least 0\.1 cm, got -5$/,
  },
  {
    name: 'item length below 0.1 cm',
    body: body((b) => (b.items[0].length = 0.09)),
    status: 422,
    path: 'items[0].length',
    code: 'out_of_range',
    message: /^must be at least 0\.1 cm, got 0\.09$/,
  },
  {
    name: 'vehicle size of 1e-300 cm',
    body: body((b) => (b.vehicles[0].height = 1e-300)),
    status: 422,
    path: 'vehicles[0].height',
    code: 'out_of_range',
    message: /^must be at least 0\.1 cm, got 1e-300$/,
  },
  {
    name: 'cylinder radius below 0.1 cm',
    body: body((b) => (b.items[0] = { id: 'drum', shape: 'cylinder', radius: 0.01, height: 50, weight: 10 })),
    status: 422,
    path: 'items[0].radius',
    code: 'out_of_range',
    message: /at least 0\.1 cm/,
  },
  {
    name: 'blocked area below 0.1 cm',
    body: body((b) => (b.vehicles[0].blocked_areas = [{ x: 0, z: 0, length: 0.05, width: 10 }])),
    status: 422,
    path: 'vehicles[0].blocked_areas[0].length',
    code: 'out_of_range',
    message: /at least 0\.1 cm/,
  },
  {
    name: 'aux deck height below 0.1 cm',
    body: body((b) =>
      Object.assign(b.vehicles[0], { aux_deck: true, aux_deck_height: 0.001, aux_deck_max_weight: 5000 }),
    ),
    status: 422,
    path: 'vehicles[0].aux_deck_height',
    code: 'out_of_range',
    message: /at least 0\.1 cm/,
  },
  {
    name: 'negative priority',
    body: body((b) => (b.items[0].priority = -1)),
    status: 422,
    path: 'items[0].priority',
    code: 'out_of_range',
  },
  {
    name: 'reference over 128 characters',
    body: body((b) => (b.reference = 'r'.repeat(129))),
    status: 422,
    path: 'reference',
    code: 'out_of_range',
    message: /at most 128 characters long, got 129/,
  },
  {
    name: 'label over 255 characters',
    body: body((b) => (b.items[0].label = 'l'.repeat(256))),
    status: 422,
    path: 'items[0].label',
    code: 'out_of_range',
  },
  {
    name: 'id over 128 characters',
    body: body((b) => (b.items[0].id = 'i'.repeat(129))),
    status: 422,
    path: 'items[0].id',
    code: 'out_of_range',
  },
  {
    name: 'group name over 128 characters',
    body: body((b) => (b.groups = [{ name: 'g'.repeat(129) }])),
    status: 422,
    path: 'groups[0].name',
    code: 'out_of_range',
  },
  {
    name: 'no items',
    body: body((b) => (b.items = [])),
    status: 422,
    path: 'items',
    code: 'out_of_range',
    message: /at least 1 entry, got 0/,
  },
  {
    name: '33 blocked areas',
    body: body(
      (b) => (b.vehicles[0].blocked_areas = Array.from({ length: 33 }, () => ({ x: 0, z: 0, length: 10, width: 10 }))),
    ),
    status: 422,
    path: 'vehicles[0].blocked_areas',
    code: 'out_of_range',
    message: /at most 32 entries, got 33/,
  },
  {
    name: '11 axles',
    body: body((b) =>
      Object.assign(b.vehicles[0], { axle_positions: Array(11).fill(100), axle_max_loads: Array(11).fill(1000) }),
    ),
    status: 422,
    path: 'vehicles[0].axle_positions',
    code: 'out_of_range',
  },
  {
    name: 'axle ahead of -300 cm',
    body: body((b) => Object.assign(b.vehicles[0], { axle_positions: [-301], axle_max_loads: [1000] })),
    status: 422,
    path: 'vehicles[0].axle_positions[0]',
    code: 'out_of_range',
  },
  {
    name: 'axle behind the vehicle',
    body: body((b) => Object.assign(b.vehicles[0], { axle_positions: [1400], axle_max_loads: [1000] })),
    status: 422,
    path: 'vehicles[0].axle_positions[0]',
    code: 'out_of_range',
    message: /vehicle length 1360/,
  },
  {
    name: 'axle max load above 100000',
    body: body((b) => Object.assign(b.vehicles[0], { axle_positions: [100], axle_max_loads: [100001] })),
    status: 422,
    path: 'vehicles[0].axle_max_loads[0]',
    code: 'out_of_range',
  },
  {
    name: 'cog_range_x over half the length',
    body: body((b) => (b.vehicles[0].cog_range_x = 700)),
    status: 422,
    path: 'vehicles[0].cog_range_x',
    code: 'out_of_range',
  },
  {
    name: 'blocked area starts beyond the floor',
    body: body(
      (b) =>
        (b.vehicles[0].blocked_areas = [
          { x: 0, z: 0, length: 10, width: 10 },
          { x: 0, z: 0, length: 10, width: 10 },
          { x: 1400, z: 0, length: 10, width: 10 },
        ]),
    ),
    status: 422,
    path: 'vehicles[0].blocked_areas[2].x',
    code: 'out_of_range',
    message: /vehicle length 1360/,
  },
  {
    name: 'blocked area sticks out sideways',
    body: body((b) => (b.vehicles[0].blocked_areas = [{ x: 0, z: 200, length: 10, width: 60 }])),
    status: 422,
    path: 'vehicles[0].blocked_areas[0].width',
    code: 'out_of_range',
    message: /z \+ width = 260 exceeds the vehicle width 248/,
  },
  {
    name: 'aux deck above the roof',
    body: body((b) =>
      Object.assign(b.vehicles[0], { aux_deck: true, aux_deck_height: 300, aux_deck_max_weight: 5000 }),
    ),
    status: 422,
    path: 'vehicles[0].aux_deck_height',
    code: 'out_of_range',
  },
  {
    name: 'nesting height not below height',
    body: body((b) => (b.items[0].nesting_height = 100)),
    status: 422,
    path: 'items[0].nesting_height',
    code: 'out_of_range',
  },
  {
    name: 'negative time limit',
    body: body((b) => (b.options = { time_limit: -1 })),
    status: 422,
    path: 'options.time_limit',
    code: 'out_of_range',
  },
  {
    name: 'duplicate item id',
    body: body((b) => b.items.push({ ...b.items[0] })),
    status: 422,
    path: 'items[1].id',
    code: 'duplicate_id',
    message: /already used by items\[0\]/,
  },
  {
    name: 'duplicate vehicle id from vehicle_id',
    body: body((b) => (b.vehicles = [{ vehicle_id: 'van-3-5t' }, { vehicle_id: 'van-3-5t' }])),
    status: 422,
    path: 'vehicles[1].vehicle_id',
    code: 'duplicate_id',
    message: /defaulted from vehicle_id/,
  },
  {
    name: 'duplicate item id from template_id',
    body: body((b) => (b.items = [{ template_id: 'tpl_crate' }, { template_id: 'tpl_crate', quantity: 2 }])),
    status: 422,
    path: 'items[1].template_id',
    code: 'duplicate_id',
  },
  {
    name: 'group listed twice',
    body: body((b) => (b.groups = [{ name: 'A' }, { name: 'A' }])),
    status: 422,
    path: 'groups[1].name',
    code: 'duplicate_id',
  },
  {
    name: 'unknown vehicle_id',
    body: body((b) => (b.vehicles = [{ vehicle_id: 'veh_nope' }])),
    status: 422,
    path: 'vehicles[0].vehicle_id',
    code: 'unknown_vehicle',
    message: /"veh_nope"/,
  },
  {
    name: 'unknown template_id',
    body: body((b) => (b.items = [{ template_id: 'tpl_nope' }])),
    status: 422,
    path: 'items[0].template_id',
    code: 'unknown_template',
  },
  {
    name: 'type not enabled',
    body: body((b) => (b.vehicles[0].type = 'ship')),
    status: 422,
    path: 'vehicles[0].type',
    code: 'type_not_allowed',
    message: /allowed: truck, trailer, container, pallet/,
  },
  {
    name: 'preset of a type not enabled',
    body: body((b) => (b.vehicles = [{ vehicle_id: 'pallet-eur' }])),
    status: 422,
    path: 'vehicles[0].vehicle_id',
    code: 'type_not_allowed',
    ctx: { allowedVehicleTypes: ['truck', 'trailer'] },
  },
  {
    name: 'unlisted group with wall routing',
    body: body((b) => {
      b.items[0].group = 'A';
      b.options = { group_routing: 'wall' };
    }),
    status: 422,
    path: 'items[0].group',
    code: 'unknown_group',
  },
  {
    name: 'item too long for every vehicle',
    body: body((b) => (b.items[0] = { length: 1400, width: 250, height: 250, weight: 10, rotation: 'upright' })),
    status: 422,
    path: 'items[0]',
    code: 'does_not_fit',
    message: /1400 × 250 × 250 cm fits no listed vehicle \(rotation "upright"\)/,
  },
  {
    name: 'fixed item too tall',
    body: body((b) => (b.items[0] = { length: 100, width: 100, height: 300, weight: 10, rotation: 'fixed' })),
    status: 422,
    path: 'items[0]',
    code: 'does_not_fit',
  },
  {
    name: 'unit heavier than every payload',
    body: body((b) => (b.items[0].weight = 30000)),
    status: 422,
    path: 'items[0]',
    code: 'does_not_fit',
    message: /unit weight 30000 kg exceeds the payload/,
  },
  {
    name: 'too many item units',
    body: body((b) => b.items.push({ id: 'more', length: 10, width: 10, height: 10, weight: 1, quantity: 1991 })),
    status: 422,
    path: 'items',
    code: 'too_many_items',
    message: /2001 item units .* limit is 2000/,
  },
  {
    name: 'too many vehicles',
    body: body((b) => b.vehicles.push({ vehicle_id: 'van-3-5t', quantity: 20 })),
    status: 422,
    path: 'vehicles',
    code: 'too_many_vehicles',
    message: /21 vehicles/,
  },
  {
    name: 'unknown top-level field',
    body: body((b) => (b.extra = 1)),
    status: 422,
    path: 'extra',
    code: 'unknown_field',
  },
  {
    name: 'misspelt item field',
    body: body((b) => (b.items[0].colour = '#ffffff')),
    status: 422,
    path: 'items[0].colour',
    code: 'unknown_field',
    message: /did you mean "color"/,
  },
  {
    name: 'unknown field inside a blocked area',
    body: body((b) => (b.vehicles[0].blocked_areas = [{ x: 0, z: 0, length: 10, width: 10, y: 5 }])),
    status: 422,
    path: 'vehicles[0].blocked_areas[0].y',
    code: 'unknown_field',
  },
  {
    name: 'unknown option, odd name',
    body: body((b) => (b.options = { 'time limit': 5 })),
    status: 422,
    path: 'options["time limit"]',
    code: 'unknown_field',
  },
];

t.test('each detail code from a minimal bad body', async (t) => {
  for (const c of cases) {
    const o = failure(checkPackRequest(c.body, testContext(c.ctx)));
    t.equal(o.status, c.status, `${c.name}: status`);
    t.equal(o.code, c.status === 400 ? 'invalid_json' : 'validation_failed', `${c.name}: code`);
    const hit = o.details.find((d) => d.path === c.path && d.code === c.code);
    t.ok(hit, `${c.name}: detail ${c.code} at "${c.path}" in ${JSON.stringify(o.details)}`);
    if (hit && c.message) t.match(hit.message, c.message, `${c.name}: message`);
  }
});

t.test('the valid body is accepted', async (t) => {
  const o = checkPackRequest(validBody(), testContext());
  t.equal(o.ok, true);
  if (!o.ok) return;
  t.equal(o.items, 10);
  t.equal(o.minVehicles, 1);
  t.same(o.warnings, []);
  t.equal(o.model.items[0]?.id, 'box');
  t.equal(o.request.reference, 'order-42');
});

t.test('unit weight within payload passes with allow_overweight too', async (t) => {
  const b = body((b) => {
    b.items[0].weight = 30000;
    b.options = { allow_overweight: true };
  });
  const o = checkPackRequest(b, testContext());
  t.equal(o.ok, true);
});

t.test('unlisted groups are fine without routing', async (t) => {
  const o = checkPackRequest(
    body((b) => (b.items[0].group = 'A')),
    testContext(),
  );
  t.equal(o.ok, true);
});

t.test('a body with several problems lists them all, in document order', async (t) => {
  const b = {
    reference: 'x'.repeat(200),
    vehicles: [
      { vehicle_id: 'veh_missing' },
      { ...truck, id: 'dup', quantity: 101 },
      { ...truck, id: 'dup', type: 'ship' },
    ],
    items: [
      { id: 'a', length: 100, width: 100, height: 100, weight: 10, shape: 'cube' },
      { id: 'b', template_id: 'tpl_nope' },
      { id: 'c', length: 100, width: 100, height: 100, weight: 10, color: 'blue', group: 'G' },
    ],
    groups: [{ name: 'H', order: 1.5 }],
    options: { group_routing: 'routing', time_limit: -3, max_stack_items: -1, speed: 'fast' },
  };
  const o = failure(checkPackRequest(b, testContext()));
  t.equal(o.status, 422);
  t.same(
    o.details.map((d) => `${d.code} ${d.path}`),
    [
      'out_of_range reference',
      'unknown_vehicle vehicles[0].vehicle_id',
      'out_of_range vehicles[1].quantity',
      'type_not_allowed vehicles[2].type',
      'duplicate_id vehicles[2].id',
      'invalid_value items[0].shape',
      'unknown_template items[1].template_id',
      'invalid_value items[2].color',
      'unknown_group items[2].group',
      'invalid_value groups[0].order',
      'unknown_field options.speed',
      'out_of_range options.max_stack_items',
      'out_of_range options.time_limit',
    ],
  );
  t.match(o.message, /13 problems/);
});

t.test('a wrong JSON type makes it 400 but every problem is still listed', async (t) => {
  const b = body((b) => {
    b.items[0].height = '100';
    b.items[0].quantity = 0;
    b.vehicles[0].type = 'ship';
    b.items.push({ id: 'box', length: 10, width: 10, height: 10, weight: 1 });
  });
  const o = failure(checkPackRequest(b, testContext()));
  t.equal(o.status, 400);
  t.equal(o.code, 'invalid_json');
  t.same(
    o.details.map((d) => `${d.code} ${d.path}`).sort(),
    [
      'duplicate_id items[1].id',
      'invalid_json items[0].height',
      'out_of_range items[0].quantity',
      'type_not_allowed vehicles[0].type',
    ].sort(),
  );
});

t.test('an ill-typed entry is reported once, without a generic duplicate', async (t) => {
  const o = failure(
    checkPackRequest(
      body((b) => (b.items[0] = 42)),
      testContext(),
    ),
  );
  t.same(
    o.details.map((d) => `${d.code} ${d.path}`),
    ['invalid_json items[0]'],
  );
});

t.test('exact repeats are listed once', async (t) => {
  const b = body((b) => Object.assign(b.vehicles[0], { axle_positions: [200000], axle_max_loads: [1] }));
  const o = failure(checkPackRequest(b, testContext()));
  t.equal(o.details.filter((d) => d.path === 'vehicles[0].axle_positions[0]').length, 1);
});
