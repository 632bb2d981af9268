/**
 * When a worker's search must stop: at a wall-clock deadline, in deterministic mode after a
 * number of work units, and in an automatic budget once the search stagnates (stagnation.ts).
 * One work unit is one block placed in a vehicle, trial placements of the look-ahead included, so
 * the same model, seed, thread count and work limit give the same plan on any machine as long as
 * the deadline does not come first.
 */
import { stagnated, type StagnationBoard } from './stagnation.js';

/** The budget of one worker; `used` grows as blocks are placed. */
export interface WorkBudget {
  /** Epoch ms (Date.now()) after which the search stops. */
  deadline: number;
  /** Most work units (block placements); Infinity without a work limit. */
  limit: number;
  used: number;
  /**
   * The solve's stagnation board, once this worker may be stopped by it (automatic budget, after
   * its first complete beam search); absent otherwise.
   */
  stagnation?: StagnationBoard;
}

/** Why a budget is spent: `deadline`, `work` (the work limit) or `stagnated`. */
export type BudgetEnd = 'deadline' | 'work' | 'stagnated';

/** A budget ending at `deadline` (epoch ms) or after `limit` block placements. */
export function workBudget(deadline: number, limit = Infinity): WorkBudget {
  return { deadline, limit, used: 0 };
}

/** True once the deadline has passed, the work limit is used up or the search stagnated. */
export function spent(b: WorkBudget): boolean {
  if (b.used >= b.limit) return true;
  const now = Date.now();
  return now > b.deadline || (b.stagnation !== undefined && stagnated(b.stagnation, now));
}

/** Why `b` is spent (the first that holds of work, deadline, stagnation), or null while it is not. */
export function budgetEnd(b: WorkBudget): BudgetEnd | null {
  if (b.used >= b.limit) return 'work';
  const now = Date.now();
  if (now > b.deadline) return 'deadline';
  if (b.stagnation !== undefined && stagnated(b.stagnation, now)) return 'stagnated';
  return null;
}
