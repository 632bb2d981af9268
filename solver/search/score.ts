/**
 * The figures of the search objective and their order (objective.ts scores a construction):
 * placed volume per priority, then fewer vehicles, more units, higher fill, better balance.
 * Kept apart from the scoring so the stagnation board (stagnation.ts) compares plans without
 * depending on constructions.
 */

/** Objective figures of one construction (objective.ts scoreOf). */
export interface Score {
  /** Placed volume (cm³) per distinct priority, highest priority first. */
  volumeByPriority: number[];
  /** Placed units. */
  placed: number;
  vehicles: number;
  /** Placed volume / volume of the loaded vehicles, 0–1. */
  utilization: number;
  /** 0 = every centre of gravity at its vehicle's floor centre (in x and z). */
  imbalance: number;
}

/** Negative when `a` is better than `b`, positive when worse, 0 when equal. */
export function compareScores(a: Score, b: Score): number {
  for (let i = 0; i < a.volumeByPriority.length; i++) {
    const d = (b.volumeByPriority[i] ?? 0) - (a.volumeByPriority[i] ?? 0);
    if (Math.abs(d) > 1e-6) return d;
  }
  if (a.vehicles !== b.vehicles) return a.vehicles - b.vehicles;
  if (a.placed !== b.placed) return b.placed - a.placed;
  if (Math.abs(a.utilization - b.utilization) > 1e-12) return b.utilization - a.utilization;
  if (Math.abs(a.imbalance - b.imbalance) > 1e-12) return a.imbalance - b.imbalance;
  return 0;
}
