/**
 * The stagnation stop of an automatic budget (`options.time_limit` 0). The workers of one solve
 * share the best objective figures found so far, the time and work of the last improvement of
 * that best, and one work counter (block placements, work-budget.ts). The search stops once no
 * better plan has come
 * - for max(STAGNATION_MIN_MS, STAGNATION_BUDGET_SHARE · the budget, STAGNATION_SHARE · the time
 *   since the solve began), and
 * - for STAGNATION_SHARE · all the work done so far,
 * both shares times STAGNATION_LEFT_OVER_FACTOR while the best plan leaves units unplaced; and a
 * worker only after it has completed its first beam round (search.ts), so a search is never
 * ended before it has looked beyond the greedy plans. An explicit `time_limit` is never cut short
 * by it (customers who ask for 20 s get 20 s).
 *
 * Why the two windows: a job whose plan places every unit can still save a whole vehicle late in
 * its budget, while a job with units left over only gains a little fill, and the plan that gains
 * it often comes far later than any window worth its compute. Chosen by replaying rules over the
 * searches of 210 jobs (`npm run bench -- stop-rules`, scripts/bench-stop-rules.ts).
 *
 * Why both: the budget grows with the units (2 s + 15 ms per unit) as does the cost of one
 * placement, so a window in time scales with the job; the work condition keeps a busy machine
 * (several jobs sharing the cores, SOLVER_CONCURRENCY) from stopping a search that has done less
 * than it would have on a quiet one. Measured with `npm run bench -- auto` (scripts/bench-auto.ts).
 *
 * The board lives on SharedArrayBuffers, so it crosses into the worker threads with the task:
 * `cells` holds a spin lock, the work counter, the work and the time (ms after `origin`) of the
 * last improvement (2^31 − 1 until a first plan); `best` the objective figures (objective.ts
 * Score, flattened) of the best plan.
 */
import { compareScores, type Score } from './score.js';

/** Least time without a better plan before an automatic search stops, ms. */
export const STAGNATION_MIN_MS = 1000;
/** … and at least this share of the budget (0.3 = 30 %). */
export const STAGNATION_BUDGET_SHARE = 0.3;
/** Share of the time and of the work so far that must pass without a better plan (0.3 = 30 %). */
export const STAGNATION_SHARE = 0.3;
/** Factor on both shares while the best plan leaves units unplaced (0.6: 18 % of the budget, of the time and of the work). */
export const STAGNATION_LEFT_OVER_FACTOR = 0.6;

const NEVER = 0x7fffffff;
const LOCK = 0;
const WORK = 1;
const LAST_WORK = 2;
const LAST_MS = 3;

/** Shared between the workers of one solve (see top). */
export interface StagnationBoard {
  /** Epoch ms (Date.now()) the solve began; the board's times count from it. */
  origin: number;
  /** The least time without a better plan while every unit is placed: max(STAGNATION_MIN_MS, STAGNATION_BUDGET_SHARE · budget), ms. */
  minMs: number;
  /** … and while units are left over: the budget's share times STAGNATION_LEFT_OVER_FACTOR, ms. */
  leftOverMinMs: number;
  /** Units of the job. */
  units: number;
  cells: Int32Array;
  /** [has a plan, volumeByPriority…, placed, vehicles, utilization, imbalance]. */
  best: Float64Array;
}

/**
 * A new board for a model with `priorities` distinct item priorities and `units` units, a budget
 * of `budgetMs` (ms), the solve beginning at `origin` (epoch ms).
 */
export function stagnationBoard(priorities: number, budgetMs: number, origin: number, units: number): StagnationBoard {
  const cells = new Int32Array(new SharedArrayBuffer(4 * 4));
  cells[LAST_WORK] = NEVER;
  cells[LAST_MS] = NEVER;
  const best = new Float64Array(new SharedArrayBuffer((priorities + 5) * 8));
  return {
    origin,
    minMs: Math.max(STAGNATION_MIN_MS, STAGNATION_BUDGET_SHARE * budgetMs),
    leftOverMinMs: Math.max(STAGNATION_MIN_MS, STAGNATION_BUDGET_SHARE * STAGNATION_LEFT_OVER_FACTOR * budgetMs),
    units,
    cells,
    best,
  };
}

/**
 * Whether a search with its last improvement at `last` (ms after its start and work units done
 * by then) has stagnated at `now` (the same): no better plan for max(minMs, share · now.ms) ms
 * and for share · now.work work units.
 */
