/**
 * Validators compiled on first use (api/http/schema-validator.ts): nothing is compiled until the
 * first call, then once; `errors` are those of the last call. And every exported validator of the
 * service compiles (Ajv strict mode accepts its schema) and checks a body, since no module load
 * does that any more.
 */
import t from 'tap';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { sharedOnFirstUse, validatorOnFirstUse } from '../../api/http/schema-validator.js';
import * as bodies from '../../api/web-app/bodies.js';
import { validateProjectInput, validateProjectPatch } from '../../api/http/projects/schema.js';
import { validateInput as validateWebhookInput } from '../../api/http/webhooks/shape.js';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../../api/http/pack-request/check.js';

t.test('compiled on the first call only, errors of the last call', async (t) => {
  let compiles = 0;
  const validate = validatorOnFirstUse(() => {
    compiles++;
    return new Ajv2020({ allErrors: true }).compile({ type: 'object', required: ['a'] });
  });
  t.equal(compiles, 0, 'not compiled when made');
  t.equal(validate.errors, undefined, 'no errors before a call');
  t.equal(validate({}), false);
  t.equal(validate.errors?.[0]?.keyword, 'required', 'the failed call left its errors');
  t.equal(validate({ a: 1 }), true);
  t.equal(validate.errors, null, 'a passing call clears them');
  t.equal(compiles, 1, 'compiled once');
});

t.test('a shared instance is made once, on first use', async (t) => {
  let made = 0;
  const shared = sharedOnFirstUse(() => ({ n: ++made }));
  t.equal(made, 0);
  t.equal(shared(), shared(), 'the same instance');
  t.equal(made, 1);
});

t.test('every exported validator of the service compiles and judges a body', async (t) => {
  const validators = {
    ...Object.fromEntries(Object.entries(bodies).filter(([name]) => name.startsWith('validate'))),
    validateProjectInput,
    validateProjectPatch,
    validateWebhookInput,
  } as Record<string, (value: unknown) => boolean>;
  t.ok(Object.keys(validators).length >= 11, `${Object.keys(validators).length} validators`);
  for (const [name, validate] of Object.entries(validators))
    t.equal(typeof validate([]), 'boolean', `${name} compiled and checked a body`);
  const checked = checkPackRequest({ vehicles: [], items: [] }, SCRIPT_CHECK_CONTEXT);
  t.equal(checked.ok, false, 'the pack request schema compiled and refused an empty request');
});
