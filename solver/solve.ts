/**
 * The solve coordinator: splits the search over N worker threads (piscina), each running a
 * different stride of strategies (search/strategy.ts), verifies every plan it might return
 * (verify/verify.ts) and picks the best by the objective (search/objective.ts: priority-weighted
 * placed units, then fewer vehicles, then higher volume utilization, then balance; ties to the
 * lower worker number, so the same model, seed and thread count give the same plan when the
 * search converges before the budget). Once a worker's plan places every unit in the lower
 * bound of vehicles, all workers stop after that strategy index and the at-bound plan of the
 * lowest index wins (search.ts SearchTask.converged). `model.budgetMs` bounds the wall time.
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import type { StopReason as JobStopReason } from '../domain/job/job.js';
import type { PackModel, Plan } from '../domain/pack/plan.js';
import { compareScores } from './search/score.js';
import type { Improvement, RankedPlan, SearchResult, SearchTask } from './search/search.js';
import { bestSoFar, stagnationBoard } from './search/stagnation.js';
import { threadExecArgv } from './thread-exec-argv.js';
import type { WarmTask } from './thread.js';
import { verifyPlan } from './verify/verify.js';

/**
 * Pool options. `threads`: worker tasks of one solve (default os.availableParallelism()).
 * `concurrency`: solves running at once (default 1). `poolThreads`: worker threads of the pool
 * (default threads × concurrency, so that every running solve has its own threads and the
 * operating system time-slices them: a short job is never queued behind a long job's tasks,
 * which hold their threads for their whole budget; measured with `npm run bench -- fairness`).
 */
export interface SolverOptions {
  threads?: number;
  concurrency?: number;
  poolThreads?: number;
  /**
   * The worker thread's module (default: `thread.ts` or `thread.js` beside this module, in its
   * form). A compiled `thread.js` from a TypeScript process starts without the tsx preload, as
   * compiled threads do (thread-exec-argv.ts); tests give `dist/solver/thread.js` (a tenth of the
   * CPU of a thread under tsx to start).
   */
  threadModule?: URL;
}

/**
 * Per-solve options: cancellation and coarse progress (stages `search`, `verify`, `done`). During
 * `search` the progress is the best plan so far of every worker (its vehicles and placed units),
 * reported every SEARCH_PROGRESS_MS once there is one.
 */
export interface SolveOptions {
  signal?: AbortSignal;
  onProgress?: (p: { stage: string; vehiclesDone: number; placedItems: number }) => void;
}

/**
 * Why a solved search ended (domain/job/job.ts StopReason, the job's `stop_reason`): a solved
 * search is never `canceled` (a canceled one is the `canceled` outcome).
 */
export type StopReason = Exclude<JobStopReason, 'canceled'>;

/**
 * How the best plan improved during a solve, for the stop-rule bench (scripts/bench-auto.ts):
 * each worker's new bests with `ms` counted from the solve's start, in time order, and when each
 * worker completed its first beam round (ms from the solve's start, null: never) and the work of
 * all workers by then (search/stagnation.ts counts it).
 */
export interface SearchTrace {
  improvements: (Improvement & { worker: number })[];
  firstBeamMs: (number | null)[];
  firstBeamWork: (number | null)[];
}

/**
 * Outcome of a solve (outcomes are data, nothing is thrown for them):
 * `solved` with a verified plan; `timedout` when the budget ended before any vehicle was packed
 * (spec: failed `time_limit_exceeded`); `canceled` when the signal aborted; `failed` when every
 * candidate failed verification or a worker crashed. A failure's `error` is data to log, never
 * thrown; after a crash its `cause` is what the worker threw. `computeMs` is wall time from the call;
 * `firstPlanMs` the earliest a worker had a complete construction (ms from its start); `work` the
 * block placements of all workers (search/work-budget.ts).
 */
export type SolveOutcome =
  | {
      status: 'solved';
      plan: Plan;
      computeMs: number;
      strategy: string;
      candidates: number;
      budgetReached: boolean;
      firstPlanMs: number | null;
      work: number;
      stopReason: StopReason;
      trace: SearchTrace;
    }
  | { status: 'timedout'; computeMs: number }
  | { status: 'canceled'; computeMs: number }
  | { status: 'failed'; error: Error; computeMs: number };

/**
 * Time kept back from the budget for assembling, cloning and verifying the plans, ms: a base
 * and a share per unit (a 2,000-unit plan takes about 0.3 s to assemble in a worker and 0.4–0.8 s
 * to verify on a busy machine), at most a quarter of the budget. The search runs to its deadline
 * unless it reaches the bound, so this is what keeps a solve within its budget. The base is
 * small: a BR job (100–150 units) ends 3–5 ms after its search's deadline, and a base of 150 ms
 * took a sixth of a 1 s budget from the search.
 */
