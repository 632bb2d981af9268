/**
 * Saved-data forms in the organization's display units (webapp/src/saved-data/record-form.ts,
 * kinds.ts; units/measure.ts): labels in cm/kg or in/lb, stored cm and kg shown converted and
 * rounded, typed values converted back exactly, untouched values sent exactly as stored (no
 * round trip through the rounded text), the JSON body always in cm and kg; and the vehicle
 * types the organization's plan does not allow offered disabled with the reason.
 */
import t from 'tap';
import fc from 'fast-check';
import {
  PROJECT_FIELDS,
  PROJECT_ROWS,
  TEMPLATE_FIELDS,
  VEHICLE_FIELDS,
  VEHICLE_TYPES,
  vehicleFields,
} from '../../webapp/src/saved-data/kinds.js';
import { bodyOf, formOf, labelOf } from '../../webapp/src/saved-data/record-form.js';
import { formatMeasure, measureFromDisplay, measureToDisplay } from '../../webapp/src/units/measure.js';

const truck = {
  id: 'veh_1',
  object: 'vehicle',
  name: 'Box truck',
  type: 'truck',
  length: 720,
  width: 245,
  height: 250,
  max_weight: 6000,
  floor_load_capacity: 1000,
  blocked_areas: [{ x: 0, z: 0, length: 20, width: 20 }],
};
const labels = (units: 'metric' | 'imperial') => VEHICLE_FIELDS.map((f) => labelOf(f, units));

t.test('labels name the display units; metric labels are as before', async (t) => {
  t.same(labels('metric'), [
    'Name',
    'Type',
    'Length (cm)',
    'Width (cm)',
    'Height (cm)',
    'Max payload (kg)',
    'Floor load capacity (kg/m²)',
    'Double deck (aux deck)',
    'Aux deck height (cm)',
    'Aux deck max weight (kg)',
  ]);
  t.same(labels('imperial'), [
    'Name',
    'Type',
    'Length (in)',
    'Width (in)',
    'Height (in)',
    'Max payload (lb)',
    'Floor load capacity (lb/ft²)',
    'Double deck (aux deck)',
    'Aux deck height (in)',
    'Aux deck max weight (lb)',
  ]);
  t.same(
    TEMPLATE_FIELDS.filter((f) => f.measure).map((f) => labelOf(f, 'imperial')),
    ['Length (in)', 'Width (in)', 'Height (in)', 'Radius (in)', 'Weight of one unit (lb)', 'Max weight on top (lb)'],
  );
  t.same(
    PROJECT_ROWS[1]!.columns.filter((c) => c.measure).map((c) => labelOf(c, 'metric')),
    ['Length (cm)', 'Width (cm)', 'Height (cm)', 'Weight (kg)'],
  );
});

t.test('imperial: shown in in and lb (2 decimals), sent in cm and kg', async (t) => {
  const form = formOf(truck, VEHICLE_FIELDS, [], 'imperial');
  t.same(
    [form.values['length'], form.values['width'], form.values['max_weight'], form.values['floor_load_capacity']],
    ['283.46', '96.46', '13227.74', '204.82'],
  );
  t.same(
    bodyOf(VEHICLE_FIELDS, form),
    {
      blocked_areas: truck.blocked_areas,
      name: 'Box truck',
      type: 'truck',
      length: 720,
      width: 245,
      height: 250,
      max_weight: 6000,
      floor_load_capacity: 1000,
      aux_deck: false,
    },
    'untouched values go back exactly',
  );
  form.values['length'] = '288';
  form.values['max_weight'] = '1000';
  form.values['height'] = 'tall';
  const body = bodyOf(VEHICLE_FIELDS, form);
  t.same(
    [body['length'], body['max_weight'], body['height'], body['width']],
    [731.52, 453.59237, 'tall', 245],
    'typed values converted; junk sent as typed',
  );
  const metric = formOf(truck, VEHICLE_FIELDS, [], 'metric');
  t.same([metric.values['length'], metric.values['max_weight']], ['720', '6000']);
  t.notOk('shown' in metric || 'units' in metric, 'a metric form is as before');
});

