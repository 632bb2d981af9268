/**
 * Nesting in the search (Item.nesting_height): buckets that telescope stack far higher in one
 * column, every plan verifies, and units turned on their side do not nest.
 */
import t from 'tap';
import type { ItemModel, PackModel } from '../../../domain/pack/plan.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';

/** Deterministic search budget of these tests: block placements per worker (search.ts SearchTask.work). */
const SEARCH_WORK = 4000;

const bucket = (o: Partial<ItemModel> = {}): ItemModel => ({
  id: 'bucket',
  label: 'bucket 20 l',
  shape: 'box',
  length: 40,
  width: 40,
  height: 30,
  weight: 1,
  quantity: 100,
  stackable: true,
  maxStackWeight: 0,
  nestingHeight: 24,
  orientations: ['lwh'],
  priority: 0,
  hazardous: false,
  group: null,
  groupOrder: Number.MAX_SAFE_INTEGER,
  color: null,
  ...o,
});
const model = (items: ItemModel[]): PackModel => ({
  vehicles: [
    {
      id: 'v',
      name: 'Van',
      type: 'truck',
      length: 80,
      width: 80,
      height: 120,
      maxWeight: 1000,
      quantity: 1,
      blockedAreas: [],
      floorLoadCapacity: 0,
      axles: null,
      auxDeck: null,
    },
  ],
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
const solve = (m: PackModel) =>
  search({ model: m, worker: 0, stride: 1, deadline: Date.now() + 3000, work: SEARCH_WORK }).plans[0]!.plan;

t.test('nested buckets: 4 columns of 16 (30 + 6 · 15 = 120 cm) instead of 4 of 4', async (t) => {
  const m = model([bucket()]);
  const p = solve(m);
  t.same(verifyPlan(m, p), []);
  t.equal(p.vehicles[0]!.items_placed, 64);
  t.equal(p.vehicles[0]!.volume_utilization, 1, 'four full-height nested columns fill the van');
  const flat = model([bucket({ nestingHeight: 0 })]);
  t.equal(solve(flat).vehicles[0]!.items_placed, 16, 'without nesting: 4 layers of 4');
});

t.test('a unit on its side does not nest', async (t) => {
  const m = model([bucket({ orientations: ['lhw'], length: 40, width: 30, height: 40, nestingHeight: 24 })]);
  const p = solve(m);
  t.same(verifyPlan(m, p), []);
  // On its side (width up, 30 cm): 4 layers of 2 × 2 = 16, none nested.
  t.equal(p.vehicles[0]!.items_placed, 16);
  t.ok(
    p.vehicles[0]!.placements.every((q) => q.y % 30 === 0),
    'layers every 30 cm',
  );
});

t.test('heights with many decimals nest and verify (no rounding mismatch in the figures)', async (t) => {
  for (const height of [14.80005, 14.80175]) {
    const m = model([bucket({ length: 80, width: 80, height, nestingHeight: 2.5, quantity: 6 })]);
    const p = solve(m);
    t.same(verifyPlan(m, p), [], `height ${height}`);
    t.equal(p.vehicles[0]!.items_placed, 6);
  }
});
