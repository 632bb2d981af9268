/**
 * The second deck (spec Vehicle.aux_deck): a double-deck trailer carries pallets under the deck
 * and on it, never through it, with at most aux_deck_max_weight on the deck; the verifier checks
 * the same (rule aux_deck) and takes the deck as the support of the units on it.
 */
import t from 'tap';
import type { ItemModel, PackModel, Plan, VehicleModel } from '../../../domain/pack/plan.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';

/** Deterministic search budget of these tests: block placements per worker (search.ts SearchTask.work). */
const SEARCH_WORK = 4000;

const trailer = (o: Partial<VehicleModel> = {}): VehicleModel => ({
  id: 'dd',
  name: 'Double-deck trailer',
  type: 'trailer',
  length: 1360,
  width: 248,
  height: 290,
  maxWeight: 24_000,
  quantity: 1,
  blockedAreas: [],
  floorLoadCapacity: 0,
  axles: null,
  auxDeck: { height: 140, maxWeight: 6000 },
  ...o,
});
const pallet = (o: Partial<ItemModel> = {}): ItemModel => ({
  id: 'pallet',
  label: 'pallet',
  shape: 'pallet',
  length: 120,
  width: 80,
  height: 130,
  weight: 400,
  quantity: 66,
  stackable: false,
  maxStackWeight: 0,
  nestingHeight: 0,
  orientations: ['lwh', 'wlh'],
  priority: 0,
  hazardous: false,
  group: null,
  groupOrder: Number.MAX_SAFE_INTEGER,
  color: null,
  ...o,
});
const model = (v: VehicleModel, items: ItemModel[] = [pallet()]): PackModel => ({
  vehicles: [v],
  items,
  packingMode: 'fleet_only',
  maxVehicles: 1,
  allowOverweight: false,
  maxStackItems: 0,
  maxStackDensity: 0,
  enforceAxle: false,
  groupRouting: 'none',
  budgetMs: 500,
  seed: 1,
});
const solve = (m: PackModel): Plan =>
  search({ model: m, worker: 0, stride: 1, deadline: Date.now() + 3000, work: SEARCH_WORK }).plans[0]!.plan;

t.test('pallets load under and on the deck; the deck carries at most its maximum', async (t) => {
  const m = model(trailer());
  const p = solve(m);
  t.same(verifyPlan(m, p), []);
  const ps = p.vehicles[0]!.placements;
  const lower = ps.filter((q) => q.y === 0),
    upper = ps.filter((q) => q.y === 140);
  t.equal(lower.length + upper.length, ps.length, 'every pallet stands on the floor or on the deck');
  // 2 across (120 cm) × 17 deep (80 cm) = 34 on a 1360 × 248 floor.
  t.equal(lower.length, 34, `${lower.length} non-stackable pallets on the floor`);
  // 6000 kg on the deck: 15 pallets of 400 kg.
  t.equal(upper.length, 15);
  t.same(
    [...new Set(p.unplaced.map((u) => u.reason))],
    ['weight_limit'],
    'the rest is unplaced: the deck is full by weight',
  );
  const single = model(trailer({ auxDeck: null }));
  t.equal(solve(single).vehicles[0]!.placements.length, 34, 'without the deck: one floor of 34');
});

t.test('the verifier rejects a unit through the deck and an overloaded deck', async (t) => {
  const m = model(trailer());
  const p = solve(m);
  const q = p.vehicles[0]!.placements.find((x) => x.y === 140)!;
  const crossing = structuredClone(p);
  crossing.vehicles[0]!.placements.find((x) => x.item_id === q.item_id && x.instance === q.instance)!.y = 100;
  t.ok(
    verifyPlan(m, crossing).some((v) => v.rule === 'aux_deck' && /through the second deck at 140 cm/.test(v.message)),
  );
  const weak = model(trailer({ auxDeck: { height: 140, maxWeight: 5000 } }));
  t.match(
    verifyPlan(weak, p).map((v) => v.message),
    [/The second deck of vehicle 0 carries 6000 kg; aux_deck_max_weight is 5000 kg/],
  );
});

t.test('with a group routing, units on the deck do not wait for what ends under the deck', async (t) => {
  // A (120 cm) only fits on the deck at 100 cm; B (100 cm) ends exactly under it.
  const box = (id: string, height: number, order: number) =>
    pallet({
      id,
      label: id,
      shape: 'box',
      height,
      weight: 10,
      quantity: 2,
      stackable: true,
      group: id,
      groupOrder: order,
      length: 120,
      width: 120,
      orientations: ['lwh'],
    });
  for (const routing of ['routing', 'no_stack', 'wall', 'none'] as const) {
    const m = {
      ...model(
        trailer({ length: 240, width: 120, height: 250, maxWeight: 5000, auxDeck: { height: 100, maxWeight: 1000 } }),
        [box('A', 120, 1), box('B', 100, 2)],
      ),
      groupRouting: routing,
    };
    t.same(verifyPlan(m, solve(m)), [], routing);
  }
});
