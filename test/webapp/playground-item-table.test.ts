/**
 * The playground's one request edited three ways (webapp/src/playground/item-cells.ts,
 * request-edits.ts, vehicle-bound.ts): the item table's cells in display units, the JSON editor,
 * the pickers and the automatic-vehicles option. Properties: table → JSON → table is the
 * identity, and a cell edit changes its field only (unknown fields survive).
 */
import t from 'tap';
import { deepStrictEqual, strictEqual } from 'node:assert/strict';
import fc from 'fast-check';
import {
  cellValue,
  ITEM_COLUMNS,
  newItem,
  rowName,
  withCell,
  type ItemColumn,
  type TableItem,
} from '../../webapp/src/playground/item-cells.js';
import {
  chosenTemplates,
  chosenVehicles,
  draftOf,
  itemsOf,
  listedVehicleCount,
  packingModeOf,
  readRequest,
  requestText,
  withItems,
  withPackingMode,
  withReference,
  withTemplateQuantity,
  withVehicleQuantity,
} from '../../webapp/src/playground/request-edits.js';
import { vehicleBoundText } from '../../webapp/src/playground/vehicle-bound.js';
import { matchesSearch } from '../../webapp/src/playground/record-list.js';
import type { DisplayUnits } from '../../webapp/src/units/measure.js';

const UNITS: DisplayUnits[] = ['metric', 'imperial'];
const column = (field: string): ItemColumn => ITEM_COLUMNS.find((c) => c.field === field)!;
const rowOf = (item: TableItem, units: DisplayUnits) => ITEM_COLUMNS.map((c) => cellValue(item, c, units));

/** A figure with at most 2 decimals, as a person types it. */
const typed = fc.integer({ min: 1, max: 10_000_00 }).map((n) => n / 100);
/** Any JSON value (fields the table does not know). */
const json = fc.jsonValue();
/** An item: the table's fields (sometimes of another type than the column's), the other spec fields, unknown fields. */
const item: fc.Arbitrary<TableItem> = fc
  .record(
    {
      id: fc.oneof(fc.string(), json),
      template_id: fc.constantFrom('tpl_a', 'tpl_b'),
      label: fc.string(),
      quantity: fc.integer({ min: 1, max: 10000 }),
      length: fc.double({ min: 0.001, max: 5000, noNaN: true }),
      width: typed,
      height: fc.oneof(typed, fc.constant('tall')),
      weight: fc.double({ min: 0, max: 30000, noNaN: true }),
      rotation: fc.constantFrom('all', 'upright', 'fixed'),
      stackable: fc.oneof(fc.boolean(), fc.constant('yes')),
      max_stack_weight: typed,
      hazardous: fc.boolean(),
      group: fc.string(),
      shape: fc.constantFrom('box', 'cylinder', 'drum'),
      radius: typed,
      priority: fc.nat(),
      color: fc.constantFrom('#1f77b4', '#ff7f0e'),
      nesting_height: typed,
      customer_ref: json,
      extra: fc.dictionary(fc.string(), json, { maxKeys: 3 }),
    },
    { requiredKeys: [] },
  )
  .map((r) => r as TableItem);
const request = fc.record(
  {
    items: fc.array(item, { maxLength: 5 }),
    vehicles: fc.array(
      fc.record({ vehicle_id: fc.constantFrom('veh_a', 'van-3-5t'), quantity: fc.integer({ min: 1, max: 9 }) }),
      { maxLength: 3 },
    ),
    options: fc.dictionary(fc.string(), json, { maxKeys: 2 }),
    groups: fc.array(json, { maxLength: 2 }),
    reference: fc.string(),
  },
  { requiredKeys: ['items', 'vehicles'] },
);

/** What JSON keeps of a value (undefined fields, -0 as 0). */
const throughJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

t.test('table → JSON → table is the identity, and every field of the request survives', async (t) => {
  fc.assert(
    fc.property(request, fc.array(item, { maxLength: 5 }), fc.constantFrom(...UNITS), (req, items, units) => {
      const next = withItems(req, items);
      const read = readRequest(requestText(next));
      if (!('request' in read)) throw new Error(read.problem);
      const back = itemsOf(read.request);
      deepStrictEqual(
        back.map((i) => rowOf(i, units)),
        throughJson(items).map((i) => rowOf(i, units)),
        'the same rows',
      );
      deepStrictEqual(back, throughJson(items), 'the items, unknown fields included');
      const { items: _a, ...rest } = read.request;
      const { items: _b, ...restBefore } = req;
      deepStrictEqual(rest, throughJson(restBefore), 'vehicles, options, groups, reference as they were');
    }),
    { numRuns: 150 },
  );
  t.pass('150 random requests and tables came back unchanged');
});

