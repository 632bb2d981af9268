/**
 * The stagnation stop of an automatic budget (`options.time_limit` 0). The workers of one solve
 * share the best objective figures found so far and count their work (block placements,
 * work-budget.ts) on one shared counter; the search stops once the workers together have done
 * max(STAGNATION_MIN_WORK, STAGNATION_SHARE · all the work so far) placements without a better
 * plan — and a worker only after it has completed its first beam round (search.ts), so a search
 * is never ended before it has looked beyond the greedy plans. An explicit `time_limit` is never
 * cut short by it (customers who ask for 20 s get 20 s).
 *
 * The rule counts work, not time, so a plan does not get worse when the machine is busy (several
 * jobs share the cores, SOLVER_CONCURRENCY): a loaded machine takes longer to reach the same stop.
 *
 * The board lives on SharedArrayBuffers, so it crosses into the worker threads with the task:
 * `cells` holds a spin lock, the work counter, the work count of the last improvement and the
 * stop count (2^31 − 1 until a first plan); `best` the objective figures (objective.ts Score,
 * flattened) of the best plan.
 */
import { compareScores, type Score } from './objective.js';

/** Least work (block placements of all workers) without a better plan before an automatic search stops. */
export const STAGNATION_MIN_WORK = 20_000;
/** Share of all the work so far that must pass without a better plan (0.3 = 30 %). */
export const STAGNATION_SHARE = 0.3;

const NEVER = 0x7fffffff;
const LOCK = 0;
const WORK = 1;
const LAST_IMPROVEMENT = 2;
const STOP_AT = 3;

/** Shared between the workers of one solve (see top). */
export interface StagnationBoard {
  cells: Int32Array;
  /** [has a plan, volumeByPriority…, placed, vehicles, utilization, imbalance]. */
  best: Float64Array;
}

/** A new board for a model with `priorities` distinct item priorities. */
export function stagnationBoard(priorities: number): StagnationBoard {
  const cells = new Int32Array(new SharedArrayBuffer(4 * 4));
  cells[LAST_IMPROVEMENT] = NEVER;
  cells[STOP_AT] = NEVER;
  const best = new Float64Array(new SharedArrayBuffer((priorities + 5) * 8));
  return { cells, best };
}

/**
 * The work count at which the search stops if nothing better comes after an improvement at work
 * count `last`: the first w with w − last ≥ max(STAGNATION_MIN_WORK, STAGNATION_SHARE · w).
 */
export function stagnationStopWork(last: number): number {
  return Math.ceil(Math.max(last + STAGNATION_MIN_WORK, last / (1 - STAGNATION_SHARE)) - 1e-9);
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
 * Offers a worker's new best plan's figures to the board. When they beat the board's best in
 * what the customer gets — placed volume per priority, vehicles, units, fill; a better balance
 * alone does not count, it would keep a search alive for a few cm of centre of gravity — they
 * become it and the stop moves to stagnationStopWork(the work so far). True when they did.
 */
export function offerBest(board: StagnationBoard, score: Score): boolean {
  const priorities = score.volumeByPriority.length;
  const level = (s: Score): Score => ({ ...s, imbalance: 0 });
  lock(board.cells);
  try {
    if (board.best[0] === 1 && compareScores(level(score), level(read(board.best, priorities))) >= 0) return false;
    write(board.best, score);
    const at = Math.min(NEVER - 1, workDone(board));
    Atomics.store(board.cells, LAST_IMPROVEMENT, at);
    Atomics.store(board.cells, STOP_AT, Math.min(NEVER, stagnationStopWork(at)));
    return true;
  } finally {
    unlock(board.cells);
  }
}

/** True once the work counter has reached the board's stop: nothing better for long enough. */
export function stagnated(board: StagnationBoard): boolean {
  return workDone(board) >= Atomics.load(board.cells, STOP_AT);
}
