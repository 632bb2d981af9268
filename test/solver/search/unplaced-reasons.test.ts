import t from 'tap';
import type { PackModel, VehicleModel } from '../../../domain/pack/plan.js';
import { loadFleet } from '../../../solver/search/fleet-load.js';
import { jobContext } from '../../../solver/search/job-context.js';
import { assemblePlan } from '../../../solver/search/plan-assembly.js';
import { strategyAt } from '../../../solver/search/strategy.js';
import { workBudget } from '../../../solver/search/work-budget.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { item } from '../verify/plan-fixture.js';

const vehicle: VehicleModel = {
  id: 'van',
  name: 'Van',
  type: 'truck',
  length: 400,
  width: 200,
  height: 200,
  maxWeight: 1000,
  quantity: 1,
  blockedAreas: [],
  floorLoadCapacity: 0,
  axles: null,
  auxDeck: null,
};
/** Room for every unit, payload for some: the heavy units left out are left out for their weight. */
const model: PackModel = {
  vehicles: [vehicle],
  items: [
    item({ id: 'heavy', length: 50, width: 50, height: 50, weight: 150, quantity: 10, orientations: ['lwh', 'wlh'] }),
    item({ id: 'light', length: 50, width: 50, height: 50, weight: 5, quantity: 20, orientations: ['lwh', 'wlh'] }),
  ],
  packingMode: 'fleet_only',
  maxVehicles: 1,
  allowOverweight: false,
  maxStackItems: 0,
  maxStackDensity: 0,
  enforceAxle: false,
  groupRouting: 'none',
  budgetMs: 60_000,
  seed: 3,
};

t.test('units left out by the payload are unplaced for weight_limit after every kind of construction', async (t) => {
  const ctx = jobContext(model);
  // 0: greedy, 5: pilot, 10 and 11: the first beam searches (strategy.ts strategyAt).
  for (const index of [0, 5, 10, 11]) {
    const strategy = strategyAt(model.seed, index);
    const c = loadFleet(ctx, strategy, workBudget(Date.now() + 60_000, 100_000));
    const plan = assemblePlan(model, c);
    t.same(verifyPlan(model, plan), [], `${strategy.name}: the plan verifies`);
    const heavyLeft = plan.unplaced.filter((u) => u.item_id === 'heavy');
    t.ok(heavyLeft.length > 0, `${strategy.name}: the payload leaves heavy units out`);
    t.same(
      [...new Set(heavyLeft.map((u) => u.reason))],
      ['weight_limit'],
      `${strategy.name}: their reason is the payload`,
    );
  }
});
