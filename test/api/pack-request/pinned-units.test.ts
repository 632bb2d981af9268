/**
 * Pinned units (our extension, Vehicle.loaded) at admission: how checkPackRequest (POST /v1/pack
 * and POST /v1/estimate) reads them into PackModel.vehicles[i].loaded, and every refusal with its
 * status, path, code and message: the entry rules (domain/pack/resolve/loaded-units.ts) and the
 * packing rules of the pinned units alone, found by the plan verifier
 * (api/http/pack-request/pinned-admission.ts).
 */
import t from 'tap';
import { checkPackRequest, type CheckOutcome } from '../../../api/http/pack-request/check.js';
import type { ErrorDetail } from '../../../domain/pack/diagnostics.js';
import { testContext } from '../../domain/pack/resolve/resolve-context.js';

type Body = Record<string, any>;

/** A 13.6 m trailer (1360 × 248 × 270 cm, 24 t, two copies) and three items; `edit` changes it. */
function body(edit: (b: Body) => void = () => undefined): Body {
  const b: Body = {
    vehicles: [
      { id: 'trailer', type: 'trailer', length: 1360, width: 248, height: 270, max_weight: 24000, quantity: 2 },
    ],
    items: [
      {
        id: 'pal',
        shape: 'pallet',
        length: 120,
        width: 80,
        height: 100,
        weight: 500,
        quantity: 4,
        max_stack_weight: 600,
      },
      {
        id: 'crate',
        length: 100,
        width: 60,
        height: 50,
        weight: 50,
        quantity: 3,
        rotation: 'upright',
        stackable: false,
      },
      { id: 'acid', length: 60, width: 60, height: 60, weight: 30, quantity: 2, hazardous: true },
      { id: 'lye', length: 60, width: 60, height: 60, weight: 30, quantity: 2, hazardous: true },
    ],
  };
  edit(b);
  return b;
}

function failure(o: CheckOutcome): Extract<CheckOutcome, { ok: false }> {
  if (o.ok) throw new Error('expected a failure, got ok');
  return o;
}

const pal = (x: number, z: number, more: Body = {}): Body => ({
  item_id: 'pal',
  x,
  y: 0,
  z,
  orientation: 'lwh',
  ...more,
});

t.test('pinned units resolve into the model: item index, corner, orientation, copy (default 1)', async (t) => {
  const out = checkPackRequest(
    body((b) => {
      b.vehicles[0].loaded = [
        pal(0, 0),
        pal(0, 80, { orientation: 'wlh', copy: 2 }),
        { item_id: 'crate', x: 0, y: 100, z: 0, orientation: 'lwh' },
      ];
    }),
    testContext(),
  );
  if (!out.ok) throw new Error(JSON.stringify(out.details));
  t.same(out.model.vehicles[0]!.loaded, [
    { item: 0, x: 0, y: 0, z: 0, orientation: 'lwh', copy: 1 },
    { item: 0, x: 0, y: 0, z: 80, orientation: 'wlh', copy: 2 },
    { item: 1, x: 0, y: 100, z: 0, orientation: 'lwh', copy: 1 },
  ]);
  const plain = checkPackRequest(body(), testContext());
  t.ok(plain.ok && plain.model.vehicles[0]!.loaded === undefined, 'no loaded: no pinned units in the model');
});

interface Case {
  name: string;
  loaded: Body[];
  edit?: (b: Body) => void;
  status?: 400 | 422;
  path: string;
  code: ErrorDetail['code'];
  message: RegExp;
}