const RESERVE_MS = 50;
const RESERVE_MS_PER_UNIT = 0.4;

/** How often a search's best plan so far is reported as progress, ms (the job record keeps at most one a second). */
export const SEARCH_PROGRESS_MS = 500;

/** True when this module is the compiled JavaScript in `dist/`. */
const COMPILED = !new URL(import.meta.url).pathname.endsWith('.ts');
/**
 * The worker thread's module, beside this one and in the same form: `thread.js` when this module
 * is the compiled JavaScript (`npm start` runs `dist/`, scripts/build-server.ts), `thread.ts`
 * under the tsx loader (tests, scripts), whose `--import tsx` the pool's threads then inherit.
 */
const THREAD_MODULE = new URL(COMPILED ? './thread.js' : './thread.ts', import.meta.url);
/**
 * The pool's threads inherit the process's Node options (thread-exec-argv.ts), but compiled
 * threads under the tsx loader (tests, scripts) get a short list without it, and without any
 * option outside that module's KEPT (other preloads too): tsx would transform `dist/`'s
 * JavaScript again, adding esbuild's `__name` helper to every closure (about 10 % fewer
 * placements per second than the compiled threads of `npm start`, which runs without tsx).
 */
const threadExecArgvOf = (module: URL): string[] | undefined =>
  threadExecArgv(process.execArgv, !module.pathname.endsWith('.ts'));

/** The parallel solver; one pool shared by all solves until close(). */
export class Solver {
  private readonly pool: Piscina;
  /** Worker tasks of one solve. */
  readonly threads: number;
  /** Worker threads of the pool (all started and warmed: a cold thread takes about a second). */
  readonly poolThreads: number;

  constructor(opts: SolverOptions = {}) {
    this.threads = Math.max(1, opts.threads ?? os.availableParallelism());
    this.poolThreads = Math.max(1, opts.poolThreads ?? this.threads * Math.max(1, opts.concurrency ?? 1));
    const module = opts.threadModule ?? THREAD_MODULE;
    this.pool = new Piscina({
      filename: module.href,
      execArgv: threadExecArgvOf(module),
      minThreads: this.poolThreads,
      maxThreads: this.poolThreads,
      idleTimeout: 60_000,
    });
  }

  /**
   * Resolves once every worker thread of the pool has loaded the search code (piscina hands a
   * task only to a thread that has), so a job's budget goes to its search and not to a cold
   * start: one warm-up task per thread, each held until all have arrived (thread.ts WarmTask), at
   * most 60 s; whatever they answer.
   */
  async warm(): Promise<void> {
    const arrived = new Int32Array(new SharedArrayBuffer(4));
    await Promise.allSettled(
      Array.from({ length: this.poolThreads }, () => {
        const task: WarmTask = { arrived, threads: this.poolThreads, timeoutMs: 60_000 };
        return this.pool.run(task);
      }),
    );
  }

