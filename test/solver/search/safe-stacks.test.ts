/**
 * The safe stacking rules in the search, on hand cases from the wire (POST /v1/pack's check,
 * then one search worker at a fixed work budget): a 380 kg EUR pallet never ends on 8.5 kg
 * cartons, a unit never on units under half its weight, and 60 cartons on end in an empty van
 * load without a free tower at any step. Each case has its control with the rule turned off.
 */
import t from 'tap';
import { checkPackRequest } from '../../../api/http/pack-request/check.js';
import type { Plan } from '../../../domain/pack/plan.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { testContext } from '../../domain/pack/resolve/resolve-context.js';

const ctx = testContext();
const OFF = { pallets_on_cartons: true, heavy_on_light: 0, max_slenderness: 0 };

/** The request's model and its plan by one worker (4,000 block placements); throws on a 422. */
function plan(body: unknown): { plan: Plan; rules: string[] } {
  const checked = checkPackRequest(body, ctx);
  if (!checked.ok) throw new Error(JSON.stringify(checked.details));
  const found = search({ model: checked.model, worker: 0, stride: 1, deadline: Date.now() + 10_000, work: 4000 })
    .plans[0]!.plan;
  return { plan: found, rules: verifyPlan(checked.model, found).map((v) => v.rule) };
}

/** The placements of item `id` in vehicle 0 as `y` (cm above the floor) values. */
const heights = (p: Plan, id: string): number[] =>
  p.vehicles[0]!.placements.filter((q) => q.item_id === id).map((q) => q.y);

/**
 * A van 240 × 160 × 220 cm whose floor is covered by 6 pinned cartons 80 × 80 × 100 (8.5 kg;
 * a top narrower than every unit left is not kept as a space, so the tops are as wide as a pallet).
 */
const coveredVan = (items: object[], options: object = {}) => ({
  vehicles: [
    {
      id: 'van',
      type: 'truck',
      length: 240,
      width: 160,
      height: 220,
      max_weight: 3000,
      loaded: Array.from({ length: 6 }, (_, k) => ({
        item_id: 'mixer',
        x: 80 * (k % 3),
        y: 0,
        z: 80 * Math.floor(k / 3),
        orientation: 'lwh',
      })),
    },
  ],
  items: [{ id: 'mixer', length: 80, width: 80, height: 100, weight: 8.5, quantity: 6 }, ...items],
  options: { packing_mode: 'fleet_only', ...options },
});
const eur = { id: 'eur', shape: 'pallet', length: 120, width: 80, height: 110, weight: 380, quantity: 1 };

t.test('the 380 kg EUR pallet does not go onto 8.5 kg cartons; with the rules off it does', async (t) => {
  const safe = plan(coveredVan([eur]));
  t.same(safe.rules, []);
  t.same(heights(safe.plan, 'eur'), [], 'not placed');
  t.same(
    safe.plan.unplaced.map((u) => [u.item_id, u.reason]),
    [['eur', 'rule_pallets_on_cartons']],
  );
  const off = plan(coveredVan([eur], OFF));
  t.same(off.rules, []);
  t.same(heights(off.plan, 'eur'), [100], 'on the cartons, 1 m up');
  // Only the heavy-on-light rule on: the pallet is also kept off, for its weight.
  const heavy = plan(coveredVan([eur], { ...OFF, heavy_on_light: 2 }));
  t.same(
    heavy.plan.unplaced.map((u) => [u.item_id, u.reason]),
    [['eur', 'rule_heavy_on_light']],
  );
});

t.test('in a tautliner of cartons and EUR pallets, every pallet stands on the floor or on a pallet', async (t) => {
  const { plan: p, rules } = plan({
    vehicles: [{ id: 'tl', type: 'trailer', length: 1360, width: 248, height: 270, max_weight: 24000 }],
    items: [
      { id: 'mixer', length: 40, width: 30, height: 35, weight: 8.5, quantity: 600 },
      { ...eur, quantity: 8 },
    ],
  });
  t.same(rules, []);
  const units = p.vehicles.flatMap((v) => v.placements);
  const pallets = units.filter((q) => q.item_id === 'eur');
  t.equal(pallets.length, 8, 'all placed');
  for (const q of pallets) {
    const under = units.filter(
      (o) =>
        Math.abs(o.y + o.height - q.y) < 1e-6 &&
        o.x < q.x + q.length &&
        q.x < o.x + o.length &&
        o.z < q.z + q.width &&
        q.z < o.z + o.width,
    );
    t.ok(q.y === 0 || under.every((o) => o.item_id === 'eur'), `eur#${q.instance} at y ${q.y}`);
  }
});

t.test(
  'heavy on light: a 40 kg carton stays off 8.5 kg and 15 kg ones; a 15 kg carton may stand on 8.5 kg',
  async (t) => {
    const items = [
      { id: 'heavy', length: 40, width: 40, height: 40, weight: 40, quantity: 2 },
      { id: 'light', length: 40, width: 40, height: 40, weight: 15, quantity: 2 },
    ];
    const safe = plan(coveredVan(items));
    t.same(safe.rules, []);
    t.same(heights(safe.plan, 'light').sort(), [100, 140], 'on a carton, and on that one');
    t.same(
      safe.plan.unplaced.map((u) => [u.item_id, u.reason]),
      [
        ['heavy', 'rule_heavy_on_light'],
        ['heavy', 'rule_heavy_on_light'],
      ],
    );
    t.equal(heights(plan(coveredVan(items, OFF)).plan, 'heavy').length, 2, 'with the rules off both are loaded');
  },
);

t.test('60 cartons 30 × 25 × 40 in an empty van: all loaded, no free tower at any step', async (t) => {
  const { plan: p, rules } = plan({
    vehicles: [{ id: 'van', type: 'truck', length: 420, width: 175, height: 190, max_weight: 1100 }],
    items: [{ id: 'ctn', length: 30, width: 25, height: 40, weight: 6, quantity: 60 }],
  });
  t.same(rules, [], 'the verifier checks max_slenderness after every step');
  t.equal(p.vehicles[0]!.items_placed, 60);
});
