/**
 * Saved records as forms and back (webapp/src/saved-data/record-form.ts): a record's inputs and
 * extra fields, the POST/PATCH body (numbers parsed, empty inputs left out, junk sent as typed
 * for the service to name), a project's slots and items as rows (ids kept), and the "Edit as JSON"
 * text without read-only fields.
 */
import t from 'tap';
import { bodyOf, formOf, jsonTextOf, parseJsonBody, rowOf, valueOf } from '../../webapp/src/saved-data/record-form.js';
import { PROJECT_FIELDS, PROJECT_ROWS, TEMPLATE_FIELDS, VEHICLE_FIELDS } from '../../webapp/src/saved-data/kinds.js';

const saved = {
  id: 'veh_1',
  object: 'vehicle',
  preset: false,
  name: 'Van',
  type: 'truck',
  length: 420,
  width: 200,
  height: 210,
  max_weight: 1200,
  blocked_areas: [{ x: 0, z: 0, length: 20, width: 20 }],
  created_at: '2026-11-23T10:00:00Z',
  updated_at: '2026-11-23T10:00:00Z',
  created_by: { id: 'usr_1', name: 'Ann' },
  updated_by: { id: 'usr_1', name: 'Ann' },
};

t.test('a record splits into input values and the other writable fields', async (t) => {
  const form = formOf(saved, VEHICLE_FIELDS);
  t.equal(form.values['length'], '420');
  t.equal(form.values['floor_load_capacity'], '', 'unset fields are empty');
  t.equal(form.values['aux_deck'], false, 'a boolean takes its default');
  t.same(form.extra, { blocked_areas: [{ x: 0, z: 0, length: 20, width: 20 }] }, 'read-only fields are dropped');
});

t.test('the body has parsed numbers, no empty inputs, and the extra fields', async (t) => {
  const form = formOf(saved, VEHICLE_FIELDS);
  form.values['height'] = '215.5';
  form.values['max_weight'] = '';
  t.same(bodyOf(VEHICLE_FIELDS, form), {
    blocked_areas: [{ x: 0, z: 0, length: 20, width: 20 }],
    name: 'Van',
    type: 'truck',
    length: 420,
    width: 200,
    height: 215.5,
    aux_deck: false,
  });
});

t.test('input values for the request', async (t) => {
  const number = { name: 'length', label: 'Length', kind: 'number' as const };
  t.equal(valueOf(number, ' 12,5 '), 12.5, 'a decimal comma is read');
  t.equal(valueOf(number, 'abc'), 'abc', 'junk is sent as typed for the service to name');
  t.equal(valueOf(number, '  '), undefined);
  t.equal(valueOf({ name: 'stackable', label: 'Stackable', kind: 'boolean' }, true), true);
  const stackable = TEMPLATE_FIELDS.find((f) => f.name === 'stackable')!;
  t.equal(
    formOf(null, TEMPLATE_FIELDS).values['stackable'],
    stackable.default,
    'a new template is stackable like the spec default',
  );
});

t.test('the JSON text round-trips without read-only fields', async (t) => {
  const text = jsonTextOf(bodyOf(VEHICLE_FIELDS, formOf(saved, VEHICLE_FIELDS)));
  const back = parseJsonBody(text.replace('"name": "Van"', '"name": "Van 2", "id": "veh_x", "created_at": "x"'));
  t.ok('body' in back);
  if ('body' in back) {
    t.equal(back.body['name'], 'Van 2');
    t.notOk('id' in back.body);
    t.notOk('created_at' in back.body);
  }
  t.match(parseJsonBody('{"name": '), { problem: /^not valid JSON/ });
  t.same(parseJsonBody('[1]'), { problem: 'the JSON must be an object ({ … })' });
});

t.test('a project: slots and items as rows, ids kept, the rest as extra', async (t) => {
  const project = {
    id: 'prj_1',
    object: 'project',
    name: 'Monday',
    vehicles: [{ id: 'pv_1', vehicle_id: 'van-3-5t', quantity: 2, max_weight: 900 }],
    items: [
      { id: 'item_1', label: 'Box', length: 60, width: 40, height: 40, weight: 12, quantity: 10, rotation: 'upright' },
    ],
    groups: [],
    options: { packing_mode: 'fleet_only' },
    plan: null,
    pdf_url: '',
    viewer_url: '',
    packing: null,
  };
  const form = formOf(project, PROJECT_FIELDS, PROJECT_ROWS);
  t.same(
    form.rows['vehicles']!.map((r) => [r.values['vehicle_id'], r.values['quantity'], r.extra]),
    [['van-3-5t', '2', { id: 'pv_1', max_weight: 900 }]],
  );
  t.same(form.extra, { groups: [], options: { packing_mode: 'fleet_only' } });
  form.rows['items']!.push(rowOf(null, PROJECT_ROWS[1]!.columns));
  form.rows['items']![1]!.values['template_id'] = 'tpl_9';
  form.rows['items']![1]!.values['quantity'] = '3';
  t.same(bodyOf(PROJECT_FIELDS, form, PROJECT_ROWS), {
    groups: [],
    options: { packing_mode: 'fleet_only' },
    name: 'Monday',
    vehicles: [{ id: 'pv_1', max_weight: 900, vehicle_id: 'van-3-5t', quantity: 2 }],
    items: [
      { id: 'item_1', rotation: 'upright', label: 'Box', length: 60, width: 40, height: 40, weight: 12, quantity: 10 },
      { template_id: 'tpl_9', quantity: 3 },
    ],
  });
});

t.test('a list field that is not a list of objects is kept for the service to name', async (t) => {
  const form = formOf({ name: 'x', items: 'none' }, PROJECT_FIELDS, PROJECT_ROWS);
  t.equal(form.rows['items'], undefined, 'no rows');
  t.equal(bodyOf(PROJECT_FIELDS, form, PROJECT_ROWS)['items'], 'none');
});
