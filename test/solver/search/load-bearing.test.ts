/**
 * The search under load limits (solver/search/load-bearing.ts): stacks stop where a unit would
 * carry more than max_stack_weight, heavy units stay off a weak floor (unplaced `load_limit`),
 * and a unit's top takes only what it can bear. Every plan passes the verifier.
 */
import t from 'tap';
import type { ItemModel, PackModel, VehicleModel } from '../../../domain/pack/plan.js';
import { capacityAbove, layersByLoad } from '../../../solver/search/load-bearing.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';

/** Deterministic search budget of these tests: block placements per worker (search.ts SearchTask.work). */
const SEARCH_WORK = 4000;

const vehicle = (o: Partial<VehicleModel> = {}): VehicleModel => ({
  id: 'v',
  name: 'V',
  type: 'truck',
  length: 200,
  width: 100,
  height: 200,
  maxWeight: 1e6,
  quantity: 1,
  blockedAreas: [],
  floorLoadCapacity: 0,
  axles: null,
  auxDeck: null,
  ...o,
});
const box = (o: Partial<ItemModel>): ItemModel => ({
  id: 'b',
  label: 'b',
  shape: 'box',
  length: 50,
  width: 50,
  height: 40,
  weight: 20,
  quantity: 40,
  stackable: true,
  maxStackWeight: 0,
  nestingHeight: 0,
  orientations: ['lwh'],
  priority: 0,
  hazardous: false,
  group: null,
  groupOrder: Number.MAX_SAFE_INTEGER,
  color: null,
  ...o,
});
const model = (o: Partial<PackModel>): PackModel => ({
  vehicles: [vehicle()],
  items: [box({})],
  packingMode: 'fleet_only',
  maxVehicles: 1,
  allowOverweight: false,
  maxStackItems: 0,
  maxStackDensity: 0,
  enforceAxle: false,
  groupRouting: 'none',
  budgetMs: 300,
  seed: 1,
  ...o,
});
const plan = (m: PackModel) =>
  search({ model: m, worker: 0, stride: 1, deadline: Date.now() + 2000, work: SEARCH_WORK }).plans[0]!.plan;
const highest = (p: ReturnType<typeof plan>) =>
  Math.max(...p.vehicles.flatMap((v) => v.placements.map((q) => q.y + q.height)));

t.test('column arithmetic: layers by pressure and by max_stack_weight, capacity left on top', async (t) => {
  const kind = { weight: 20, maxStackWeight: 50 };
  // 2500 cm² on 0.1 kg/cm² bears 250 kg: 12 units by pressure; 50 kg on the bottom unit: 3 units.
  t.equal(layersByLoad(kind, 2500, 0.1), 3);
  t.equal(layersByLoad({ weight: 20, maxStackWeight: 0 }, 2500, 0.1), 12);
  t.equal(layersByLoad({ weight: 0, maxStackWeight: 5 }, 2500, 0), Infinity, 'weightless units load nothing');
  // 2 layers: the bottom carries 20 of 50 kg; 30 kg left on 2500 cm².
  t.equal(capacityAbove(kind, 2500, 2, Infinity), 30 / 2500);
  t.equal(capacityAbove(kind, 2500, 2, 0.02), (50 - 40) / 2500, 'the surface under the column is the tighter limit');
  t.equal(capacityAbove(kind, 2500, 3, 0.02), 0, 'never below 0');
});

t.test('max_stack_weight shortens the stacks; the plan verifies', async (t) => {
  // 8 floor cells of 50 × 50; 20 kg cartons carrying at most 40 kg: 3 high, so 24 of 40 fit.
  const m = model({ items: [box({ maxStackWeight: 40 })] });
  const p = plan(m);
  t.same(verifyPlan(m, p), []);
  t.equal(highest(p), 120, 'three layers of 40 cm');
  t.equal(p.vehicles[0]!.placements.length, 24);
  t.same([...new Set(p.unplaced.map((u) => u.reason))], ['load_limit']);
  const free = plan(model({}));
  t.equal(free.vehicles[0]!.placements.length, 40, 'without the limit all 40 fit (5 layers)');
});

t.test('a floor too weak for a unit leaves it unplaced for load_limit; lighter ones still load', async (t) => {
  // 1000 kg on 0.25 m² is 4000 kg/m²; the floor takes 2000 kg/m². 100 kg cartons press 400 kg/m².
  const m = model({
    vehicles: [vehicle({ floorLoadCapacity: 2000 })],
    items: [box({ id: 'heavy', weight: 1000, quantity: 2 }), box({ id: 'light', weight: 100, quantity: 10 })],
  });
  const p = plan(m);
  t.same(verifyPlan(m, p), []);
  t.same(
    p.unplaced.map((u) => `${u.item_id}#${u.instance} ${u.reason}`),
    ['heavy#1 load_limit', 'heavy#2 load_limit'],
  );
  // A stack of light cartons may press 2000 kg/m² = 500 kg on 0.25 m²: 5 layers.
  t.equal(p.vehicles[0]!.placements.length, 10);
  t.ok(highest(p) <= 200);
});

t.test('max_stack_density_kg_m2 caps the stack weight per footprint like a floor limit', async (t) => {
  // 20 kg on 0.25 m² = 80 kg/m² per layer; 250 kg/m² allows 3 layers.
  const m = model({ maxStackDensity: 250 });
  const p = plan(m);
  t.same(verifyPlan(m, p), []);
  t.equal(highest(p), 120);
  t.equal(p.vehicles[0]!.placements.length, 24);
});
