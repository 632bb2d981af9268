/**
 * The safe stacking options of a request (domain/pack/resolve/stacking-rules.ts): the defaults
 * when left out, each option on its own, and ratios between 0 and 1 refused at their path.
 */
import t from 'tap';
import { STACKING_DEFAULTS } from '../../../../domain/pack/plan.js';
import { resolvePackRequest } from '../../../../domain/pack/resolve/resolve.js';
import type { OptionsInput } from '../../../../domain/pack/request.js';
import { testContext } from './resolve-context.js';

const body = (options: OptionsInput) => ({
  vehicles: [{ id: 'v', type: 'truck' as const, length: 400, width: 200, height: 200, max_weight: 1000 }],
  items: [{ id: 'c', length: 40, width: 30, height: 30, weight: 8 }],
  options,
});

t.test('left out: pallets off cartons, heavy_on_light 2, max_slenderness 3', async (t) => {
  const o = resolvePackRequest(body({}), testContext());
  t.ok(o.ok);
  if (o.ok) t.same(o.model.stacking, { palletsOnCartons: false, heavyOnLight: 2, maxSlenderness: 3 });
  t.same(STACKING_DEFAULTS, { palletsOnCartons: false, heavyOnLight: 2, maxSlenderness: 3 });
});

t.test('each option is read on its own; 0 turns a ratio off', async (t) => {
  const o = resolvePackRequest(
    body({ pallets_on_cartons: true, heavy_on_light: 0, max_slenderness: 4.5 }),
    testContext(),
  );
  t.ok(o.ok);
  if (o.ok) t.same(o.model.stacking, { palletsOnCartons: true, heavyOnLight: 0, maxSlenderness: 4.5 });
  const p = resolvePackRequest(body({ heavy_on_light: 1 }), testContext());
  if (p.ok) t.same(p.model.stacking, { palletsOnCartons: false, heavyOnLight: 1, maxSlenderness: 3 });
  else t.fail('heavy_on_light 1 is valid');
});

t.test('a ratio between 0 and 1 is out_of_range at its path', async (t) => {
  const o = resolvePackRequest(body({ heavy_on_light: 0.5, max_slenderness: 0.9 }), testContext());
  t.notOk(o.ok);
  if (!o.ok)
    t.same(o.details, [
      {
        path: 'options.heavy_on_light',
        code: 'out_of_range',
        message: 'is 0.5; give 0 to turn the rule off, or a ratio of at least 1',
      },
      {
        path: 'options.max_slenderness',
        code: 'out_of_range',
        message: 'is 0.9; give 0 to turn the rule off, or a ratio of at least 1',
      },
    ]);
});
