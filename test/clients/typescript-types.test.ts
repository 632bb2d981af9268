/**
 * The client's types are generated from the service's OpenAPI document (one
 * source of truth): the committed clients/typescript/src/generated/openapi.ts is exactly what
 * the generator writes from today's document, and PackingClient has a method for every
 * operation (named by its operationId).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { renderTypes, serviceDocument, typeOf } from '../../clients/typescript/scripts/generate-types.js';
import { OPERATIONS, PackingClient } from '../../clients/typescript/src/index.js';

const GENERATED = new URL('../../clients/typescript/src/generated/openapi.ts', import.meta.url);

t.test('the committed types are what the generator writes from the current document', async (t) => {
  const expected = renderTypes(await serviceDocument());
  const committed = readFileSync(GENERATED, 'utf8');
  t.ok(
    committed === expected,
    'clients/typescript/src/generated/openapi.ts is up to date (run: cd clients/typescript && npm run generate)',
  );
});

t.test('a change of the document changes the generated types (the drift check can fail)', async (t) => {
  const document = await serviceDocument();
  const changed = structuredClone(document) as any;
  changed.components.schemas.Balance.properties.bonus_credits = { type: 'number', description: 'new' };
  t.not(renderTypes(changed), renderTypes(document));
  t.match(renderTypes(changed), /bonus_credits\?: number;/);
});

t.test('JSON Schema to TypeScript', async (t) => {
  t.equal(typeOf({ type: ['string', 'null'] }), 'string | null');
  t.equal(typeOf({ enum: ['a', 'b'] }), '"a" | "b"');
  t.equal(typeOf({ const: 'job' }), '"job"');
  t.equal(typeOf({ type: 'array', items: { $ref: '#/components/schemas/Job' } }), 'Job[]');
  t.equal(typeOf({ $ref: '#/components/schemas/Error' }), 'ErrorEnvelope', 'no type shadows the global Error');
  t.equal(typeOf({ oneOf: [{ $ref: '#/components/schemas/JobError' }, { type: 'null' }] }), 'JobError | null');
  t.equal(
    typeOf({ type: 'object', required: ['a'], properties: { a: { type: 'integer' }, b: { type: 'boolean' } } }),
    '{\n  a: number;\n  b?: boolean;\n}',
  );
  t.throws(() => typeOf({ $ref: 'other.json#/X' }), /unsupported \$ref/);
});

t.test('PackingClient has a method for every operation of the document', async (t) => {
  const document = (await serviceDocument()) as { paths: Record<string, Record<string, { operationId: string }>> };
  const operationIds = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
  t.same(Object.keys(OPERATIONS).sort(), [...operationIds].sort(), 'OPERATIONS lists every operation');
  const missing = operationIds.filter(
    (id) => typeof (PackingClient.prototype as unknown as Record<string, unknown>)[id] !== 'function',
  );
  t.same(missing, [], 'no operation without a client method');
});
