/** Spec JobSummary figures of a plan (queue_ms and compute_ms come from the job's times). */
import type { PlanSummary } from '../domain/job/job.js';
import type { Plan } from '../domain/pack/plan.js';

/** Counts, total weight (kg) and mean volume utilization (0–1) over the used vehicles. */
export function summarizePlan(plan: Plan): PlanSummary {
  const placed = plan.vehicles.reduce((n, v) => n + v.placements.length, 0);
  const weight = plan.vehicles.reduce((w, v) => w + v.total_weight, 0);
  const utilization = plan.vehicles.length === 0 ? 0 : plan.vehicles.reduce((u, v) => u + v.volume_utilization, 0) / plan.vehicles.length;
  return {
    items_placed: placed,
    items_unplaced: plan.unplaced.length,
    vehicles_used: plan.vehicles.length,
    total_weight: Math.round(weight * 1000) / 1000,
    volume_utilization: Math.round(utilization * 10000) / 10000,
  };
}
