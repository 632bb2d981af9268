import t from 'tap';
import type { ItemModel, PackModel, VehicleModel } from '../../domain/pack/plan.js';
import { Solver } from '../../solver/solve.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const vehicle = (o: Partial<VehicleModel> = {}): VehicleModel => ({
  id: 'truck',
  name: 'Truck',
  type: 'truck',
  length: 300,
  width: 200,
  height: 200,
  maxWeight: 10_000,
  quantity: 1,
  blockedAreas: [],
  floorLoadCapacity: 0,
  axles: null,
  auxDeck: null,
  ...o,
});
const item = (o: Partial<ItemModel> = {}): ItemModel => ({
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
  orientations: ['lwh', 'wlh'],
  priority: 0,
  hazardous: false,
  group: null,
  groupOrder: Number.MAX_SAFE_INTEGER,
  color: null,
  ...o,
});
const model = (o: Partial<PackModel> = {}): PackModel => ({
  vehicles: [vehicle()],
  items: [item()],
  packingMode: 'fleet_only',
  maxVehicles: 5,
  allowOverweight: false,
  maxStackItems: 0,
  maxStackDensity: 0,
  enforceAxle: false,
  groupRouting: 'none',
  budgetMs: 2000,
  seed: 7,
  ...o,
});

const solver = new Solver({ threads: 2, threadModule: solverThreadModule() });
t.teardown(() => solver.close());

t.test('a small job is solved fast, verified, every unit placed in one vehicle', async (t) => {
  await solver.solve(model()); // starts the worker threads
  // A long budget: the search must end by itself (it reaches the volume bound), however busy the machine.
  const m = model({
    items: [item(), item({ id: 'drum', length: 60, width: 60, height: 90, quantity: 12, orientations: ['lwh'] })],
    budgetMs: 30_000,
  });
  const out = await solver.solve(m);
  if (out.status !== 'solved') throw new Error(JSON.stringify(out));
  t.equal(out.plan.vehicles.length, 1);
  t.equal(out.plan.vehicles[0]!.items_placed, 32);
  t.equal(out.plan.unplaced.length, 0);
  t.same(verifyPlan(m, out.plan), []);
  t.equal(out.budgetReached, false, `ended by itself after ${out.computeMs} ms`);
  const steps = out.plan.vehicles[0]!.placements.map((p) => p.step).sort((a, b) => a - b);
  t.same(
    steps,
    Array.from({ length: 32 }, (_, i) => i + 1),
  );
});

t.test('the same model and seed give the same plan', async (t) => {
  // Same plan holds when the search ends by itself, not when a budget cuts it (timing): a long budget.
  const m = model({
    items: [
      item({ quantity: 60 }),
      item({ id: 'b2', length: 33, width: 27, height: 45, quantity: 40, orientations: ['lwh', 'hwl', 'lhw'] }),
    ],
    budgetMs: 30_000,
  });
  const a = await solver.solve(m);
  const b = await solver.solve(m);
  if (a.status !== 'solved' || b.status !== 'solved') throw new Error('not solved');
  t.same(
    [a.budgetReached, b.budgetReached],
    [false, false],
    `both ended by themselves (${a.computeMs}, ${b.computeMs} ms)`,
  );
  t.same(b.plan, a.plan);
});

t.test('deterministic mode: a work limit gives the same plan for the same model, seed and threads', async (t) => {
  // More cargo than fits: the search never reaches the bound, so only the work limit ends it.
  const m = model({
    items: [
      item({ quantity: 160 }),
      item({ id: 'b2', length: 33, width: 27, height: 45, quantity: 90, orientations: ['lwh', 'hwl', 'lhw'] }),
      item({ id: 'b3', length: 71, width: 38, height: 24, quantity: 40, orientations: ['lwh', 'wlh'] }),
    ],
    budgetMs: 120_000,
    workLimit: 3000,
    seed: 11,
  });
  const a = await solver.solve(m);
  const b = await solver.solve(m);
  if (a.status !== 'solved' || b.status !== 'solved') throw new Error('not solved');
  t.ok(a.plan.unplaced.length > 0, 'the cargo does not all fit');
  t.ok(
    a.work >= 2 * 3000 && a.work < 2 * 3000 + 2000,
    `the work limit ended the search (${a.work} placements, ${a.computeMs} ms)`,
  );
  t.equal(b.work, a.work);
  t.equal(b.candidates, a.candidates);
  t.same(b.plan, a.plan);
  t.same(verifyPlan(m, a.plan), []);
  const other = await solver.solve({ ...m, seed: 12, workLimit: 300 });
  if (other.status !== 'solved') throw new Error('not solved');
  t.ok(other.work < a.work, 'a smaller work limit does less work');
});