export function stagnatedAt(
  last: { ms: number; work: number },
  now: { ms: number; work: number },
  minMs: number,
  share = STAGNATION_SHARE,
): boolean {
  return now.ms - last.ms >= Math.max(minMs, share * now.ms) && now.work - last.work >= share * now.work;
}

/** Adds `n` block placements to the solve's work counter. */
export function countWork(board: StagnationBoard, n: number): void {
  if (n > 0) Atomics.add(board.cells, WORK, n);
}

/** Block placements of all workers so far. */
export function workDone(board: StagnationBoard): number {
  return Atomics.load(board.cells, WORK);
}

function lock(cells: Int32Array): void {
  while (Atomics.compareExchange(cells, LOCK, 0, 1) !== 0) {
    // Held for a few hundred ns by another worker: spin.
  }
}

function unlock(cells: Int32Array): void {
  Atomics.store(cells, LOCK, 0);
}

function read(best: Float64Array, priorities: number): Score {
  return {
    volumeByPriority: Array.from(best.subarray(1, 1 + priorities)),
    placed: best[1 + priorities]!,
    vehicles: best[2 + priorities]!,
    utilization: best[3 + priorities]!,
    imbalance: best[4 + priorities]!,
  };
}

function write(best: Float64Array, s: Score): void {
  best[0] = 1;
  s.volumeByPriority.forEach((v, i) => (best[1 + i] = v));
  const p = s.volumeByPriority.length;
  best[1 + p] = s.placed;
  best[2 + p] = s.vehicles;
  best[3 + p] = s.utilization;
  best[4 + p] = s.imbalance;
}

/**
 * Whether `a` beats `b` in what the customer gets: placed volume per priority, vehicles, units,
 * fill (objective order, score.ts); balance aside. What counts as an improvement of the board.
 */
export function betterForCustomer(a: Score, b: Score): boolean {
  return compareScores({ ...a, imbalance: 0 }, { ...b, imbalance: 0 }) < 0;
}

/**
 * Offers a worker's new best plan's figures to the board at `now` (epoch ms). When they beat the
 * board's best in what the customer gets — placed volume per priority, vehicles, units, fill; a
 * better balance alone does not count, it would keep a search alive for a few cm of centre of
 * gravity — they become it and the time and work of the last improvement are now's. True when
 * they did.
 */
export function offerBest(board: StagnationBoard, score: Score, now: number): boolean {
  const priorities = score.volumeByPriority.length;
  lock(board.cells);
  try {
    if (board.best[0] === 1 && !betterForCustomer(score, read(board.best, priorities))) return false;
    write(board.best, score);
    Atomics.store(board.cells, LAST_WORK, Math.min(NEVER - 1, workDone(board)));
    Atomics.store(board.cells, LAST_MS, Math.max(0, Math.min(NEVER - 1, now - board.origin)));
    return true;
  } finally {
    unlock(board.cells);
  }
}

/**
 * The units placed and vehicles used by the board's best plan so far (of every worker), or null
 * before the first one: what a running job's progress shows while its search computes. Read
 * without the lock (two figures a worker may be rewriting: a progress report may pair a new
 * count with the last one's vehicles for one second).
 */
export function bestSoFar(board: StagnationBoard): { placed: number; vehicles: number } | null {
  if (board.best[0] !== 1) return null;
  const n = board.best.length;
  return { placed: board.best[n - 4]!, vehicles: board.best[n - 3]! };
}

/** True once no better plan has come for long enough at `now` (epoch ms); never before a first plan. */
export function stagnated(board: StagnationBoard, now: number): boolean {
  const lastMs = Atomics.load(board.cells, LAST_MS);
  if (lastMs === NEVER) return false;
  // Units placed by the best plan (read without the lock: one figure, written before LAST_MS;
  // the layout of `best` is read()'s: placed after the priorities' volumes, then four figures).
  const placed = board.best[board.best.length - 4]!;
  const leftOver = placed < board.units;
  return stagnatedAt(
    { ms: lastMs, work: Atomics.load(board.cells, LAST_WORK) },
    { ms: now - board.origin, work: workDone(board) },
    leftOver ? board.leftOverMinMs : board.minMs,
    leftOver ? STAGNATION_SHARE * STAGNATION_LEFT_OVER_FACTOR : STAGNATION_SHARE,
  );
}