  /** Solves `model` within `model.budgetMs` (ms of wall time). Never throws for search outcomes. */
  async solve(model: PackModel, opts: SolveOptions = {}): Promise<SolveOutcome> {
    const start = Date.now();
    const elapsed = (): number => Date.now() - start;
    const budget = Math.max(1, model.budgetMs);
    if (opts.signal?.aborted) return { status: 'canceled', computeMs: elapsed() };
    const progress = opts.onProgress ?? (() => undefined);
    progress({ stage: 'search', vehiclesDone: 0, placedItems: 0 });

    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    // Workers stop by themselves at their deadline; this only catches one that does not.
    const hardStop = setTimeout(() => controller.abort(), budget + 2_000);
    const units = model.items.reduce((n, it) => n + it.quantity, 0);
    const deadline = start + Math.max(1, budget - Math.min(RESERVE_MS + RESERVE_MS_PER_UNIT * units, budget / 4));
    let results: PromiseSettledResult<SearchResult>[];
    const converged = new Int32Array(new SharedArrayBuffer(4));
    converged[0] = 0x7fffffff;
    // Every solve counts its work on a board (the trace); only an automatic budget stops on
    // stagnation, and never in deterministic mode, which stays deterministic.
    const stagnation = stagnationBoard(new Set(model.items.map((it) => it.priority)).size, budget, start, units);
    const stopOnStagnation = model.budgetMode === 'automatic' && model.workLimit === undefined;
    // While the workers search, the best plan so far (on the shared board) is the progress.
    const progressTimer = setInterval(() => {
      const sofar = bestSoFar(stagnation);
      if (sofar) progress({ stage: 'search', vehiclesDone: sofar.vehicles, placedItems: sofar.placed });
    }, SEARCH_PROGRESS_MS);
    try {
      results = await Promise.allSettled(
        Array.from({ length: this.threads }, (_, worker) => {
          const task: SearchTask = {
            model,
            worker,
            stride: this.threads,
            deadline,
            converged,
            ...(model.workLimit !== undefined ? { work: model.workLimit } : {}),
            stagnation,
            stopOnStagnation,
          };
          return this.pool.run(task, { signal: controller.signal }) as Promise<SearchResult>;
        }),
      );
    } finally {
      clearInterval(progressTimer);
      clearTimeout(hardStop);
      opts.signal?.removeEventListener('abort', onAbort);
    }
    if (opts.signal?.aborted) return { status: 'canceled', computeMs: elapsed() };

    const ok = results
      .filter((r): r is PromiseFulfilledResult<SearchResult> => r.status === 'fulfilled')
      .map((r) => r.value);
    const crashed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (ok.length === 0) {
      if (controller.signal.aborted) return { status: 'timedout', computeMs: elapsed() };
      const reason: unknown = crashed?.reason;
      const error = new Error(`a search worker failed: ${reason instanceof Error ? reason.message : String(reason)}`, {
        cause: reason,
      });
      return { status: 'failed', error, computeMs: elapsed() };
    }
    const candidates = ok.reduce((s, r) => s + r.candidates, 0);
    const budgetReached = ok.some((r) => r.budgetReached);
    const firsts = ok.map((r) => r.firstPlanMs).filter((ms): ms is number => ms !== null);
    const firstPlanMs = firsts.length > 0 ? Math.min(...firsts) : null;
    const work = ok.reduce((s, r) => s + r.work, 0);
    const trace: SearchTrace = {
      improvements: ok
        .flatMap((r, worker) => r.improvements.map((imp) => ({ ...imp, ms: imp.ms + r.startedAt - start, worker })))
        .sort((a, b) => a.ms - b.ms),
      firstBeamMs: ok.map((r) => (r.firstBeamMs === null ? null : r.firstBeamMs + r.startedAt - start)),
      firstBeamWork: ok.map((r) => r.firstBeamWork),
    };
    const ranked: (RankedPlan & { worker: number })[] = [];
    ok.forEach((r, worker) => r.plans.forEach((p) => ranked.push({ ...p, worker })));
    // Plans at the lower bound cannot be beaten; the lowest strategy index among them is the one
    // every run finds (SearchTask.converged), whichever worker got there first.
    ranked.sort(
      (a, b) =>
        Number(b.atBound) - Number(a.atBound) ||
        (a.atBound && b.atBound ? a.index - b.index : 0) ||
        compareScores(a.score, b.score) ||
        a.worker - b.worker,
    );
    if (ranked.length === 0) return { status: 'timedout', computeMs: elapsed() };

    progress({
      stage: 'verify',
      vehiclesDone: ranked[0]!.plan.vehicles.length,
      placedItems: placedUnits(ranked[0]!.plan),
    });
    const problems: string[] = [];
    for (const r of ranked) {
      const violations = verifyPlan(model, r.plan);
      if (violations.length === 0) {
        progress({ stage: 'done', vehiclesDone: r.plan.vehicles.length, placedItems: placedUnits(r.plan) });
        const ends = ok.map((o) => o.ended);
        const stopReason: StopReason = r.atBound
          ? 'bound_reached'
          : ends.includes('deadline')
            ? 'time_limit'
            : ends.includes('work')
              ? 'work_limit'
              : ends.includes('stagnated')
                ? 'stagnated'
                : 'time_limit';
        return {
          status: 'solved',
          plan: r.plan,
          computeMs: elapsed(),
          strategy: r.strategy,
          candidates,
          budgetReached,
          firstPlanMs,
          work,
          stopReason,
          trace,
        };
      }
      problems.push(
        `${r.strategy}: ${violations
          .slice(0, 3)
          .map((v) => `${v.rule}: ${v.message}`)
          .join('; ')}`,
      );
    }
    return {
      status: 'failed',
      error: new Error(`every candidate failed verification (${problems.join(' | ')})`),
      computeMs: elapsed(),
    };
  }

  /** Stops the worker threads. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}

function placedUnits(plan: Plan): number {
  return plan.vehicles.reduce((s, v) => s + v.items_placed, 0);
}
