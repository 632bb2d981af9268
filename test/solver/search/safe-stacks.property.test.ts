/**
 * The safe stacking rules, property-tested from the wire (fast-check): random jobs of cartons
 * and pallets of very different weights in vans and trailers, under a random set of the rules
 * (the defaults, each rule off, other ratios), give plans that pass the verifier under those
 * rules, which checks pallets_on_cartons and heavy_on_light on every contact and max_slenderness
 * after every loading step. The same jobs planned with the rules off break the defaults in some
 * runs, so the rules bind on these jobs and the property could fail.
 */
import fc from 'fast-check';
import t from 'tap';
import { checkPackRequest } from '../../../api/http/pack-request/check.js';
import { STACKING_DEFAULTS } from '../../../domain/pack/plan.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { testContext } from '../../domain/pack/resolve/resolve-context.js';
import { propertyRuns } from '../../helpers/property-runs.js';

/** Block placements per worker: a deterministic search (search.ts SearchTask.work). */
const SEARCH_WORK = 3000;
const ctx = testContext();

const item = fc.record({
  shape: fc.constantFrom('box', 'box', 'box', 'pallet'),
  length: fc.integer({ min: 20, max: 120 }),
  width: fc.integer({ min: 20, max: 100 }),
  height: fc.integer({ min: 15, max: 110 }),
  weight: fc.constantFrom(1, 4, 8.5, 15, 40, 120, 380),
  quantity: fc.integer({ min: 1, max: 40 }),
});
const rules = fc.oneof(
  fc.constant({}),
  fc.constant({ pallets_on_cartons: true, heavy_on_light: 0, max_slenderness: 0 }),
  fc.record({
    pallets_on_cartons: fc.boolean(),
    heavy_on_light: fc.constantFrom(0, 1, 1.5, 2, 4),
    max_slenderness: fc.constantFrom(0, 1, 2, 3, 5),
  }),
);
const request = fc.record({
  vehicle: fc.constantFrom(
    { type: 'truck', length: 420, width: 175, height: 190, max_weight: 3000 },
    { type: 'trailer', length: 1360, width: 248, height: 270, max_weight: 24000 },
  ),
  items: fc.array(item, { minLength: 1, maxLength: 5 }),
  options: rules,
});

t.test('plans keep the rules they were made under, at every step', async (t) => {
  const runs = propertyRuns(30, 43);
  let planned = 0;
  fc.assert(
    fc.property(request, ({ vehicle, items, options }) => {
      const body = {
        vehicles: [{ id: 'v', ...vehicle }],
        items: items.map((it, i) => ({ ...it, id: `i${i}` })),
        options,
      };
      const o = checkPackRequest(body, ctx);
      if (!o.ok) return;
      planned++;
      const plan = search({ model: o.model, worker: 0, stride: 1, deadline: Date.now() + 5000, work: SEARCH_WORK })
        .plans[0]!.plan;
      const violations = verifyPlan(o.model, plan);
      if (violations.length > 0) throw new Error(`verifier: ${JSON.stringify(violations.slice(0, 3))}`);
    }),
    runs,
  );
  t.ok(planned >= runs.numRuns / 2, `${planned} of ${runs.numRuns} requests were valid and planned`);
});

t.test('the same kind of jobs planned with the rules off break the defaults in some runs', async (t) => {
  const broken = new Set<string>();
  fc.assert(
    fc.property(request, ({ vehicle, items }) => {
      const body = {
        vehicles: [{ id: 'v', ...vehicle }],
        items: items.map((it, i) => ({ ...it, id: `i${i}` })),
        options: { pallets_on_cartons: true, heavy_on_light: 0, max_slenderness: 0 },
      };
      const o = checkPackRequest(body, ctx);
      if (!o.ok) return;
      const plan = search({ model: o.model, worker: 0, stride: 1, deadline: Date.now() + 5000, work: SEARCH_WORK })
        .plans[0]!.plan;
      for (const v of verifyPlan({ ...o.model, stacking: STACKING_DEFAULTS }, plan)) broken.add(v.rule);
    }),
    { numRuns: 30, seed: 43 },
  );
  t.same([...broken].sort(), ['heavy_on_light', 'max_slenderness', 'pallets_on_cartons']);
});
