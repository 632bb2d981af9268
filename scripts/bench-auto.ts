/**
 * `npm run bench -- auto [--jobs 100] [--seed 1] [--examples] [--only-examples] [--json] [--threads 2] [--trace FILE]`:
 * the automatic time limit (`time_limit` 0: 2 s + 15 ms per unit, 2–30 s) with and without the
 * stop on stagnation. Jobs: with `--examples` (or `--only-examples`) the files in examples/ first,
 * then `--jobs` realistic jobs of seed `--seed` (scripts/realistic-jobs.ts), each resolved like the
 * API does. Each job is solved twice, one at a time, with the same seed (A first on every other
 * job, B first on the rest, so neither gains from warmed threads): A runs the whole automatic
 * budget (`budgetMode: 'explicit'`), B stops when the search stops improving (`budgetMode:
 * 'automatic'`); both plans are verified. Prints per job the units, budget ms, compute ms, units
 * placed, vehicles and mean volume fill % (the job summary's, solver/summary.ts) of A and B and
 * B's stop reason; then Σ compute of A and B, their ratio (target ≤ 40 %), the jobs where B placed
 * fewer units or used more vehicles (target 0) and the mean fill difference B − A in points
 * (target ≥ −0.2). The search is the compiled one of `npm start` (dist/, built first when stale),
 * as in scripts/bench-br.ts. `--json`: one JSON object per job (AutoRow) and a summary object
 * (AutoSummary).
 * `--trace FILE`: every A run's search trace (how the best improved, SolveOutcome.trace) as one JSON
 * line per job, to try other stop rules on the same searches.
 */
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../api/http/pack-request/check.js';
import { STACKING_OFF, type PackModel } from '../domain/pack/plan.js';
import type { PackRequest } from '../domain/pack/request.js';
import type { SearchTrace, Solver, SolveOutcome, StopReason } from '../solver/solve.js';
import { summarizePlan } from '../solver/summary.js';
import { verifyPlan } from '../solver/verify/verify.js';
import { compiledSolver } from './bench-br.js';
import { realisticJobs, type RealisticJob } from './realistic-jobs.js';

const EXAMPLES_DIR = fileURLToPath(new URL('../examples/', import.meta.url));

/** Options of the `auto` bench (strings as commander gives them). */
export interface AutoBenchOptions {
  jobs: string;
  seed: string;
  examples?: boolean;
  onlyExamples?: boolean;
  json?: boolean;
  threads: string;
  /** Write every A run's search trace (SolveOutcome.trace), one JSON line per job, to this file. */
  trace?: string;
  /** The safe stacking rules: `defaults` (default: as the requests resolve) or `off` (docs/solver.md "Safe stacks"). */
  stacking?: string;
}

/** A run's figures: compute ms, units placed, vehicles used, mean volume fill %, why it stopped (SolveOutcome.stopReason). */
export interface RunFigures {
  ms: number;
  placed: number;
  vehicles: number;
  fill: number;
  stopReason: StopReason;
}

/** One job's row: A runs the whole automatic budget, B may stop on stagnation. */
export interface AutoRow {
  name: string;
  units: number;
  budgetMs: number;
  a: RunFigures;
  b: RunFigures;
}

/** One line of `--trace`: an A run (the whole automatic budget) and its search trace. */
export interface TracedJob {
  name: string;
  /** Units in the request. */
  units: number;
  budgetMs: number;
  computeMs: number;
  stopReason: StopReason;
  trace: SearchTrace;
}

/** The totals over all jobs. */
export interface AutoSummary {
  jobs: number;
  /** Σ compute ms of A and of B, and B / A in %. */
  computeMsA: number;
  computeMsB: number;
  ratio: number;
  /** Jobs where B placed fewer units or used more vehicles than A. */
  worse: number;
  /** Mean over jobs of B's fill % minus A's, points. */
  fillDiff: number;
}

/** The example requests as jobs, by file name. */
function exampleJobs(): RealisticJob[] {
  return (
    readdirSync(EXAMPLES_DIR)
      .filter((f) => f.endsWith('.json'))
      .sort()
      // The body is checked like the API's when the job runs (checkPackRequest).
      .map((f) => ({
        name: basename(f, '.json'),
        request: JSON.parse(readFileSync(join(EXAMPLES_DIR, f), 'utf8')) as PackRequest,
      }))
  );
}

/**
 * Solves `model` and checks the plan; throws naming the job if there is no plan or it fails
 * verification. `onTrace` gets the search trace.
 */
async function run(
  solver: Solver,
  name: string,
  model: PackModel,
  onTrace: (trace: SearchTrace, computeMs: number, stopReason: StopReason) => void = () => undefined,
): Promise<RunFigures> {
  const out: SolveOutcome = await solver.solve(model);
  if (out.status !== 'solved')
    throw new Error(`${name} (${model.budgetMode}): ${out.status} ${'error' in out ? out.error.message : ''}`);
  const violations = verifyPlan(model, out.plan);
  if (violations.length > 0)
    throw new Error(`${name} (${model.budgetMode}): plan fails verification ${JSON.stringify(violations.slice(0, 3))}`);
  const summary = summarizePlan(out.plan);
  onTrace(out.trace, out.computeMs, out.stopReason);
  return {
    ms: out.computeMs,
    placed: summary.items_placed,
    vehicles: summary.vehicles_used,
    fill: Math.round(summary.volume_utilization * 10_000) / 100,
    stopReason: out.stopReason,
  };
}

