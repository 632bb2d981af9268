/**
 * Saved-data forms in cm and kg (webapp/src/saved-data/record-form.ts): a stored length or weight
 * with float noise (a project item saved as 18.7 lb is 8.482177319 kg) shows to 0.1 cm and 0.1 kg,
 * is sent back exactly as stored while its input is left as shown, and a typed value is sent as
 * typed; a project's vehicle slot holds the vehicle id whatever is typed around it.
 */
import t from 'tap';
import fc from 'fast-check';
import { PROJECT_FIELDS, PROJECT_ROWS, VEHICLE_FIELDS } from '../../webapp/src/saved-data/kinds.js';
import { bodyOf, formOf } from '../../webapp/src/saved-data/record-form.js';

const project = {
  id: 'prj_1',
  object: 'project',
  name: 'Monday run',
  vehicles: [{ id: 'pv_1', vehicle_id: 'van-3-5t', quantity: 2 }],
  items: [
    {
      id: 'item_1',
      label: 'Crate',
      length: 60.96000000000001,
      width: 40.64,
      height: 30,
      weight: 8.482177319,
      quantity: 3,
    },
  ],
  groups: [],
  options: {},
};

t.test('project item figures show to 0.1 cm and 0.1 kg, and go back exactly as stored', async (t) => {
  const form = formOf(project, PROJECT_FIELDS, PROJECT_ROWS, 'metric');
  const item = form.rows['items']![0]!.values;
  t.same(
    [item['length'], item['width'], item['height'], item['weight'], item['quantity']],
    ['61', '40.6', '30', '8.5', '3'],
    'rounded for display',
  );
  t.equal(form.rows['vehicles']![0]!.values['vehicle_id'], 'van-3-5t', 'the slot holds the vehicle id');
  t.same(
    bodyOf(PROJECT_FIELDS, form, PROJECT_ROWS),
    {
      name: 'Monday run',
      groups: [],
      options: {},
      vehicles: [{ id: 'pv_1', vehicle_id: 'van-3-5t', quantity: 2 }],
      items: [project.items[0]],
    },
    'untouched, the body is the record as stored (same shape as before)',
  );
  form.rows['items']![0]!.values['weight'] = '8.4';
  const sent = bodyOf(PROJECT_FIELDS, form, PROJECT_ROWS);
  t.same(
    (sent['items'] as Record<string, unknown>[])[0],
    { ...project.items[0], weight: 8.4 },
    'a typed weight is sent as typed; the others as stored',
  );
});

t.test('a whole metric figure is shown as it is, with nothing kept aside', async (t) => {
  const form = formOf(
    { name: 'Van', type: 'truck', length: 420, width: 175.5, height: 190, max_weight: 1100 },
    VEHICLE_FIELDS,
  );
  t.same([form.values['length'], form.values['width'], form.values['max_weight']], ['420', '175.5', '1100']);
  t.notOk('shown' in form, 'nothing to keep');
});

t.test('property: any stored metric value shows with at most one decimal and survives untouched', async (t) => {
  fc.assert(
    fc.property(fc.double({ min: 0, max: 1_000_000, noNaN: true }), (v) => {
      const form = formOf({ name: 'x', type: 'truck', length: v, width: v, height: v, max_weight: v }, VEHICLE_FIELDS);
      const text = String(form.values['max_weight']);
      const body = bodyOf(VEHICLE_FIELDS, form);
      return (
        /^\d+(\.\d)?$/.test(text) &&
        Math.abs(Number(text) - v) <= 0.05 + 1e-9 * v &&
        body['length'] === v &&
        body['max_weight'] === v
      );
    }),
    { numRuns: 500 },
  );
  t.pass('rounded for display, exact in the body');
});
