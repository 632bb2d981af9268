import t from 'tap';
import fc from 'fast-check';
import type { PackModel, VehicleModel } from '../../../domain/pack/plan.js';
import { compareScores, type Score } from '../../../solver/search/score.js';
import {
  offerBest,
  stagnated,
  stagnationBoard,
  stagnatedAt,
  STAGNATION_BUDGET_SHARE,
  STAGNATION_LEFT_OVER_FACTOR,
  STAGNATION_MIN_MS,
  STAGNATION_SHARE,
  countWork,
} from '../../../solver/search/stagnation.js';
import { Solver } from '../../../solver/solve.js';
import { verifyPlan } from '../../../solver/verify/verify.js';
import { item } from '../verify/plan-fixture.js';
import { solverThreadModule } from '../../helpers/compiled-service.js';

const score = (o: Partial<Score> = {}): Score => ({
  volumeByPriority: [1000],
  placed: 10,
  vehicles: 1,
  utilization: 0.5,
  imbalance: 0.1,
  ...o,
});

t.test('stagnated: no better plan for max(the least time, 30 % of the time) and for 30 % of the work', async (t) => {
  const last = { ms: 2000, work: 10_000 };
  t.notOk(stagnatedAt(last, { ms: 2999, work: 1_000_000 }, 1000), 'less than the least time');
  t.ok(stagnatedAt(last, { ms: 3000, work: 1_000_000 }, 1000));
  t.notOk(stagnatedAt(last, { ms: 3000, work: 12_000 }, 1000), 'too little work since');
  t.notOk(stagnatedAt({ ms: 7000, work: 0 }, { ms: 9999, work: 1_000_000 }, 1000), 'less than 30 % of the time');
  t.ok(stagnatedAt({ ms: 7000, work: 0 }, { ms: 9999, work: 1_000_000 }, 1000, 0.18), '18 % of the time will do');
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 100_000 }),
      fc.integer({ min: 0, max: 100_000 }),
      fc.integer({ min: 0, max: 10_000_000 }),
      fc.integer({ min: 0, max: 10_000_000 }),
      fc.integer({ min: 1, max: 10_000 }),
      (lastMs, dMs, lastWork, dWork, minMs) => {
        const now = { ms: lastMs + dMs, work: lastWork + dWork };
        const expected = dMs >= Math.max(minMs, STAGNATION_SHARE * now.ms) && dWork >= STAGNATION_SHARE * now.work;
        return stagnatedAt({ ms: lastMs, work: lastWork }, now, minMs) === expected;
      },
    ),
  );
});

t.test(
  'the board: the least time is 1 s or 30 % of the budget; only a better plan for the customer counts',
  async (t) => {
    t.equal(stagnationBoard(1, 3000, 0, 10).minMs, STAGNATION_MIN_MS);
    t.equal(stagnationBoard(1, 20_000, 0, 10).minMs, 20_000 * STAGNATION_BUDGET_SHARE);
    t.equal(
      stagnationBoard(1, 20_000, 0, 10).leftOverMinMs,
      20_000 * STAGNATION_BUDGET_SHARE * STAGNATION_LEFT_OVER_FACTOR,
    );
    const origin = 50_000;
    // Every unit placed by the plans offered (10 of 10).
    const board = stagnationBoard(1, 3000, origin, 10);
    countWork(board, 1000);
    t.notOk(stagnated(board, origin + 60_000), 'no plan yet: never stagnated');
    t.ok(offerBest(board, score(), origin + 100), 'a first plan is an improvement');
    t.notOk(stagnated(board, origin + 1099), 'not 1 s yet');
    t.notOk(stagnated(board, origin + 1100), '1 s, but no work since');
    countWork(board, 500);
    t.ok(stagnated(board, origin + 1100), '1 s and a third of the work without a better plan');
    t.notOk(offerBest(board, score({ imbalance: 0 }), origin + 1200), 'a better balance alone is no improvement');
    t.notOk(offerBest(board, score({ utilization: 0.4 }), origin + 1200), 'a worse plan is none');
    t.ok(stagnated(board, origin + 1200));
    t.ok(offerBest(board, score({ utilization: 0.6 }), origin + 1200), 'a higher fill is one');
    t.notOk(stagnated(board, origin + 1300));
    t.ok(
      offerBest(board, score({ volumeByPriority: [1001], utilization: 0.1 }), origin + 1300),
      'more volume beats fill',
    );
  },
);