/** The totals of `rows`. */
export function summarize(rows: readonly AutoRow[]): AutoSummary {
  const computeMsA = rows.reduce((s, r) => s + r.a.ms, 0),
    computeMsB = rows.reduce((s, r) => s + r.b.ms, 0);
  return {
    jobs: rows.length,
    computeMsA,
    computeMsB,
    ratio: computeMsA > 0 ? (100 * computeMsB) / computeMsA : 0,
    worse: rows.filter((r) => r.b.placed < r.a.placed || r.b.vehicles > r.a.vehicles).length,
    fillDiff: rows.length > 0 ? rows.reduce((s, r) => s + r.b.fill - r.a.fill, 0) / rows.length : 0,
  };
}

const line = (r: AutoRow): string =>
  [
    r.name.padEnd(32),
    String(r.units).padStart(5),
    String(r.budgetMs).padStart(6),
    `${r.a.ms}/${r.b.ms}`.padStart(13),
    `${r.a.placed}/${r.b.placed}`.padStart(11),
    `${r.a.vehicles}/${r.b.vehicles}`.padStart(6),
    `${r.a.fill.toFixed(2)}/${r.b.fill.toFixed(2)}`.padStart(12),
    ` ${r.b.stopReason}`,
  ].join(' ');

/** Runs the bench (prints its figures) and returns the rows. Throws RangeError on bad arguments. */
export async function benchAuto(o: AutoBenchOptions): Promise<AutoRow[]> {
  const count = Number(o.jobs),
    seed = Number(o.seed),
    threads = Number(o.threads);
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`--jobs must be a whole number ≥ 0, not "${o.jobs}"`);
  if (!Number.isInteger(seed)) throw new RangeError(`--seed must be a whole number, not "${o.seed}"`);
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`--threads must be ≥ 1, not "${o.threads}"`);
  if (o.stacking !== undefined && o.stacking !== 'off' && o.stacking !== 'defaults')
    throw new RangeError(`--stacking must be off or defaults, not "${o.stacking}"`);
  const jobs = [
    ...(o.examples || o.onlyExamples ? exampleJobs() : []),
    ...(o.onlyExamples ? [] : realisticJobs(count, seed)),
  ];
  // The search as the service runs it: the compiled JavaScript of `npm start` (dist/).
  // The trace file is made first: a bad path fails before any thread starts.
  if (o.trace) writeFileSync(o.trace, '');
  const CompiledSolver = await compiledSolver();
  const solver = new CompiledSolver({ threads });
  const rows: AutoRow[] = [];
  try {
    await solver.warm();
    if (!o.json) {
      console.log(
        `auto: ${jobs.length} jobs (seed ${seed}), ${threads} threads; A = whole automatic budget, B = stops on stagnation`,
      );
      console.log(
        'job                              units budget  ms A/B         placed A/B  veh   fill% A/B    stop B',
      );
    }
    for (const job of jobs) {
      const checked = checkPackRequest(job.request, SCRIPT_CHECK_CONTEXT);
      if (!checked.ok)
        throw new Error(`${job.name}: ${checked.message} ${JSON.stringify(checked.details.slice(0, 3))}`);
      const model = o.stacking === 'off' ? { ...checked.model, stacking: STACKING_OFF } : checked.model;
      // A and B take turns going first, so neither gains from the other warming the threads.
      const trace = (t: SearchTrace, computeMs: number, stopReason: StopReason): void => {
        if (!o.trace) return;
        const traced: TracedJob = {
          name: job.name,
          units: checked.items,
          budgetMs: model.budgetMs,
          computeMs,
          stopReason,
          trace: t,
        };
        appendFileSync(o.trace, `${JSON.stringify(traced)}\n`);
      };
      const runA = (): Promise<RunFigures> => run(solver, job.name, { ...model, budgetMode: 'explicit' }, trace);
      const runB = (): Promise<RunFigures> => run(solver, job.name, { ...model, budgetMode: 'automatic' });
      let a: RunFigures, b: RunFigures;
      if (rows.length % 2 === 0) {
        a = await runA();
        b = await runB();
      } else {
        b = await runB();
        a = await runA();
      }
      const row: AutoRow = { name: job.name, units: checked.items, budgetMs: model.budgetMs, a, b };
      rows.push(row);
      console.log(o.json ? JSON.stringify(row) : line(row));
    }
  } finally {
    await solver.close();
  }
  const s = summarize(rows);
  if (o.json) console.log(JSON.stringify({ summary: s }));
  else
    console.log(
      `Σ compute A ${s.computeMsA} ms, B ${s.computeMsB} ms, B/A ${s.ratio.toFixed(1)} % (target ≤ 40 %); ` +
        `B placed fewer or used more vehicles: ${s.worse} (target 0); fill B − A ${s.fillDiff.toFixed(3)} points (target ≥ −0.2)`,
    );
  return rows;
}