t.test('a cell edit changes its field only; the table shows what was typed', async (t) => {
  const editable = ITEM_COLUMNS.filter((c) => c.kind !== 'flag');
  fc.assert(
    fc.property(item, fc.constantFrom(...editable), typed, fc.constantFrom(...UNITS), (before, col, figure, units) => {
      const input =
        col.kind === 'text'
          ? `x${figure}`
          : col.kind === 'rotation'
            ? 'upright'
            : col.kind === 'count'
              ? String(Math.ceil(figure))
              : String(figure);
      const after = withCell(before, col, input, units);
      strictEqual(cellValue(after, col, units), input, `${col.field} shows what was typed`);
      for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
        if (key !== col.field) deepStrictEqual(after[key], before[key], `${key} untouched`);
      }
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(item, fc.constantFrom(column('stackable'), column('hazardous')), fc.boolean(), (before, col, on) => {
      const after = withCell(before, col, on, 'metric');
      strictEqual(after[col.field], on);
      deepStrictEqual({ ...after, [col.field]: null }, { ...before, [col.field]: null }, 'only the flag changed');
    }),
    { numRuns: 100 },
  );
  t.pass('400 random cell edits changed their own field only');
});

t.test('cells in display units: inches and pounds on screen, cm and kg in the request', async (t) => {
  const carton: TableItem = { id: 'carton', length: 120, width: 80, height: 100, weight: 12.5, note: { keep: true } };
  t.equal(cellValue(carton, column('length'), 'metric'), '120');
  t.equal(cellValue(carton, column('length'), 'imperial'), '47.24', '120 cm in inches');
  t.equal(cellValue(carton, column('weight'), 'imperial'), '27.56', '12.5 kg in pounds');
  t.same(
    withCell(carton, column('length'), '50', 'imperial'),
    { id: 'carton', length: 127, width: 80, height: 100, weight: 12.5, note: { keep: true } },
    '50 in = 127 cm, in place',
  );
  t.equal(withCell(carton, column('weight'), '10', 'imperial')['weight'], 4.5359, '10 lb in kg (4 decimals)');
  t.same(
    withCell(carton, column('weight'), '', 'metric'),
    { id: 'carton', length: 120, width: 80, height: 100, note: { keep: true } },
    'an emptied cell leaves the field out',
  );
  t.same(withCell(carton, column('rotation'), 'fixed', 'metric'), { ...carton, rotation: 'fixed' });
  t.same(
    withCell({ ...carton, rotation: 'fixed' }, column('rotation'), '', 'metric'),
    carton,
    'the default rotation leaves the field out',
  );
  t.equal(cellValue({}, column('stackable'), 'metric'), true, 'stackable by default (spec)');
  t.equal(cellValue({}, column('hazardous'), 'metric'), false, 'not hazardous by default (spec)');
  t.equal(cellValue({ height: 'tall' }, column('height'), 'metric'), '', 'a field of another type shows empty');
});

t.test('row names label the inputs: id, template, label, else the row number', async (t) => {
  const items: TableItem[] = [{ id: 'sku-1' }, { template_id: 'tpl_x' }, { label: 'Crate' }, {}, { label: 'Crate' }];
  t.same(
    items.map((_, i) => rowName(items, i)),
    ['sku-1', 'tpl_x', 'Crate (row 3)', 'item 4', 'Crate (row 5)'],
  );
  t.same(newItem([{ id: 'item-2' }]), { id: 'item-3', quantity: 1 }, 'a new row gets an unused id');
});

t.test('pickers, reference and options edit their part of the request only', async (t) => {
  const base = {
    reference: 'r1',
    vehicles: [
      { vehicle_id: 'veh_a', quantity: 2, name: 'override' },
      { name: 'inline', length: 1 },
    ],
    items: [{ template_id: 'tpl_a', quantity: 3, colour: 'x' }, { label: 'Crate' }],
    options: { time_limit: 2 },
    groups: [{ name: 'g' }],
  };
  t.same(chosenVehicles(base), [{ id: 'veh_a', quantity: 2 }]);
  t.same(chosenTemplates(base), [{ id: 'tpl_a', quantity: 3 }]);
  t.equal(listedVehicleCount(base), 3, '2 + 1 (an entry without quantity counts 1)');
  const more = withVehicleQuantity(withVehicleQuantity(base, 'veh_a', 5), 'van-3-5t', 1);
  t.same(more['vehicles'], [
    { vehicle_id: 'veh_a', quantity: 5, name: 'override' },
    { name: 'inline', length: 1 },
    { vehicle_id: 'van-3-5t', quantity: 1 },
  ]);
  t.same(withVehicleQuantity(base, 'veh_a', 0)['vehicles'], [{ name: 'inline', length: 1 }], '0 leaves it out');
  t.same(withTemplateQuantity(base, 'tpl_a', 1)['items'], [
    { template_id: 'tpl_a', quantity: 1, colour: 'x' },
    { label: 'Crate' },
  ]);
  t.same(withTemplateQuantity(base, 'tpl_b', 2)['items'], [...base.items, { template_id: 'tpl_b', quantity: 2 }]);
  t.same(withReference(base, ''), {
    vehicles: base.vehicles,
    items: base.items,
    options: base.options,
    groups: base.groups,
  });
  t.same(Object.keys(withReference({ vehicles: [], items: [] }, 'walk')), ['reference', 'vehicles', 'items']);
  t.equal(packingModeOf(base), 'auto');
  const fleet = withPackingMode(base, 'fleet_only');
  t.same(fleet['options'], { time_limit: 2, packing_mode: 'fleet_only' });
  t.equal(packingModeOf(fleet), 'fleet_only');
  t.same(withPackingMode(fleet, 'auto')['options'], { time_limit: 2 }, 'auto is the default: the field goes');
  t.notOk(
    'options' in withPackingMode({ vehicles: [], items: [], options: { packing_mode: 'fleet_only' } }, 'auto'),
    'and empty options go too',
  );
});

t.test('the JSON editor read for the table; the draft of the location state', async (t) => {
  t.match(readRequest('{"items": ['), { problem: /not valid JSON/ });
  t.same(readRequest('{"items": 3}'), { problem: '"items" must be a list' });
  t.same(readRequest('{"items": [1]}'), { problem: 'items[0] must be an object' });
  t.same(readRequest('{"vehicles": [null]}'), { problem: 'vehicles[0] must be an object' });
  t.same(readRequest('{"reference": "x"}'), { request: { reference: 'x' } }, 'missing lists read as empty');
  t.same(itemsOf({}), []);
  t.same(draftOf({ draft: { vehicles: [], items: [{ id: 'a' }] } }), { vehicles: [], items: [{ id: 'a' }] });
  for (const state of [null, undefined, 'x', { draft: 'x' }, { draft: [1] }, { other: {} }])
    t.equal(draftOf(state), null, `no draft in ${JSON.stringify(state)}`);
});

t.test("the estimate's vehicle bound explained", async (t) => {
  t.equal(
    vehicleBoundText({ maxVehicles: 20, listed: 1, mode: 'auto', limit: 20 }),
    'up to 20 vehicles: the 1 listed plus up to 19 added automatically when the listed ones are full (20 is the most a job may use)',
  );
  t.equal(
    vehicleBoundText({ maxVehicles: 6, listed: 1, mode: 'auto', limit: 20 }),
    'up to 6 vehicles: the 1 listed plus up to 5 added automatically when the listed ones are full (as many as your available credits cover; a job may use up to 20)',
  );
  t.equal(
    vehicleBoundText({ maxVehicles: 2, listed: 2, mode: 'fleet_only', limit: 20 }),
    'up to 2 vehicles: only the listed ones, since adding vehicles automatically is off',
  );
  t.equal(
    vehicleBoundText({ maxVehicles: 20, listed: 20, mode: 'auto', limit: null }),
    'up to 20 vehicles: the listed ones (20 is the most this job may use)',
  );
});

t.test('the picker search: every word in the name, id or type', async (t) => {
  const van = { id: 'van-3-5t', name: 'Van 3.5 t', type: 'truck', preset: true };
  t.ok(matchesSearch(van, ''));
  t.ok(matchesSearch(van, 'VAN'));
  t.ok(matchesSearch(van, 'truck 3-5t'));
  t.notOk(matchesSearch(van, 'container'));
});