t.test("a project's item rows convert too; new rows take typed in and lb", async (t) => {
  const project = {
    id: 'prj_1',
    name: 'Monday',
    vehicles: [{ id: 'pv_1', vehicle_id: 'van-3-5t', quantity: 2 }],
    items: [{ id: 'item_1', label: 'Box', length: 60, width: 40, height: 40, weight: 12, quantity: 10 }],
  };
  const form = formOf(project, PROJECT_FIELDS, PROJECT_ROWS, 'imperial');
  t.same(form.rows['items']![0]!.values, {
    label: 'Box',
    template_id: '',
    length: '23.62',
    width: '15.75',
    height: '15.75',
    weight: '26.46',
    quantity: '10',
  });
  form.rows['items']![0]!.values['height'] = '20';
  const body = bodyOf(PROJECT_FIELDS, form, PROJECT_ROWS);
  t.same(body['items'], [
    { id: 'item_1', label: 'Box', length: 60, width: 40, height: 50.8, weight: 12, quantity: 10 },
  ]);
  t.same(body['vehicles'], [{ id: 'pv_1', vehicle_id: 'van-3-5t', quantity: 2 }]);
});

t.test(
  'property: any stored value survives an imperial form untouched, and a typed value converts exactly',
  async (t) => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 100_000, noNaN: true }),
        fc.double({ min: 0.1, max: 10_000, noNaN: true }),
        (cm, typed) => {
          const form = formOf(
            { name: 'x', type: 'truck', length: cm, width: cm, height: cm, max_weight: cm },
            VEHICLE_FIELDS,
            [],
            'imperial',
          );
          const kept = bodyOf(VEHICLE_FIELDS, form);
          if (kept['length'] !== cm || kept['max_weight'] !== cm) return false;
          // Typing the very text already shown leaves the record's value as it was (by design).
          fc.pre(form.values['length'] !== String(typed) && form.values['max_weight'] !== String(typed));
          form.values['length'] = String(typed);
          form.values['max_weight'] = String(typed);
          const sent = bodyOf(VEHICLE_FIELDS, form);
          const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.abs(b);
          return (
            close(sent['length'] as number, typed * 2.54) && close(sent['max_weight'] as number, typed * 0.45359237)
          );
        },
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom('length' as const, 'weight' as const, 'area-load' as const),
        fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
        (m, v) => {
          const back = measureFromDisplay(measureToDisplay(v, m, 'imperial'), m, 'imperial');
          return Math.abs(back - v) <= 1e-12 * v && measureFromDisplay(v, m, 'metric') === v;
        },
      ),
    );
    t.pass('conversions hold');
  },
);

t.test('list cells: metric as stored, imperial rounded', async (t) => {
  t.same(
    [
      formatMeasure(13.625, 'length', 'metric'),
      formatMeasure(120, 'length', 'imperial'),
      formatMeasure(1000, 'weight', 'imperial'),
      formatMeasure(undefined, 'weight', 'imperial'),
    ],
    ['13.625', '47.24', '2204.62', ''],
  );
});

t.test('vehicle types the plan does not allow are shown disabled with the reason', async (t) => {
  const type = vehicleFields(['truck', 'container']).find((f) => f.name === 'type')!;
  t.same(type.options, ['truck', 'container', 'trailer', 'flatbed', 'pallet', 'aircraft', 'ship'], 'allowed first');
  t.same(Object.keys(type.unavailable ?? {}).sort(), ['aircraft', 'flatbed', 'pallet', 'ship', 'trailer']);
  t.match(type.unavailable?.['ship'], /not in your organization's plan/);
  t.equal(type.hint, "Your organization's plan allows truck, container.");
  t.equal(vehicleFields(undefined), VEHICLE_FIELDS, 'without a list every type');
  t.same(
    vehicleFields([...VEHICLE_TYPES]).find((f) => f.name === 'type')!.unavailable,
    {},
    'all allowed, none disabled',
  );
});