const cases: Case[] = [
  {
    name: 'an item_id the request does not define',
    loaded: [{ item_id: 'nope', x: 0, y: 0, z: 0, orientation: 'lwh' }],
    path: 'vehicles[0].loaded[0].item_id',
    code: 'invalid_value',
    message: /^item_id "nope" names no item of this request$/,
  },
  {
    name: 'more pinned units of an item than its quantity',
    loaded: [pal(0, 0), pal(0, 80), pal(120, 0), pal(120, 80), pal(240, 0)],
    path: 'vehicles[0].loaded[4]',
    code: 'out_of_range',
    message: /more units of item pal are pinned than its quantity 4/,
  },
  {
    name: "a copy beyond the vehicle's quantity",
    loaded: [pal(0, 0, { copy: 3 })],
    path: 'vehicles[0].loaded[0].copy',
    code: 'out_of_range',
    message: /copy 3 is beyond the 2 listed copies of vehicle trailer; raise its quantity/,
  },
  {
    name: "an orientation the item's rotation does not allow",
    loaded: [{ item_id: 'crate', x: 0, y: 0, z: 0, orientation: 'hwl' }],
    path: 'vehicles[0].loaded[0].orientation',
    code: 'invalid_value',
    message: /^orientation hwl is not allowed for item crate \(allowed: lwh, wlh\)$/,
  },
  {
    name: 'a pallet tipped on its side',
    loaded: [pal(0, 0, { orientation: 'lhw' })],
    path: 'vehicles[0].loaded[0].orientation',
    code: 'invalid_value',
    message: /not allowed for item pal \(allowed: lwh, wlh\)/,
  },
  {
    name: 'a unit reaching out of the cargo space',
    loaded: [pal(1300, 0)],
    path: 'vehicles[0].loaded[0]',
    code: 'out_of_range',
    message: /reaches x 1420, y 100, z 80: outside the cargo space of vehicle trailer \(1360 × 248 × 270 cm\)/,
  },
  {
    name: 'two pinned units in the same place',
    loaded: [pal(0, 0), pal(60, 40)],
    path: 'vehicles[0].loaded[0]',
    code: 'invalid_value',
    message: /^the pinned units alone break the rule overlap: /,
  },
  {
    name: 'a unit floating in the air',
    loaded: [pal(0, 0, { y: 50 })],
    path: 'vehicles[0].loaded[0]',
    code: 'invalid_value',
    message: /^the pinned units alone break the rule support: /,
  },
  {
    name: 'a unit on a unit nothing may rest on',
    loaded: [
      { item_id: 'crate', x: 0, y: 0, z: 0, orientation: 'lwh' },
      { item_id: 'crate', x: 0, y: 50, z: 0, orientation: 'lwh' },
    ],
    path: 'vehicles[0].loaded[0]',
    code: 'invalid_value',
    message: /^the pinned units alone break the rule stacking: /,
  },
  {
    name: 'more weight on a pallet than its max_stack_weight (400 kg, a 500 kg pallet on it)',
    edit: (b) => (b.items[0].max_stack_weight = 400),
    loaded: [pal(0, 0), pal(0, 0, { y: 100 })],
    path: 'vehicles[0].loaded[0]',
    code: 'invalid_value',
    message: /^the pinned units alone break the rule stack_weight: /,
  },
  {
    name: 'pinned units heavier than the payload',
    edit: (b) => (b.vehicles[0].max_weight = 900),
    loaded: [pal(0, 0), pal(0, 80)],
    path: 'vehicles[0].loaded',
    code: 'invalid_value',
    message: /^the pinned units alone break the rule weight: /,
  },
  {
    name: 'a unit on a blocked area',
    edit: (b) => (b.vehicles[0].blocked_areas = [{ x: 0, z: 0, length: 50, width: 50 }]),
    loaded: [pal(0, 0)],
    path: 'vehicles[0].loaded[0]',
    code: 'invalid_value',
    message: /^the pinned units alone break the rule blocked_area: /,
  },
  {
    name: 'two hazardous items side by side',
    loaded: [
      { item_id: 'acid', x: 0, y: 0, z: 0, orientation: 'lwh' },
      { item_id: 'lye', x: 60, y: 0, z: 0, orientation: 'lwh' },
    ],
    path: 'vehicles[0].loaded[1]',
    code: 'invalid_value',
    message: /^the pinned units alone break the rule hazardous: /,
  },
  {
    name: 'an orientation that is no orientation (the schema)',
    loaded: [pal(0, 0, { orientation: 'up' })],
    path: 'vehicles[0].loaded[0].orientation',
    code: 'invalid_value',
    message: /lwh/,
  },
  {
    name: 'a pinned unit without its corner (the schema)',
    loaded: [{ item_id: 'pal', x: 0, z: 0, orientation: 'lwh' }],
    path: 'vehicles[0].loaded[0].y',
    code: 'required',
    message: /y/,
  },
];

for (const c of cases) {
  t.test(`refused: ${c.name}`, async (t) => {
    const out = failure(
      checkPackRequest(
        body((b) => {
          c.edit?.(b);
          b.vehicles[0].loaded = c.loaded;
        }),
        testContext(),
      ),
    );
    t.equal(out.status, c.status ?? 422);
    t.equal(out.code, 'validation_failed');
    const detail = out.details.find((d) => d.path === c.path && d.code === c.code);
    t.ok(detail, `a ${c.code} detail at ${c.path} (got ${JSON.stringify(out.details)})`);
    t.match(detail?.message, c.message);
  });
}

t.test('a stack of pinned pallets within max_stack_weight is accepted', async (t) => {
  const out = checkPackRequest(
    body((b) => (b.vehicles[0].loaded = [pal(0, 0), pal(0, 0, { y: 100 })])),
    testContext(),
  );
  t.ok(out.ok, JSON.stringify(out.ok ? [] : out.details));
});
