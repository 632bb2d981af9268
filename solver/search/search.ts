/**
 * The search loop of one worker: runs constructions with the strategies `worker`,
 * `worker + stride`, ... (strategy.ts) until the deadline, the work limit, convergence or, in an
 * automatic budget, stagnation (stagnation.ts), and returns its best plans by the objective
 * (objective.ts).
 */
import type { PackModel, Plan } from '../../domain/pack/plan.js';
import { loadFleet, type Construction } from './fleet-load.js';
import { jobContext } from './job-context.js';
import { scoreOf, vehicleLowerBound } from './objective.js';
import { compareScores, type Score } from './score.js';
import { assemblePlan } from './plan-assembly.js';
import { offerBest, workDone, type StagnationBoard } from './stagnation.js';
import { beamRound, randomsPerRound, strategyAt } from './strategy.js';
import { budgetEnd, spent, workBudget, type BudgetEnd } from './work-budget.js';

/** Work for one worker. */
export interface SearchTask {
  model: PackModel;
  /** This worker's number, 0..stride−1, and the number of workers. */
  worker: number;
  stride: number;
  /** Epoch ms (Date.now()) at which the worker must return. */
  deadline: number;
  /**
   * Deterministic mode: the most work units (block placements, work-budget.ts) this worker
   * spends; the same model, seed, thread count and work limit then give the same plan as long
   * as the deadline does not come first. Absent: the deadline alone ends the search.
   */
  work?: number;
  /** Plans returned (best first), so the coordinator has fallbacks if one fails verification. */
  keep?: number;
  /**
   * Shared by the workers of one solve (one Int32 on a SharedArrayBuffer, start 2^31 − 1): the
   * lowest strategy index whose plan placed every unit in the fewest possible vehicles
   * (`atBound`). A worker skips strategies after it. Every worker runs its strategies up to that
   * index, so taking the at-bound plan of the lowest index gives the same plan for the same
   * model, seed and threads, whichever worker finds one first.
   */
  converged?: Int32Array;
  /**
   * The solve's stagnation board (stagnation.ts): the worker counts its work on it and offers it
   * every new best. With `stopOnStagnation` (an automatic budget, not in deterministic mode) the
   * worker, once it has completed its first beam round (the beam search and the random
   * constructions after it, strategy.ts beamRound), stops when the board says the solve's best
   * has not improved for long enough.
   */
  stagnation?: StagnationBoard;
  stopOnStagnation?: boolean;
}

/** Why a worker's search ended: its plan (or another worker's) reached the bound, or its budget ended. */
export type SearchEnd = 'bound' | BudgetEnd;

/**
 * A new best of a worker: ms from the worker's start, work units done by then (of all workers
 * when the solve has a stagnation board, stagnation.ts; else this worker's) and the objective
 * figures.
 */
export interface Improvement {
  ms: number;
  work: number;
  score: Score;
}

/** One returned plan with its objective figures. */
export interface RankedPlan {
  plan: Plan;
  score: Score;
  strategy: string;
  /** Strategy index (strategy.ts strategyAt). */
  index: number;
  /**
   * Nothing can be better: every unit placed in as few vehicles as the lower bound allows, or no
   * unit fits in any vehicle at all.
   */
  atBound: boolean;
}

/** What a worker returns. */
export interface SearchResult {
  /** Best first; empty when the deadline came before any unit was placed. */
  plans: RankedPlan[];
  candidates: number;
  /** The budget (deadline or work limit) ended the search, not convergence. */
  budgetReached: boolean;
  /** ms from the search's start to its first complete construction (null: none completed). */
  firstPlanMs: number | null;
  /** Work units spent (block placements, work-budget.ts). */
  work: number;
  /** Why the search ended. */
  ended: SearchEnd;
  /** Every new best of this worker, in order (for the stop-rule bench, scripts/bench-auto.ts). */
  improvements: Improvement[];
  /** ms from the worker's start to the end of its first complete beam round (null: none). */
  firstBeamMs: number | null;
  /** Work units done by then (of all workers with a stagnation board, else this worker's). */
  firstBeamWork: number | null;
  /** Epoch ms (Date.now()) the worker started. */
  startedAt: number;
}

