/**
 * Benchmarks the solver. `br`: Bischoff & Ratcliff BR1–BR7 (benchmarks/br/thpackN.txt, one
 * container 587×233×220 cm, orientation flags enforced, full support, every plan verified by
 * the Solver); prints per class the mean volume fill %, the mean compute ms and the EB-AFIT
 * anchor mean over the same instances.
 *
 *   npm run bench -- br [--classes 1-7] [--instances N] [--budget ms] [--threads n]
 *
 * `examples`: every examples/*.json resolved like the API does (default limits, presets, seed 1),
 * solved and verified; prints per example the units placed/requested, vehicles used, mean
 * volume fill %, placed weight / payload of the used vehicles, compute ms and the volume lower
 * bound on vehicles (ceil(cargo volume / largest vehicle volume)).
 *
 *   npm run bench -- examples [--budget ms] [--threads n]
 *
 * `alonso`: trucks with axle limits (scripts/bench-alonso.ts).
 *
 * `nodes`: jobs per minute of the multi-process profile with 1, 2, … solver-node processes
 * (scripts/bench-nodes.ts; needs nats-server).
 *
 *   npm run bench -- nodes [--nodes 1,2] [--jobs 50] [--threads 1]
 *
 * `fairness`: a tiny job of organization B while A and C run long jobs (scripts/bench-fairness.ts).
 *
 *   npm run bench -- fairness [--budget 90000] [--concurrency n] [--threads n] [--pool-threads n]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Command } from 'commander';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../api/pack-request/check.js';
import type { ItemModel, Orientation, PackModel } from '../domain/pack/plan.js';
import { ALL_ORIENTATIONS } from '../domain/pack/plan.js';
import { Solver } from '../solver/solve.js';
import { verifyPlan } from '../solver/verify/verify.js';
import { fileURLToPath } from 'node:url';
import { benchAlonso } from './bench-alonso.js';
import { benchNodes } from './bench-nodes.js';
import { benchFairness } from './bench-fairness.js';

/** The BR files: `../shared/benchmarks/br` beside the repository, or BR_DIR. */
const BR_DIR = process.env['BR_DIR'] ?? fileURLToPath(new URL('../../shared/benchmarks/br', import.meta.url));

/** One BR problem: container and box types. */
interface BrProblem {
  number: number;
  container: { length: number; width: number; height: number };
  boxes: { dims: [number, number, number]; vertical: [boolean, boolean, boolean]; quantity: number }[];
}

/** Parses a thpackN.txt file (format in benchmarks/br/SOURCE.md). */
function parseThpack(text: string): BrProblem[] {
  const tok = text.split(/\s+/).filter((t) => t.length > 0).map(Number);
  let p = 0;
  const next = (): number => {
    const v = tok[p++];
    if (v === undefined || Number.isNaN(v)) throw new Error(`thpack: bad token at ${p}`);
    return v;
  };
  const count = next();
  const out: BrProblem[] = [];
  for (let k = 0; k < count; k++) {
    const number = next();
    next(); // generator seed
    const container = { length: next(), width: next(), height: next() };
    const n = next();
    const boxes: BrProblem['boxes'] = [];
    for (let i = 0; i < n; i++) {
      next(); // type id
      const l = next(), fl = next(), w = next(), fw = next(), h = next(), fh = next(), q = next();
      boxes.push({ dims: [l, w, h], vertical: [fl === 1, fw === 1, fh === 1], quantity: q });
    }
    out.push({ number, container, boxes });
  }
  return out;
}

/** A flag allows a dimension to stand vertical: the orientations whose third letter (y) names it. */
function orientationsFor(vertical: [boolean, boolean, boolean]): Orientation[] {
  const idx = { l: 0, w: 1, h: 2 } as const;
  return ALL_ORIENTATIONS.filter((o) => vertical[idx[o[2] as 'l' | 'w' | 'h']]);
}

