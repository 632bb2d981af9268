/**
 * `npm run bench -- br FILE… [--instances 1-100] [--budget ms] [--threads n] [--work n] [--json] [--loader compiled|tsx]`:
 * container loading on files of the Bischoff & Ratcliff / OR-Library format (scripts/br-format.ts),
 * one container, orientation flags enforced, full support, every plan verified by the Solver and
 * again here. A FILE is a path, or a name in `../shared/benchmarks/br` beside the repository
 * (`thpack3.txt`, `BR12.txt`, or just `BR3`, which means thpack3.txt for BR1–BR7).
 * Prints one line per instance (`--json`: one JSON object per line with `file`, `instance`,
 * `fill` %, `placed`, `total`, `ms`, `verified`, `candidates`, `work`, `cpuMs`, `strategy`) and a
 * summary per file with the placements per second of all threads (how well threads add up), the
 * same per CPU-second of the process, and the cores the solves kept busy (CPU ms over wall ms: a
 * lone search thread keeps more than one core busy, its GC running on the other). An instance
 * the budget ends without a plan prints a clear line and counts as 0 % fill; nothing is thrown.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Solver } from '../solver/solve.js';
import { SERVER_DIST, buildServer, serverBuildState } from './build-server.js';
import { verifyPlan } from '../solver/verify/verify.js';
import { STACKING_DEFAULTS } from '../domain/pack/plan.js';
import { brModel, cargoShare, parseBr } from './br-format.js';

/** The shared benchmark directory beside the repository (BR_DIR overrides it). */
export const BR_DIR = process.env['BR_DIR'] ?? fileURLToPath(new URL('../../shared/benchmarks/br', import.meta.url));

/** Options of the `br` bench (strings as commander gives them). */
export interface BrBenchOptions {
  instances: string;
  budget: string;
  threads?: string;
  work?: string;
  json?: boolean;
  /** `compiled` (default): the search as the service runs it, from `dist/`; `tsx`: the TypeScript sources. */
  loader?: string;
  /**
   * The safe stacking rules (PackModel.stacking): `off` (default: the benchmark's own rules, full
   * support only) or `defaults` (the service's defaults, docs/solver.md "Safe stacks").
   */
  stacking?: string;
}

/** One instance's outcome. */
export interface BrRow {
  file: string;
  instance: number;
  /** Volume fill of the container, %. */
  fill: number;
  placed: number;
  total: number;
  ms: number;
  verified: boolean;
  candidates: number;
  /** Block placements of all threads (work units). */
  work: number;
  /**
   * CPU ms of the whole process during the solve (user and system, every thread: the search
   * threads, V8's GC helpers, the main thread). Over `ms`, the cores the solve kept busy.
   */
  cpuMs: number;
  /** Name of the strategy whose plan was returned (search/strategy.ts); absent without a plan. */
  strategy?: string;
  /** Why there is no plan (budget ended first, or a failure); absent when solved. */
  error?: string;
}

/** Resolves a FILE argument (see top); throws RangeError naming what was tried. */
export function resolveBrFile(arg: string): string {
  const tries = [resolve(arg), resolve(BR_DIR, arg)];
  const m = /^BR([1-7])$/i.exec(arg);
  if (m) tries.push(resolve(BR_DIR, `thpack${m[1]}.txt`));
  if (/^BR\d+$/i.test(arg)) tries.push(resolve(BR_DIR, `${arg.toUpperCase()}.txt`));
  const found = tries.find((p) => existsSync(p));
  if (!found) throw new RangeError(`no BR file "${arg}" (tried ${tries.join(', ')})`);
  return found;
}

/** "1-20" or "5" → the numbers in it; throws RangeError on anything else. */
export function parseRange(s: string): number[] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(s.trim());
  if (!m) throw new RangeError(`bad range "${s}" (expected N or N-M)`);
  const lo = Number(m[1]),
    hi = Number(m[2] ?? m[1]);
  if (hi < lo) throw new RangeError(`bad range "${s}"`);
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

/** Arithmetic mean (0 for an empty list). */
export const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

/**
 * The Solver of the compiled service (`dist/solver/solve.js`, whose pool's threads load
 * `thread.js`): what `npm start` runs. Builds `dist/` first when it is missing or stale.
 */
export async function compiledSolver(): Promise<typeof Solver> {
  if (serverBuildState() !== 'fresh') buildServer();
  const mod = (await import(pathToFileURL(join(SERVER_DIST, 'solver', 'solve.js')).href)) as { Solver: typeof Solver };
  return mod.Solver;
}

