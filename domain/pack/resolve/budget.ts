/**
 * Compute budget and vehicle bounds of a job (spec Options.time_limit, Limits "Compute budget per
 * job", Estimate `max_vehicles` and CostRange `min_credits`). Times in ms, volumes in cm³,
 * weights in kg.
 */

/** Automatic budget: 2 s plus 15 ms per item unit, between 2 s and 30 s. */
const AUTO_BASE_MS = 2000;
const AUTO_PER_UNIT_MS = 15;
const AUTO_MAX_MS = 30_000;

/**
 * Compute budget in ms. `timeLimitSeconds` > 0: min(timeLimit, maxTimeLimitSeconds) · 1000,
 * rounded up to a whole ms. 0 (automatic): clamp(2000 + 15 · units, 2000, 30000), then capped at
 * maxTimeLimitSeconds · 1000. Never below 1 ms.
 */
export function computeBudgetMs(timeLimitSeconds: number, units: number, maxTimeLimitSeconds: number): number {
  const capMs = Math.max(1, Math.floor(maxTimeLimitSeconds * 1000));
  if (timeLimitSeconds > 0) return Math.max(1, Math.min(Math.ceil(timeLimitSeconds * 1000), capMs));
  const auto = Math.min(AUTO_MAX_MS, Math.max(AUTO_BASE_MS, AUTO_BASE_MS + AUTO_PER_UNIT_MS * units));
  return Math.min(auto, capMs);
}

/**
 * Most vehicles the plan may use: the job's vehicle limit, and in `fleet_only` mode also no more
 * than the listed quantities.
 */
export function maxVehicles(
  packingMode: 'auto' | 'fleet_only',
  listedVehicles: number,
  maxVehiclesPerRequest: number,
): number {
  return packingMode === 'fleet_only' ? Math.min(listedVehicles, maxVehiclesPerRequest) : maxVehiclesPerRequest;
}

/** What the lower bound needs from the load and the fleet. */
export interface LoadTotals {
  /** Sum over units of the bounding-box volume, cm³. */
  volume: number;
  /** Sum over units of the weight, kg. */
  weight: number;
  /** Largest listed vehicle volume, cm³, and payload, kg. */
  largestVolume: number;
  largestPayload: number;
}

/**
 * Fewest vehicles the load can possibly need (used for `min_credits`): max(1, ⌈volume / largest
 * vehicle volume⌉, ⌈weight / largest payload⌉ unless allowOverweight), capped at `cap`
 * (maxVehicles). A relative tolerance of 1e-9 keeps float noise from adding a vehicle.
 */
export function minimumVehicles(t: LoadTotals, allowOverweight: boolean, cap: number): number {
  const ceil = (x: number): number => (Number.isFinite(x) ? Math.ceil(x - 1e-9) : 1);
  let n = 1;
  if (t.largestVolume > 0) n = Math.max(n, ceil(t.volume / t.largestVolume));
  if (!allowOverweight && t.largestPayload > 0) n = Math.max(n, ceil(t.weight / t.largestPayload));
  return Math.max(1, Math.min(n, cap));
}
