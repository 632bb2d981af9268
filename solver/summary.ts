/** Spec JobSummary figures of a plan (queue_ms and compute_ms come from the job's times). */
import type { PlanSummary } from '../domain/job/job.js';
import type { Plan } from '../domain/pack/plan.js';

/**
 * A vehicle's volume utilization as a figure the summary can average: within 0–1, and 0 when it
 * is not a finite number (a cargo volume that underflows to 0 gives NaN or Infinity; the schema's
 * 0.1 cm minimum keeps requests away from that, but a NaN would reach the client as `null`).
 */
export function usableUtilization(ratio: number): number {
  return Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 0;
}

/**
 * Counts, total weight (kg) and mean volume utilization (0–1, each vehicle's figure taken
 * through usableUtilization) over the used vehicles. Never NaN.
 */
export function summarizePlan(plan: Plan): PlanSummary {
  const placed = plan.vehicles.reduce((n, v) => n + v.placements.length, 0);
  const weight = plan.vehicles.reduce((w, v) => w + v.total_weight, 0);
  const utilization =
    plan.vehicles.length === 0
      ? 0
      : plan.vehicles.reduce((u, v) => u + usableUtilization(v.volume_utilization), 0) / plan.vehicles.length;
  return {
    items_placed: placed,
    items_unplaced: plan.unplaced.length,
    vehicles_used: plan.vehicles.length,
    total_weight: Math.round(weight * 1000) / 1000,
    volume_utilization: Math.round(utilization * 10000) / 10000,
  };
}