/** Runs the bench; resolves with every row (printed as it goes). */
export async function benchBr(files: string[], o: BrBenchOptions): Promise<BrRow[]> {
  const budget = Number(o.budget);
  const work = o.work !== undefined ? Number(o.work) : undefined;
  if (!(budget >= 1)) throw new RangeError(`--budget must be at least 1 ms, got "${o.budget}"`);
  if (work !== undefined && !(work >= 1)) throw new RangeError(`--work must be at least 1, got "${o.work}"`);
  const wanted = parseRange(o.instances);
  const paths = files.map(resolveBrFile);
  if (o.loader !== undefined && o.loader !== 'compiled' && o.loader !== 'tsx')
    throw new RangeError(`--loader must be compiled or tsx, got "${o.loader}"`);
  if (o.stacking !== undefined && o.stacking !== 'off' && o.stacking !== 'defaults')
    throw new RangeError(`--stacking must be off or defaults, got "${o.stacking}"`);
  const stacking = o.stacking === 'defaults' ? { stacking: STACKING_DEFAULTS } : {};
  const SolverOf = o.loader === 'tsx' ? Solver : await compiledSolver();
  const solver = new SolverOf(o.threads ? { threads: Number(o.threads) } : {});
  const rows: BrRow[] = [];
  const say = (s: string): void => {
    if (!o.json) console.log(s);
  };
  say(
    `BR full support, budget ${budget} ms${work !== undefined ? `, work ${work} per thread (deterministic)` : ''}, ${solver.threads} threads, instances ${o.instances}, ${o.loader ?? 'compiled'} search, safe stacking rules ${o.stacking ?? 'off'}`,
  );
  try {
    await solver.warm();
    const summary: string[] = [];
    for (const path of paths) {
      const file = basename(path);
      const problems = parseBr(readFileSync(path, 'utf8')).filter((p) => wanted.includes(p.number));
      const own: BrRow[] = [];
      for (const pr of problems) {
        const model = { ...brModel(pr, budget), ...stacking, ...(work !== undefined ? { workLimit: work } : {}) };
        const total = pr.boxes.reduce((s, b) => s + b.quantity, 0);
        const cpu = process.cpuUsage();
        const out = await solver.solve(model);
        const used = process.cpuUsage(cpu);
        const cpuMs = Math.round((used.user + used.system) / 1000);
        let row: BrRow;
        if (out.status === 'solved') {
          const v = out.plan.vehicles[0];
          row = {
            file,
            instance: pr.number,
            fill: 100 * (v?.volume_utilization ?? 0),
            placed: v?.items_placed ?? 0,
            total,
            ms: out.computeMs,
            verified: verifyPlan(model, out.plan).length === 0,
            candidates: out.candidates,
            work: out.work,
            cpuMs,
            strategy: out.strategy,
          };
        } else {
          const why =
            out.status === 'timedout'
              ? 'the budget ended before a plan was found'
              : out.status === 'failed'
                ? out.error.message
                : out.status;
          row = {
            file,
            instance: pr.number,
            fill: 0,
            placed: 0,
            total,
            ms: out.computeMs,
            verified: false,
            candidates: 0,
            work: 0,
            cpuMs,
            error: why,
          };
        }
        own.push(row);
        rows.push(row);
        if (o.json) console.log(JSON.stringify(row));
        else if (row.error) say(`${file} #${row.instance}: no plan: ${row.error} (${row.ms} ms)`);
        else
          say(
            `${file} #${String(row.instance).padEnd(3)} fill ${row.fill.toFixed(2)} %  placed ${row.placed}/${row.total}  cargo ${(100 * cargoShare(pr)).toFixed(1)} %  ${row.ms} ms  ${row.candidates} candidates  ${Math.round(row.work / Math.max(1, row.ms))}k placements/s  ${row.verified ? 'verified' : 'NOT VERIFIED'}`,
          );
      }
      const placements = own.reduce((s, r) => s + r.work, 0);
      const wallMs = Math.max(
        1,
        own.reduce((s, r) => s + r.ms, 0),
      );
      const busyMs = Math.max(
        1,
        own.reduce((s, r) => s + r.cpuMs, 0),
      );
      summary.push(
        `${file.padEnd(12)} ${String(own.length).padStart(4)} instances  mean fill ${mean(own.map((r) => r.fill)).toFixed(2)} %  ` +
          `mean ${mean(own.map((r) => r.ms)).toFixed(0)} ms  ${(placements / wallMs).toFixed(1)}k placements/s  ` +
          `${(placements / busyMs).toFixed(1)}k per CPU-second (${(busyMs / wallMs).toFixed(2)} cores busy)  ` +
          `verified ${own.filter((r) => r.verified).length}/${own.length}`,
      );
    }
    if (!o.json) {
      console.log('summary');
      for (const s of summary) console.log(s);
      if (paths.length > 1)
        console.log(
          `${'all'.padEnd(12)} ${String(rows.length).padStart(4)} instances  mean fill ${mean(rows.map((r) => r.fill)).toFixed(2)} %`,
        );
    }
  } finally {
    await solver.close();
  }
  return rows;
}
