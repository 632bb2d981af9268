/**
 * When a worker's search must stop: at a wall-clock deadline and, in deterministic mode, after a
 * number of work units. One work unit is one block placed in a vehicle, trial placements of the
 * look-ahead included, so the same model, seed, thread count and work limit give the same plan
 * on any machine as long as the deadline does not come first.
 */

/** The budget of one worker; `used` grows as blocks are placed. */
export interface WorkBudget {
  /** Epoch ms (Date.now()) after which the search stops. */
  deadline: number;
  /** Most work units (block placements); Infinity without a work limit. */
  limit: number;
  used: number;
}

/** A budget ending at `deadline` (epoch ms) or after `limit` block placements. */
export function workBudget(deadline: number, limit = Infinity): WorkBudget {
  return { deadline, limit, used: 0 };
}

/** True once the deadline has passed or the work limit is used up. */
export function spent(b: WorkBudget): boolean {
  return b.used >= b.limit || Date.now() > b.deadline;
}