t.test('while the best plan leaves units unplaced, the windows are shorter', async (t) => {
  const origin = 0;
  // A 20 s budget: 6 s without a better plan once every unit is placed, 3.6 s while units are left.
  const left = stagnationBoard(1, 20_000, origin, 11);
  const all = stagnationBoard(1, 20_000, origin, 10);
  for (const board of [left, all]) {
    countWork(board, 1000);
    offerBest(board, score({ placed: 10 }), origin + 100);
    countWork(board, 100_000);
  }
  t.notOk(stagnated(left, origin + 3699), 'units left: not 3.6 s yet');
  t.ok(stagnated(left, origin + 3700), 'units left: 3.6 s without a better plan');
  t.notOk(stagnated(all, origin + 3700), 'every unit placed: not 6 s yet');
  t.notOk(stagnated(all, origin + 6099));
  t.ok(stagnated(all, origin + 6100), 'every unit placed: 6 s without a better plan');
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
/** More boxes of odd sizes than one van holds: no plan reaches the bound, so only the budget or stagnation ends the search. */
const overflow = (o: Partial<PackModel>): PackModel => ({
  vehicles: [vehicle()],
  items: [
    item({ id: 'a', length: 47, width: 33, height: 29, weight: 10, quantity: 120 }),
    item({ id: 'b', length: 61, width: 43, height: 37, weight: 10, quantity: 80 }),
    item({ id: 'c', length: 29, width: 23, height: 19, weight: 10, quantity: 160 }),
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

const solver = new Solver({ threads: 2, threadModule: solverThreadModule() });
t.teardown(() => solver.close());

t.test('an automatic budget ends once the search stops improving; an explicit one is used to its end', async (t) => {
  await solver.warm();
  const auto = await solver.solve(overflow({ budgetMode: 'automatic' }));
  if (auto.status !== 'solved') throw new Error(`automatic: ${auto.status}`);
  t.equal(auto.stopReason, 'stagnated');
  t.same(verifyPlan(overflow({}), auto.plan), []);
  // The last improvement of the solve's best (a worker's own new best may be worse than the other's).
  let best: Score | null = null,
    last = { ms: 0, work: 0 };
  for (const imp of auto.trace.improvements) {
    if (best && compareScores({ ...imp.score, imbalance: 0 }, { ...best, imbalance: 0 }) >= 0) continue;
    best = imp.score;
    last = imp;
  }
  // It ran at least until the rule allowed it to stop, and stopped well before the 20 s budget.
  // Units are left over: the shorter windows apply.
  const leftOverMs = 20_000 * STAGNATION_BUDGET_SHARE * STAGNATION_LEFT_OVER_FACTOR;
  t.ok(
    stagnatedAt(
      last,
      { ms: auto.computeMs, work: auto.work },
      leftOverMs,
      STAGNATION_SHARE * STAGNATION_LEFT_OVER_FACTOR,
    ),
    `stopped at ${auto.computeMs} ms and ${auto.work} placements, last improvement at ${last.ms} ms and ${last.work}`,
  );
  t.ok(auto.computeMs < 15_000, `computed ${auto.computeMs} ms of a 20,000 ms budget`);
  t.ok(
    auto.trace.firstBeamMs.every((ms) => ms !== null && ms <= auto.computeMs),
    'every worker completed its first beam round before stopping',
  );

  // 5 s: on a machine busy with other test files, a 3 s budget once ended before the first plan.
  const explicitMs = 5000;
  const explicit = await solver.solve(overflow({ budgetMode: 'explicit', budgetMs: explicitMs }));
  if (explicit.status !== 'solved') throw new Error(`explicit: ${explicit.status}`);
  t.equal(explicit.stopReason, 'time_limit');
  t.ok(
    explicit.computeMs >= (explicitMs * 2) / 3,
    `an explicit ${explicitMs} ms budget computed ${explicit.computeMs} ms`,
  );
});

t.test('deterministic mode never stops on stagnation', async (t) => {
  const det = await solver.solve(overflow({ budgetMode: 'automatic', workLimit: 3000, budgetMs: 60_000 }));
  if (det.status !== 'solved') throw new Error(det.status);
  t.equal(det.stopReason, 'work_limit');
  t.ok(det.work >= 2 * 3000, `both workers spent their work limit (${det.work} placements)`);
});

t.test('a plan at the bound says so', async (t) => {
  const fits = overflow({
    budgetMode: 'automatic',
    items: [item({ id: 'box', length: 50, width: 40, height: 30, weight: 10, quantity: 4 })],
  });
  const r = await solver.solve(fits);
  if (r.status !== 'solved') throw new Error(r.status);
  t.equal(r.stopReason, 'bound_reached');
});
