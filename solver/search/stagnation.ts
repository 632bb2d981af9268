/**
 * The stagnation stop of an automatic budget (`options.time_limit` 0): the workers of one solve
 * share the best objective figures found so far and the time of the last improvement of that
 * best, and stop once no better plan has come for max(STAGNATION_MIN_MS, STAGNATION_SHARE · the
 * time since the solve began) — and only after each worker has completed its first beam search
 * (search.ts), so a search is never ended before it has looked beyond the greedy plans. An
 * explicit `time_limit` is never cut short by it (customers who ask for 20 s get 20 s).
 *
 * The board lives on SharedArrayBuffers, so it crosses into the worker threads with the task:
 * cell 0 of `cells` is a spin lock, cell 1 the stop time (ms after `origin`, 2^31 − 1 until a
 * first plan), cell 2 the time of the last improvement; `best` holds the objective figures
 * (objective.ts Score, flattened) of the best plan.
 */
import { compareScores, type Score } from './objective.js';

/** Least time without a better plan before an automatic search stops, ms. */
export const STAGNATION_MIN_MS = 1000;
/** Share of the time spent so far that must pass without a better plan (0.3 = 30 %). */
export const STAGNATION_SHARE = 0.3;

const NEVER = 0x7fffffff;
const LOCK = 0;
const STOP_AT = 1;
const LAST_IMPROVEMENT = 2;

/** Shared between the workers of one solve (see top). */
export interface StagnationBoard {
  /** Epoch ms (Date.now()) the solve began; the board's times count from it. */
  origin: number;
  cells: Int32Array;
  /** [has a plan, volumeByPriority…, placed, vehicles, utilization, imbalance]. */
  best: Float64Array;
}

/** A new board for a model with `priorities` distinct item priorities, the solve beginning at `origin` (epoch ms). */
export function stagnationBoard(priorities: number, origin: number): StagnationBoard {
  const cells = new Int32Array(new SharedArrayBuffer(3 * 4));
  cells[STOP_AT] = NEVER;
  cells[LAST_IMPROVEMENT] = NEVER;
  const best = new Float64Array(new SharedArrayBuffer((priorities + 5) * 8));
  return { origin, cells, best };
}

/**
 * When the search stops if nothing better comes after an improvement at `lastMs` (ms from the
 * solve's start): the first t with t − lastMs ≥ max(STAGNATION_MIN_MS, STAGNATION_SHARE · t).
 */
export function stagnationStopMs(lastMs: number): number {
  return Math.ceil(Math.max(lastMs + STAGNATION_MIN_MS, lastMs / (1 - STAGNATION_SHARE)) - 1e-9);
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
 * Offers a worker's new best plan's figures to the board at `now` (epoch ms). When they beat the
 * board's best in what the customer gets — placed volume per priority, vehicles, units, fill;
 * a better balance alone does not count, it would keep a search alive for a few cm of centre of
 * gravity — they become it and the stop time moves to stagnationStopMs(now). True when they did.
 */
export function offerBest(board: StagnationBoard, score: Score, now: number): boolean {
  const priorities = score.volumeByPriority.length;
  lock(board.cells);
  try {
    if (
      board.best[0] === 1 &&
      compareScores({ ...score, imbalance: 0 }, { ...read(board.best, priorities), imbalance: 0 }) >= 0
    )
      return false;
    write(board.best, score);
    const at = Math.max(0, Math.min(NEVER - 1, now - board.origin));
    Atomics.store(board.cells, LAST_IMPROVEMENT, at);
    Atomics.store(board.cells, STOP_AT, Math.min(NEVER, stagnationStopMs(at)));
    return true;
  } finally {
    unlock(board.cells);
  }
}

/** True once the board's stop time has passed at `now` (epoch ms): nothing better for long enough. */
export function stagnated(board: StagnationBoard, now: number): boolean {
  return now - board.origin >= Atomics.load(board.cells, STOP_AT);
}
