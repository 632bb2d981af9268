/**
 * When a worker's search must stop: at a wall-clock deadline, in deterministic mode after a
 * number of work units, and in an automatic budget once the search stagnates (stagnation.ts).
 * One work unit is one block placed in a vehicle, trial placements of the look-ahead included, so
 * the same model, seed, thread count and work limit give the same plan on any machine as long as
 * the deadline does not come first.
 */
import { countWork, stagnated, type StagnationBoard } from './stagnation.js';

/** The budget of one worker; `used` grows as blocks are placed. */
export interface WorkBudget {
  /** Epoch ms (Date.now()) after which the search stops. */
  deadline: number;
  /** Most work units (block placements); Infinity without a work limit. */
  limit: number;
  used: number;
  /**
   * Automatic budget only: the solve's stagnation board, on whose counter this worker's work is
   * added, and whether it may stop this worker yet (after its first beam round, search.ts).
   */
  stagnation?: { board: StagnationBoard; counted: number; armed: boolean };
}

/** Why a budget is spent: `deadline`, `work` (the work limit) or `stagnated`. */
export type BudgetEnd = 'deadline' | 'work' | 'stagnated';

/** A budget ending at `deadline` (epoch ms), after `limit` block placements or, with `board`, on stagnation once armed. */
export function workBudget(deadline: number, limit = Infinity, board?: StagnationBoard): WorkBudget {
  return { deadline, limit, used: 0, ...(board ? { stagnation: { board, counted: 0, armed: false } } : {}) };
}

/** True once the deadline has passed, the work limit is used up or the search stagnated. */
export function spent(b: WorkBudget): boolean {
  return budgetEnd(b) !== null;
}

/** Why `b` is spent (the first that holds of work, deadline, stagnation), or null while it is not. */
export function budgetEnd(b: WorkBudget): BudgetEnd | null {
  if (b.used >= b.limit) return 'work';
  const now = Date.now();
  if (now > b.deadline) return 'deadline';
  const s = b.stagnation;
  if (s !== undefined) {
    countWork(s.board, b.used - s.counted);
    s.counted = b.used;
    if (s.armed && stagnated(s.board, now)) return 'stagnated';
  }
  return null;
}
