/**
 * The realistic job generator of the `auto` bench (scripts/realistic-jobs.ts): the same seed gives
 * the same jobs; every job has 50–1,500 units and 1–5 vehicle types, passes the API's check with
 * the automatic time limit, and about a third cannot place every unit by the volume and weight
 * bound. The bench's totals (scripts/bench-auto.ts summarize) on hand-made rows.
 */
import t from 'tap';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../../api/http/pack-request/check.js';
import type { PackModel } from '../../domain/pack/plan.js';
import { summarize, type AutoRow } from '../../scripts/bench-auto.js';
import { realisticJobs, shortByBound } from '../../scripts/realistic-jobs.js';

const JOBS = 90;

t.test('the same seed gives the same jobs, another seed others; job i does not depend on the count', async (t) => {
  const jobs = realisticJobs(JOBS, 1);
  t.same(realisticJobs(JOBS, 1), jobs);
  t.same(realisticJobs(10, 1), jobs.slice(0, 10));
  t.notSame(realisticJobs(10, 2), jobs.slice(0, 10));
  t.equal(new Set(jobs.map((j) => j.name)).size, JOBS, 'names are unique');
});

t.test(
  'every job resolves with the automatic budget, 50–1,500 units, 1–5 vehicle types; about a third short',
  async (t) => {
    let short = 0;
    const shapes = new Set<string>();
    const modes = new Set<string>();
    for (const job of realisticJobs(JOBS, 1)) {
      const checked = checkPackRequest(job.request, SCRIPT_CHECK_CONTEXT);
      if (!checked.ok) {
        t.fail(`${job.name}: ${checked.message} ${JSON.stringify(checked.details.slice(0, 3))}`);
        continue;
      }
      const m = checked.model;
      t.ok(checked.items >= 50 && checked.items <= 1500, `${job.name}: ${checked.items} units`);
      t.ok(m.vehicles.length >= 1 && m.vehicles.length <= 5, `${job.name}: ${m.vehicles.length} vehicle types`);
      t.equal(job.request.options?.time_limit, 0);
      t.equal(m.budgetMode, 'automatic', `${job.name}: stops on stagnation`);
      t.equal(m.budgetMs, Math.min(30_000, 2000 + 15 * checked.items), `${job.name}: the automatic budget`);
      for (const it of m.items) {
        t.ok(it.weight >= 2 && it.weight <= 900, `${job.name} ${it.id}: ${it.weight} kg`);
        t.ok(Math.max(it.length, it.width, it.height) <= 180, `${job.name} ${it.id}: at most 180 cm`);
        shapes.add(it.orientations.length === 6 ? 'all' : it.orientations.length === 2 ? 'upright' : 'other');
      }
      modes.add(m.packingMode);
      if (shortByBound(m)) {
        short++;
        t.equal(m.packingMode, 'fleet_only', `${job.name}: short jobs are fleet_only`);
      }
    }
    t.ok(short >= JOBS * 0.2 && short <= JOBS * 0.45, `${short} of ${JOBS} jobs cannot place every unit`);
    t.ok(shapes.has('all') && shapes.has('upright'), 'items of both rotation rules');
    t.same([...modes].sort(), ['auto', 'fleet_only']);
  },
);

t.test(
  'shortByBound: volume or payload of the fleet below the cargo, auto counting maxVehicles of the largest',
  async (t) => {
    const model = (mode: 'auto' | 'fleet_only', quantity: number, itemWeight: number): PackModel => {
      const checked = checkPackRequest(
        {
          vehicles: [{ type: 'truck', length: 100, width: 100, height: 100, max_weight: 1000, quantity }],
          items: [{ length: 50, width: 50, height: 50, weight: itemWeight, quantity: 16 }],
          options: { packing_mode: mode },
        },
        SCRIPT_CHECK_CONTEXT,
      );
      if (!checked.ok) throw new Error(checked.message);
      return checked.model;
    };
    t.equal(shortByBound(model('fleet_only', 2, 10)), false, '2 m³ and 2 t for 2 m³ and 160 kg');
    t.equal(shortByBound(model('fleet_only', 1, 10)), true, '1 m³ for 2 m³');
    t.equal(shortByBound(model('fleet_only', 2, 150)), true, '2 t for 2.4 t');
    t.equal(shortByBound(model('auto', 1, 150)), false, 'auto: 20 vehicles');
    t.equal(shortByBound({ ...model('fleet_only', 2, 150), allowOverweight: true }), false, 'overweight allowed');
  },
);

t.test('the totals: Σ compute, B / A, jobs where B is worse, mean fill difference', async (t) => {
  const run = (ms: number, placed: number, vehicles: number, fill: number) => ({
    ms,
    placed,
    vehicles,
    fill,
    stopReason: 'time_limit' as const,
  });
  const rows: AutoRow[] = [
    { name: 'x', units: 10, budgetMs: 2150, a: run(1000, 10, 1, 50), b: run(300, 10, 1, 50) },
    { name: 'y', units: 10, budgetMs: 2150, a: run(1000, 10, 1, 50), b: run(100, 9, 1, 49) },
    { name: 'z', units: 10, budgetMs: 2150, a: run(2000, 10, 1, 60), b: run(400, 10, 2, 30) },
  ];
  t.same(summarize(rows), { jobs: 3, computeMsA: 4000, computeMsB: 800, ratio: 20, worse: 2, fillDiff: -31 / 3 });
  t.same(summarize([]), { jobs: 0, computeMsA: 0, computeMsB: 0, ratio: 0, worse: 0, fillDiff: 0 });
});