function brModel(pr: BrProblem, budgetMs: number): PackModel {
  const items: ItemModel[] = pr.boxes.map((b, i) => ({
    id: `t${i + 1}`, label: `type ${i + 1}`, shape: 'box',
    length: b.dims[0], width: b.dims[1], height: b.dims[2], weight: 1, quantity: b.quantity,
    stackable: true, maxStackWeight: 0, nestingHeight: 0, orientations: orientationsFor(b.vertical), priority: 0,
    hazardous: false, group: null, groupOrder: Number.MAX_SAFE_INTEGER, color: null,
  }));
  return {
    vehicles: [{
      id: 'c', name: 'BR container', type: 'container', ...pr.container,
      maxWeight: 1e9, quantity: 1, blockedAreas: [], floorLoadCapacity: 0, axles: null, auxDeck: null,
    }],
    items, packingMode: 'fleet_only', maxVehicles: 1, allowOverweight: false, maxStackItems: 0, maxStackDensity: 0, enforceAxle: false, groupRouting: 'none',
    budgetMs, seed: pr.number,
  };
}

function ebafit(): Map<string, number> {
  const rows = readFileSync(`${BR_DIR}/ebafit_results_thpack1-7.csv`, 'utf8').trim().split(/\r?\n/).slice(1);
  const m = new Map<string, number>();
  for (const r of rows) {
    const c = r.split(',');
    m.set(`${c[0]}-${c[1]}`, Number(c[4]));
  }
  return m;
}