t.test('auto mode adds copies up to maxVehicles, the rest is vehicle_limit', async (t) => {
  const m = model({
    vehicles: [vehicle({ length: 100, width: 100, height: 100 })],
    items: [item({ length: 50, width: 50, height: 50, quantity: 20 })],
    packingMode: 'auto',
    maxVehicles: 2,
  });
  const out = await solver.solve(m);
  if (out.status !== 'solved') throw new Error(JSON.stringify(out));
  t.same(
    out.plan.vehicles.map((v) => [v.index, v.copy, v.auto_added, v.items_placed]),
    [
      [0, 1, false, 8],
      [1, 2, true, 8],
    ],
  );
  t.equal(out.plan.unplaced.length, 4);
  t.same([...new Set(out.plan.unplaced.map((u) => u.reason))], ['vehicle_limit']);
  t.same(
    out.plan.unplaced.map((u) => u.instance).sort((a, b) => a - b),
    [17, 18, 19, 20],
  );
});

t.test('payload limits leave units unplaced with weight_limit; oversize units with no_space', async (t) => {
  const m = model({
    vehicles: [vehicle({ maxWeight: 95 })],
    items: [
      item({ quantity: 20, weight: 10 }),
      item({ id: 'long', length: 400, width: 10, height: 10, quantity: 2, orientations: ['lwh'] }),
    ],
  });
  const out = await solver.solve(m);
  if (out.status !== 'solved') throw new Error(JSON.stringify(out));
  t.equal(out.plan.vehicles[0]!.items_placed, 9);
  t.equal(out.plan.vehicles[0]!.total_weight, 90);
  t.equal(out.plan.unplaced.filter((u) => u.reason === 'weight_limit').length, 11);
  t.equal(out.plan.unplaced.filter((u) => u.reason === 'no_space' && u.item_id === 'long').length, 2);
});

t.test('nothing fits: solved with every unit unplaced and no vehicle', async (t) => {
  const m = model({ items: [item({ length: 500, orientations: ['lwh'], quantity: 3 })] });
  const out = await solver.solve(m);
  if (out.status !== 'solved') throw new Error(JSON.stringify(out));
  t.same(out.plan.vehicles, []);
  t.same(
    out.plan.unplaced.map((u) => u.reason),
    ['no_space', 'no_space', 'no_space'],
  );
});

t.test('an aborted signal cancels the solve', async (t) => {
  const big = model({
    vehicles: [vehicle({ length: 600, width: 245, height: 270, quantity: 1 })],
    items: Array.from({ length: 12 }, (_, i) =>
      item({
        id: `k${i}`,
        length: 20 + i * 3,
        width: 15 + i * 2,
        height: 10 + i,
        quantity: 100,
        orientations: ['lwh', 'wlh', 'hwl'],
      }),
    ),
    budgetMs: 20_000,
  });
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 150);
  const out = await solver.solve(big, { signal: ac.signal });
  t.equal(out.status, 'canceled');
  t.ok(out.computeMs < 15_000, `stopped long before its 20 s budget: computeMs ${out.computeMs}`);
  const pre = new AbortController();
  pre.abort();
  t.equal((await solver.solve(model(), { signal: pre.signal })).status, 'canceled');
});

t.test('a large job stays within its budget', async (t) => {
  const big = model({
    vehicles: [vehicle({ length: 1360, width: 245, height: 270, quantity: 2, maxWeight: 24_000 })],
    items: Array.from({ length: 20 }, (_, i) =>
      item({
        id: `k${i}`,
        length: 20 + i * 3,
        width: 15 + i * 2,
        height: 10 + i,
        quantity: 100,
        weight: 5,
        orientations: ['lwh', 'wlh'],
      }),
    ),
    packingMode: 'auto',
    maxVehicles: 20,
    budgetMs: 3000,
  });
  const out = await solver.solve(big);
  // The budget is a target; the hard stop at budget + 2 s is the guarantee (solve.ts), plus the
  // time the abort takes to reach the pool and come back on a machine busy with other test files.
  t.ok(out.computeMs <= 3000 + 2000 + 250, `computeMs ${out.computeMs}`);
  if (out.status === 'timedout') {
    // Search threads run at niceness 10 (solver/thread.ts): on a machine busy with other
    // processes (parallel test files in CI) 3 s may not pack a first vehicle. Ending on time
    // without a plan is then the right outcome; the plan checks below need a quieter machine.
    t.comment(
      `no vehicle packed within the budget on this busy machine (computeMs ${out.computeMs}): plan checks skipped`,
    );
    return;
  }
  if (out.status !== 'solved') throw new Error(JSON.stringify(out).slice(0, 500));
  const placed = out.plan.vehicles.reduce((s, v) => s + v.items_placed, 0);
  t.equal(placed + out.plan.unplaced.length, 2000);
  t.same(verifyPlan(big, out.plan), []);
});

t.test('a worker crash is a failed outcome whose error keeps what the worker threw as its cause', async (t) => {
  // Not a valid model: the search reads the orientations of every item and throws in the worker.
  const broken = model({ items: [item({ orientations: null as unknown as ItemModel['orientations'] })] });
  const out = await solver.solve(broken);
  if (out.status !== 'failed') throw new Error(`expected a failed outcome, got ${out.status}`);
  t.ok(out.error instanceof Error);
  t.match(out.error.message, /^a search worker failed: /);
  t.ok(out.error.cause instanceof Error, 'the cause is the error the worker threw');
  t.equal((out.error.cause as Error).name, 'TypeError');
  t.ok(out.error.message.endsWith((out.error.cause as Error).message), 'the message repeats the cause');
});
