import t from 'tap';
import fc from 'fast-check';
import type { ItemModel, PackModel, VehicleModel } from '../../../domain/pack/plan.js';
import { compareScores, type Score } from '../../../solver/search/objective.js';
import {
  offerBest,
  stagnated,
  stagnationBoard,
  stagnationStopMs,
  STAGNATION_MIN_MS,
  STAGNATION_SHARE,
} from '../../../solver/search/stagnation.js';
import { Solver } from '../../../solver/solve.js';
import { verifyPlan } from '../../../solver/verify/verify.js';

const score = (o: Partial<Score> = {}): Score => ({
  volumeByPriority: [1000],
  placed: 10,
  vehicles: 1,
  utilization: 0.5,
  imbalance: 0.1,
  ...o,
});

t.test(
  'the stop time is the first moment that is both 1 s and 30 % of the time after the last improvement',
  async (t) => {
    t.equal(stagnationStopMs(0), 1000);
    t.equal(stagnationStopMs(1000), 2000);
    t.equal(stagnationStopMs(7000), 10_000);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (last) => {
        const stop = stagnationStopMs(last);
        // At the stop time the rule holds, one ms earlier it does not.
        const holds = (at: number): boolean => at - last >= Math.max(STAGNATION_MIN_MS, STAGNATION_SHARE * at) - 1e-9;
        return holds(stop) && !holds(stop - 1);
      }),
    );
  },
);

t.test('the board moves its stop time only for a plan the customer would see as better', async (t) => {
  const board = stagnationBoard(1, 10_000);
  t.notOk(stagnated(board, 10_000 + 60_000), 'no plan yet: never stagnated');
  t.ok(offerBest(board, score(), 10_100), 'a first plan is an improvement');
  t.notOk(stagnated(board, 11_099));
  t.ok(stagnated(board, 11_100), '1 s without a better plan');
  t.notOk(offerBest(board, score({ imbalance: 0 }), 10_500), 'a better balance alone is no improvement');
  t.notOk(offerBest(board, score({ utilization: 0.4 }), 10_500), 'a worse plan is none');
  t.ok(offerBest(board, score({ vehicles: 1, utilization: 0.6 }), 12_000), 'a higher fill is one');
  t.notOk(stagnated(board, 12_999));
  t.ok(stagnated(board, 13_000));
  t.ok(
    offerBest(board, score({ volumeByPriority: [1001], utilization: 0.1 }), 14_000),
    'more placed volume beats fill',
  );
});

const vehicle = (o: Partial<VehicleModel> = {}): VehicleModel => ({
  id: 'van',
  name: 'Van',
  type: 'truck',
  length: 300,
  width: 180,
  height: 180,
  maxWeight: 10_000,
  quantity: 1,
  blockedAreas: [],
  floorLoadCapacity: 0,
  axles: null,
  auxDeck: null,
  ...o,
});
const item = (o: Partial<ItemModel>): ItemModel => ({
  id: 'box',
  label: 'Box',
  shape: 'box',
  length: 50,
  width: 40,
  height: 30,
  weight: 10,
  quantity: 20,
  stackable: true,
  maxStackWeight: 0,
  nestingHeight: 0,
  orientations: ['lwh', 'wlh', 'lhw', 'hwl', 'whl', 'hlw'],
  priority: 0,
  hazardous: false,
  group: null,
  groupOrder: Number.MAX_SAFE_INTEGER,
  color: null,
  ...o,
});
/** More boxes of odd sizes than one van holds: no plan reaches the bound, so only the budget or stagnation ends the search. */
const overflow = (o: Partial<PackModel>): PackModel => ({
  vehicles: [vehicle()],
  items: [
    item({ id: 'a', length: 47, width: 33, height: 29, quantity: 120 }),
    item({ id: 'b', length: 61, width: 43, height: 37, quantity: 80 }),
    item({ id: 'c', length: 29, width: 23, height: 19, quantity: 160 }),
  ],
  packingMode: 'fleet_only',
  maxVehicles: 1,
  allowOverweight: false,
  maxStackItems: 0,
  maxStackDensity: 0,
  enforceAxle: false,
  groupRouting: 'none',
  budgetMs: 20_000,
  seed: 11,
  ...o,
});

const solver = new Solver({ threads: 2 });
t.teardown(() => solver.close());

t.test('an automatic budget ends once the search stops improving; an explicit one is used to its end', async (t) => {
  await solver.warm();
  const auto = await solver.solve(overflow({ budgetMode: 'automatic' }));
  if (auto.status !== 'solved') throw new Error(`automatic: ${auto.status}`);
  t.equal(auto.stopReason, 'stagnated');
  t.same(verifyPlan(overflow({}), auto.plan), []);
  // The last improvement of the solve's best (a worker's own new best may be worse than the other's).
  let best: Score | null = null,
    last = 0;
  for (const imp of auto.trace.improvements) {
    if (best && compareScores({ ...imp.score, imbalance: 0 }, { ...best, imbalance: 0 }) >= 0) continue;
    best = imp.score;
    last = imp.ms;
  }
  // It ran at least until the rule allowed it to stop, and stopped well before the 20 s budget.
  t.ok(auto.computeMs >= stagnationStopMs(last), `computed ${auto.computeMs} ms, last improvement at ${last} ms`);
  t.ok(auto.computeMs < 15_000, `computed ${auto.computeMs} ms of a 20,000 ms budget`);
  t.ok(
    auto.trace.firstBeamMs.every((ms) => ms !== null && ms <= auto.computeMs),
    'every worker completed its first beam round before stopping',
  );

  const explicit = await solver.solve(overflow({ budgetMode: 'explicit', budgetMs: 3000 }));
  if (explicit.status !== 'solved') throw new Error(`explicit: ${explicit.status}`);
  t.equal(explicit.stopReason, 'time_limit');
  t.ok(explicit.computeMs >= 2000, `an explicit 3 s budget computed ${explicit.computeMs} ms`);
});

t.test('deterministic mode never stops on stagnation', async (t) => {
  const det = await solver.solve(overflow({ budgetMode: 'automatic', workLimit: 3000, budgetMs: 60_000 }));
  if (det.status !== 'solved') throw new Error(det.status);
  t.equal(det.stopReason, 'work_limit');
  t.ok(det.work >= 2 * 3000, `both workers spent their work limit (${det.work} placements)`);
});

t.test('a plan at the bound says so', async (t) => {
  const fits = overflow({ budgetMode: 'automatic', items: [item({ quantity: 4 })] });
  const r = await solver.solve(fits);
  if (r.status !== 'solved') throw new Error(r.status);
  t.equal(r.stopReason, 'bound_reached');
});