function parseRange(s: string): number[] {
  const [a, b] = s.split('-').map(Number);
  const lo = a ?? 1, hi = b ?? lo;
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

async function benchBr(o: { classes: string; instances: string; budget: string; threads?: string; first: string }): Promise<void> {
  const classes = parseRange(o.classes);
  const count = Number(o.instances), budget = Number(o.budget), first = Number(o.first);
  const solver = new Solver(o.threads ? { threads: Number(o.threads) } : {});
  const anchor = ebafit();
  const all: number[] = [], allMs: number[] = [], allAnchor: number[] = [];
  console.log(`BR full support, budget ${budget} ms, ${solver.threads} threads, instances ${first}..${first + count - 1}`);
  console.log('class  fill%   ms      EB-AFIT%');
  try {
    for (const k of classes) {
      const problems = parseThpack(readFileSync(`${BR_DIR}/thpack${k}.txt`, 'utf8')).slice(first - 1, first - 1 + count);
      const fills: number[] = [], ms: number[] = [], anchors: number[] = [];
      for (const pr of problems) {
        const model = brModel(pr, budget);
        const out = await solver.solve(model);
        if (out.status !== 'solved') throw new Error(`BR${k}#${pr.number}: ${out.status} ${'error' in out ? out.error : ''}`);
        const v = out.plan.vehicles[0];
        fills.push(100 * (v?.volume_utilization ?? 0));
        ms.push(out.computeMs);
        const a = anchor.get(`BR${k}-${pr.number}`);
        if (a !== undefined) anchors.push(a);
      }
      all.push(...fills); allMs.push(...ms); allAnchor.push(...anchors);
      console.log(`BR${k}    ${mean(fills).toFixed(2)}  ${mean(ms).toFixed(0).padStart(6)}  ${mean(anchors).toFixed(2)}`);
    }
    console.log(`mean   ${mean(all).toFixed(2)}  ${mean(allMs).toFixed(0).padStart(6)}  ${mean(allAnchor).toFixed(2)}`);
  } finally {
    await solver.close();
  }
}

const EXAMPLES_DIR = new URL('../examples/', import.meta.url).pathname;

async function benchExamples(o: { budget?: string; threads?: string }): Promise<void> {
  const solver = new Solver(o.threads ? { threads: Number(o.threads) } : {});
  const files = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json')).sort();
  console.log(`examples, budget ${o.budget ?? 'model'} ms, ${solver.threads} threads`);
  console.log('example                          placed/req   veh  lb  fill%   weight/payload kg     ms');
  try {
    for (const f of files) {
      const body: unknown = JSON.parse(readFileSync(join(EXAMPLES_DIR, f), 'utf8'));
      const checked = checkPackRequest(body, SCRIPT_CHECK_CONTEXT);
      if (!checked.ok) throw new Error(`${f}: ${checked.message} ${JSON.stringify(checked.details.slice(0, 3))}`);
      const model = o.budget ? { ...checked.model, budgetMs: Number(o.budget) } : checked.model;
      const out = await solver.solve(model);
      if (out.status !== 'solved') throw new Error(`${f}: ${out.status} ${'error' in out ? out.error : ''}`);
      const violations = verifyPlan(model, out.plan);
      if (violations.length > 0) throw new Error(`${f}: plan fails verification ${JSON.stringify(violations.slice(0, 3))}`);
      const vs = out.plan.vehicles;
      const requested = model.items.reduce((s, it) => s + it.quantity, 0);
      const placed = vs.reduce((s, v) => s + v.items_placed, 0);
      const cargo = model.items.reduce((s, it) => s + it.quantity * it.length * it.width * it.height, 0);
      const biggest = Math.max(...model.vehicles.map((v) => v.length * v.width * v.height));
      const weight = vs.reduce((s, v) => s + v.total_weight, 0), payload = vs.reduce((s, v) => s + v.max_weight, 0);
      console.log([
        basename(f, '.json').padEnd(32),
        `${placed}/${requested}`.padStart(10),
        String(vs.length).padStart(5),
        String(Math.ceil(cargo / biggest - 1e-9)).padStart(3),
        (100 * mean(vs.map((v) => v.volume_utilization))).toFixed(2).padStart(6),
        `${weight.toFixed(0)}/${payload.toFixed(0)}`.padStart(19),
        String(out.computeMs).padStart(6),
      ].join(' '));
    }
  } finally {
    await solver.close();
  }
}

const program = new Command('bench');
program.command('examples')
  .description('the example requests (examples/*.json), resolved like the API, solved and verified')
  .option('--budget <ms>', 'budget per example, ms (default: the request\'s time limit)')
  .option('--threads <n>', 'worker threads (default: available cores)')
  .action(benchExamples);
program.command('br')
  .description('BR1–BR7 container loading with full support')
  .option('--classes <range>', 'classes, e.g. 1-7', '1-7')
  .option('--instances <n>', 'instances per class', '10')
  .option('--first <n>', 'first instance number', '1')
  .option('--budget <ms>', 'budget per instance, ms', '5000')
  .option('--threads <n>', 'worker threads (default: available cores)')
  .action(benchBr);
program.command('alonso')
  .description('Alonso et al. 2019 trucks with axle limits, box level, with and without enforce_axle')
  .option('--instances <range>', 'instance numbers, e.g. 1-10', '1-10')
  .option('--day <n>', 'delivery day of the demand (0, 1 or 2)', '0')
  .option('--budget <ms>', 'budget per run, ms', '3000')
  .option('--threads <n>', 'worker threads (default: available cores)')
  .action(benchAlonso);
program.command('nodes')
  .description('jobs per minute of the multi-process profile with 1, 2, … solver-node processes (needs nats-server)')
  .option('--nodes <list>', 'solver-node counts, side by side', '1,2')
  .option('--jobs <n>', 'jobs in the batch', '50')
  .option('--threads <n>', 'worker threads per solver node', '1')
  .action(benchNodes);
program.command('fairness')
  .description('a tiny job of organization B while A and C run long jobs: B\'s wall time and queue_ms')
  .option('--budget <ms>', 'budget of the long jobs, ms', '90000')
  .option('--concurrency <n>', 'SOLVER_CONCURRENCY (default 3)')
  .option('--threads <n>', 'worker threads per job (default: available cores)')
  .option('--pool-threads <n>', 'the Solver alone with a pool of n threads (the measurement behind the choice)')
  .action(benchFairness);
program.command('api').description('HTTP API load on loopback beside bare Express, then start-up time and memory (scripts/bench-api.ts)').option('--jobs <n>', 'succeeded jobs seeded first', '2000').option('--seconds <n>', 'seconds per case', '10').option('--connections <n>', 'autocannon connections', '50').option('--only <cases>', 'comma-separated cases (default all)').option('--keep', 'keep the data dir (its path is printed)').action(async (o: import('./bench-api.js').ApiBenchOptions) => (await import('./bench-api.js')).benchApi(o));
await program.parseAsync(process.argv);
