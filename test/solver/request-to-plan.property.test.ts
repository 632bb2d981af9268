/**
 * From the wire to a verified plan: random valid requests using every packing field of the spec
 * (load limits, second decks, axle models with enforce_axle, hazardous items, nesting, group
 * routings, the safe stacking rules; boxes, pallets, bags, cylinders and drums) are checked like POST /v1/pack checks
 * them, searched, and the plan must pass the verifier. Covers the mapping of request fields to the model as much as the search.
 */
import t from 'tap';
import fc from 'fast-check';
import { checkPackRequest } from '../../api/http/pack-request/check.js';
import { search } from '../../solver/search/search.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import { testContext } from '../domain/pack/resolve/resolve-context.js';
import { propertyRuns } from '../helpers/property-runs.js';

/** Deterministic search budget of these tests: block placements per worker (search.ts SearchTask.work). */
const SEARCH_WORK = 4000;

const ctx = testContext({ axleAccess: true });
const semi = {
  tractor_weight: 7500,
  empty_trailer_weight: 6500,
  front_axle_to_middle_axle: 360,
  front_axle_to_tractor_cog: 150,
  front_axle_to_kingpin: 300,
  kingpin_to_rear_axle: 770,
  trailer_cog_to_rear_axle: 350,
  trailer_start_to_kingpin: 120,
  max_middle_axle_weight: 11500,
  max_rear_axle_weight: 24000,
};
const vehicle = fc
  .record({
    type: fc.constantFrom('truck', 'trailer', 'container'),
    length: fc.integer({ min: 300, max: 1360 }),
    width: fc.integer({ min: 200, max: 248 }),
    height: fc.integer({ min: 200, max: 300 }),
    max_weight: fc.integer({ min: 2000, max: 24000 }),
    floor_load_capacity: fc.constantFrom(0, 0, 1500, 5000),
    deck: fc.option(fc.record({ at: fc.integer({ min: 100, max: 180 }), kg: fc.integer({ min: 200, max: 8000 }) }), {
      nil: null,
    }),
    axles: fc.constantFrom('none', 'positions', 'semi'),
    cog: fc.option(fc.integer({ min: 50, max: 150 }), { nil: null }),
  })
  .map((v) => ({
    type: v.type,
    length: v.length,
    width: v.width,
    height: v.height,
    max_weight: v.max_weight,
    floor_load_capacity: v.floor_load_capacity,
    ...(v.deck ? { aux_deck: true, aux_deck_height: v.deck.at, aux_deck_max_weight: v.deck.kg } : {}),
    ...(v.axles === 'positions'
      ? {
          axle_positions: [-100, Math.round(v.length * 0.8)],
          axle_max_loads: [Math.round(v.max_weight * 0.45), Math.round(v.max_weight * 0.7)],
        }
      : {}),
    ...(v.axles === 'semi' ? semi : {}),
    ...(v.cog !== null ? { cog_range_x: Math.min(v.cog, v.length / 2) } : {}),
  }));
const item = fc
  .record({
    shape: fc.constantFrom('box', 'pallet', 'bag', 'cylinder', 'drum'),
    length: fc.integer({ min: 20, max: 120 }),
    width: fc.integer({ min: 20, max: 120 }),
    height: fc.integer({ min: 10, max: 120 }),
    weight: fc.integer({ min: 1, max: 600 }),
    quantity: fc.integer({ min: 1, max: 40 }),
    rotation: fc.constantFrom('all', 'upright', 'fixed'),
    stackable: fc.boolean(),
    max_stack_weight: fc.constantFrom(0, 0, 50, 400),
    hazardous: fc.constantFrom(false, false, true),
    nesting: fc.constantFrom(0, 0, 0.5),
    priority: fc.integer({ min: 0, max: 2 }),
    group: fc.constantFrom('Stop 1', 'Stop 2', 'Stop 3'),
  })
  .map(({ nesting, length, width, ...it }) => ({
    ...it,
    nesting_height: Math.floor(it.height * nesting),
    // Cylinders and drums are given by a radius instead of length and width.
    ...(it.shape === 'cylinder' || it.shape === 'drum'
      ? { radius: Math.floor(Math.min(length, width) / 2) }
      : { length, width }),
  }));
const request = fc
  .record({
    vehicles: fc.array(vehicle, { minLength: 1, maxLength: 2 }),
    items: fc.array(item, { minLength: 1, maxLength: 4 }),
    routing: fc.constantFrom('none', 'wall', 'routing', 'no_stack'),
    density: fc.constantFrom(0, 0, 3000),
    enforce: fc.boolean(),
    mode: fc.constantFrom('auto', 'fleet_only'),
    // The safe stacking rules: the defaults, all off, or stricter ratios.
    stacking: fc.constantFrom(
      {},
      { pallets_on_cartons: true, heavy_on_light: 0, max_slenderness: 0 },
      {
        heavy_on_light: 1.5,
        max_slenderness: 2,
      },
    ),
  })
  .map((r) => ({
    vehicles: r.vehicles.map((v, i) => ({ ...v, id: `v${i}` })),
    items: r.items.map((it, i) => ({ ...it, id: `i${i}` })),
    groups: [{ name: 'Stop 1' }, { name: 'Stop 2' }, { name: 'Stop 3' }],
    options: {
      group_routing: r.routing,
      max_stack_density_kg_m2: r.density,
      enforce_axle: r.enforce,
      packing_mode: r.mode,
      ...r.stacking,
    },
  }));

t.test('random requests with every packing field give plans that pass the verifier', async (t) => {
  const runs = propertyRuns(40, 31);
  let checked = 0;
  fc.assert(
    fc.property(request, (body) => {
      const o = checkPackRequest(body, ctx);
      if (!o.ok) return; // e.g. an item that fits no vehicle: a 422, not a plan
      checked++;
      const plan = search({ model: o.model, worker: 0, stride: 1, deadline: Date.now() + 3000, work: SEARCH_WORK })
        .plans[0]?.plan;
      if (!plan) throw new Error('no plan');
      const violations = verifyPlan(o.model, plan);
      if (violations.length > 0) throw new Error(`verifier: ${JSON.stringify(violations.slice(0, 3))}`);
    }),
    runs,
  );
  t.ok(checked >= runs.numRuns / 2, `${checked} of ${runs.numRuns} requests were valid and planned`);
});