/** Atomically lowers cell 0 of `cell` to `v` if `v` is smaller. */
function lowerTo(cell: Int32Array, v: number): void {
  for (;;) {
    const cur = Atomics.load(cell, 0);
    if (v >= cur || Atomics.compareExchange(cell, 0, cur, v) === cur) return;
  }
}

/** Runs the search of one worker (pure apart from reading the clock). */
export function search(task: SearchTask): SearchResult {
  const ctx = jobContext(task.model);
  const lowerBound = vehicleLowerBound(ctx);
  const total = task.model.items.reduce((s, it) => s + it.quantity, 0);
  const keep = task.keep ?? 2;
  const budget = workBudget(task.deadline, task.work, task.stagnation);
  const best: { c: Construction; score: Score; index: number }[] = [];
  let candidates = 0,
    budgetReached = false;
  const started = Date.now();
  let firstPlanMs: number | null = null,
    firstBeamMs: number | null = null,
    firstBeamWork: number | null = null;
  let ended: SearchEnd = 'bound';
  const improvements: Improvement[] = [];
  const randoms = randomsPerRound(task.model);
  // Pinned units are placed by every construction (pinned.ts).
  const pinned = ctx.pinnedCount.reduce((s, n) => s + n, 0);
  /**
   * Nothing can be better: every unit placed in as few vehicles as the bound allows, or a
   * complete construction placed no unit at all besides the pinned ones (every strategy offers,
   * in an empty vehicle or in the spaces around a vehicle's pinned units, a block of any unit
   * that fits there, so no construction can place one).
   */
  const atBound = (score: Score, c: Construction): boolean =>
    (score.placed === total && score.vehicles <= lowerBound) || (score.placed === pinned && !c.cut);
  for (let i = task.worker; ; i += task.stride) {
    if (task.converged && i > Atomics.load(task.converged, 0)) break;
    if (spent(budget)) {
      budgetReached = true;
      ended = budgetEnd(budget) ?? 'stagnated';
      break;
    }
    if (firstBeamMs === null && beamRound(i, randoms) >= 1) {
      // The first beam round is complete: from now on stagnation may end this worker.
      firstBeamMs = Date.now() - started;
      if (budget.stagnation && task.stopOnStagnation) budget.stagnation.armed = true;
      firstBeamWork = task.stagnation ? workDone(task.stagnation) : budget.used;
    }
    const c = loadFleet(ctx, strategyAt(task.model.seed, i, randoms), budget);
    candidates++;
    if (firstPlanMs === null && !c.cut) firstPlanMs = Date.now() - started;
    const score = scoreOf(ctx, c);
    const placed = score.placed;
    // A construction cut by the deadline with nothing placed is no plan; a complete one is,
    // even if nothing fits (every unit then unplaced with its reason).
    if (placed > 0 || !c.cut) {
      const pos = best.findIndex((b) => compareScores(score, b.score) < 0);
      const improved = pos === 0 || best.length === 0;
      if (pos >= 0) best.splice(pos, 0, { c, score, index: i });
      else best.push({ c, score, index: i });
      best.length = Math.min(best.length, keep);
      if (improved) {
        spent(budget); // brings the shared work counter up to date
        const now = Date.now();
        improvements.push({
          ms: now - started,
          work: task.stagnation ? workDone(task.stagnation) : budget.used,
          score,
        });
        if (task.stagnation) offerBest(task.stagnation, score, now);
      }
    }
    if (c.cut) {
      budgetReached = true;
      ended = budgetEnd(budget) ?? 'stagnated';
      break;
    }
    const top = best[0];
    if (top && atBound(top.score, top.c)) {
      if (task.converged) lowerTo(task.converged, i);
      break;
    }
    // Greedy constructions are deterministic without randomness: one empty job needs no retries.
    if (total === 0) break;
  }
  return {
    plans: best.map((b) => ({
      plan: assemblePlan(task.model, b.c),
      score: b.score,
      strategy: b.c.strategy.name,
      index: b.index,
      atBound: atBound(b.score, b.c),
    })),
    candidates,
    budgetReached,
    firstPlanMs,
    work: budget.used,
    ended,
    improvements,
    firstBeamMs,
    firstBeamWork,
    startedAt: started,
  };
}
