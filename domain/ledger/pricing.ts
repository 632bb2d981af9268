/**
 * Prices of a job (spec "Credits and pricing", Estimate): components, the estimate range, the
 * admission terms that fit the balance, and the settlement charge per outcome.
 */
import type { Micros } from './money.js';
import type { RateCard } from './rate-card.js';

/** Spec CostBreakdown in micro-credits. */
export interface Breakdown {
  base: Micros;
  vehicles: Micros;
  compute: Micros;
  large_load: Micros;
}

export function total(b: Breakdown): Micros {
  return b.base + b.vehicles + b.compute + b.large_load;
}

/** Large-load surcharge for `units` item units: per started 100 units above the threshold. */
export function largeLoad(card: RateCard, units: number): Micros {
  const over = units - card.largeLoadThreshold;
  return over > 0 ? Math.ceil(over / 100) * card.perLargeLoadBlock : 0;
}

/** Compute charge for `computeMs` ms, pro rata per ms, rounded down. */
export function computeCharge(card: RateCard, computeMs: number): Micros {
  return Math.floor((Math.max(0, computeMs) * card.perComputeSecond) / 1000);
}

/** Every component for a run loading `vehicles` vehicles with `computeMs` of compute. */
export function priceRun(card: RateCard, run: { vehicles: number; computeMs: number; units: number }): Breakdown {
  return {
    base: card.base,
    vehicles: run.vehicles * card.perVehicle,
    compute: computeCharge(card, run.computeMs),
    large_load: largeLoad(card, run.units),
  };
}

/** What a job may use and what is reserved for it. */
export interface AdmissionTerms {
  reserved: Micros;
  maxVehicles: number;
  budgetMs: number;
  /** True when the balance, not the request, set maxVehicles or budgetMs. */
  limitedByBalance: boolean;
}

/**
 * Compute budget below which a run is not useful, ms: about what one construction of a request
 * needs on one thread (the automatic budget starts at 2 s); a job given less is certain to end
 * `time_limit_exceeded`, charged for nothing it can use.
 */
export const MIN_USEFUL_BUDGET_MS = 1000;

/** The smallest run worth admitting: its vehicles, compute budget (ms) and worst-case price. */
export interface SmallestRun {
  vehicles: number;
  budgetMs: number;
  price: Micros;
}

/**
 * The smallest useful run of a job (spec "Credits and pricing": 402 when the balance does not
 * cover the smallest possible run): the fewest vehicles the load can need (`minVehicles`) and a
 * compute budget of {@link MIN_USEFUL_BUDGET_MS} (or the requested budget when that is smaller),
 * priced at the worst case: base + minVehicles × per-vehicle + compute for that budget + the
 * large-load surcharge. With rate card 1, 8 vehicles and ≤ 500 units: 0.10 + 0.40 + 0.002 = 0.502.
 */
export function smallestUsefulRun(
  card: RateCard,
  job: { units: number; minVehicles: number; budgetMs: number },
): SmallestRun {
  const budgetMs = Math.min(Math.max(1, job.budgetMs), MIN_USEFUL_BUDGET_MS);
  return {
    vehicles: job.minVehicles,
    budgetMs,
    price: total(priceRun(card, { vehicles: job.minVehicles, computeMs: budgetMs, units: job.units })),
  };
}

/**
 * Admission terms (spec: reserve `max_credits`; 402 when the balance does not cover the smallest
 * run, read as the smallest *useful* run, {@link smallestUsefulRun}). When `available` covers that
 * run but not the worst case, the run is shortened so that its worst case fits the balance: the
 * vehicle limit first comes down to what leaves room for the smallest useful budget (never below
 * `minVehicles`), then the compute budget takes what is left (never below the useful minimum).
 * The reservation is the worst case of that reduced run, ≤ `available`, so the charge can never
 * exceed it. Returns null when `available` does not cover the smallest useful run.
 */
export function admissionTerms(
  card: RateCard,
  available: Micros,
  job: { units: number; minVehicles: number; maxVehicles: number; budgetMs: number },
): AdmissionTerms | null {
  const smallest = smallestUsefulRun(card, job);
  if (available < smallest.price) return null;
  const max = total(priceRun(card, { vehicles: job.maxVehicles, computeMs: job.budgetMs, units: job.units }));
  if (available >= max)
    return { reserved: max, maxVehicles: job.maxVehicles, budgetMs: job.budgetMs, limitedByBalance: false };
  const fixed = card.base + largeLoad(card, job.units);
  const usefulCompute = computeCharge(card, smallest.budgetMs);
  let maxVehicles = job.maxVehicles;
  if (fixed + maxVehicles * card.perVehicle + usefulCompute > available) {
    maxVehicles = Math.max(job.minVehicles, Math.floor((available - fixed - usefulCompute) / card.perVehicle));
  }
  const left = available - fixed - maxVehicles * card.perVehicle;
  const budgetMs =
    card.perComputeSecond > 0
      ? Math.max(smallest.budgetMs, Math.min(job.budgetMs, Math.floor((left * 1000) / card.perComputeSecond)))
      : job.budgetMs;
  const reserved = total(priceRun(card, { vehicles: maxVehicles, computeMs: budgetMs, units: job.units }));
  return { reserved, maxVehicles, budgetMs, limitedByBalance: true };
}

/** How a job ended, for settlement. */
export type JobOutcome =
  'succeeded' | 'canceled' | 'time_limit_exceeded' | 'engine_failed' | 'queue_timeout' | 'server_restarted';

/**
 * The final charge (spec "Credits and pricing"): succeeded → every component; canceled → base +
 * compute used; time_limit_exceeded → base + large_load + compute used (never per vehicle);
 * engine_failed, queue_timeout, server_restarted → nothing. Compute is billed up to the job's
 * budget at most, and the total never exceeds the reservation.
 */
export function settlementCharge(
  card: RateCard,
  outcome: JobOutcome,
  run: { vehicles: number; computeMs: number; units: number; budgetMs: number; reserved: Micros },
): Breakdown {
  const computeMs = Math.min(run.computeMs, run.budgetMs);
  const all = priceRun(card, { vehicles: run.vehicles, computeMs, units: run.units });
  let b: Breakdown;
  switch (outcome) {
    case 'succeeded':
      b = all;
      break;
    case 'canceled':
      b = { base: all.base, vehicles: 0, compute: all.compute, large_load: 0 };
      break;
    case 'time_limit_exceeded':
      b = { base: all.base, vehicles: 0, compute: all.compute, large_load: all.large_load };
      break;
    default:
      b = { base: 0, vehicles: 0, compute: 0, large_load: 0 };
  }
  // Only compute can push a run past its reservation (clock overhead); trim it.
  const excess = total(b) - run.reserved;
  if (excess > 0) b = { ...b, compute: Math.max(0, b.compute - excess) };
  return b;
}
