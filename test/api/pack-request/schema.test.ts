import t from 'tap';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PACK_REQUEST_SCHEMA } from '../../../api/http/pack-request/schema.js';

t.test('the schema is plain JSON and documents every sub-schema', async (t) => {
  t.same(JSON.parse(JSON.stringify(PACK_REQUEST_SCHEMA)), PACK_REQUEST_SCHEMA);
  t.same(Object.keys(PACK_REQUEST_SCHEMA.$defs), ['Rect', 'Vehicle', 'LoadedUnit', 'Item', 'Group', 'Options']);
  for (const [name, def] of Object.entries(PACK_REQUEST_SCHEMA.$defs)) {
    t.equal(def.title, name);
    t.ok(def.description.length > 10, `${name} has a description`);
    t.equal(def.additionalProperties, false, `${name} rejects unknown fields`);
  }
});

t.test('every object in the schema rejects unknown fields', async (t) => {
  const open: string[] = [];
  const walk = (s: unknown, at: string): void => {
    if (typeof s !== 'object' || s === null) return;
    const o = s as Record<string, unknown>;
    if (o.type === 'object' && o.additionalProperties !== false) open.push(at);
    for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
  };
  walk(PACK_REQUEST_SCHEMA, '#');
  t.same(open, []);
});

t.test('the schema compiles in strict mode', async (t) => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validate = ajv.compile(PACK_REQUEST_SCHEMA);
  t.equal(validate({ vehicles: [{ vehicle_id: 'x' }], items: [{ template_id: 'tpl_x' }] }), true);
  t.equal(validate({ vehicles: [], items: [] }), false);
});
