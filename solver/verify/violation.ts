/**
 * What the verifier reports: one broken rule per Violation, with an English message that
 * carries the numbers (cm, kg). Shared by every rule module of solver/verify.
 */

/** Rules the verifier checks (one module each under solver/verify/). */
export type VerifyRule =
  | 'vehicles'
  | 'bounds'
  | 'overlap'
  | 'support'
  | 'orientation'
  | 'weight'
  | 'stacking'
  | 'stack_items'
  | 'stack_weight'
  | 'floor_load'
  | 'stack_density'
  | 'blocked_area'
  | 'instances'
  | 'steps'
  | 'figures'
  | 'axle_load'
  | 'cog_range'
  | 'group_routing'
  | 'hazardous'
  | 'aux_deck'
  | 'pinned'
  | 'pallets_on_cartons'
  | 'heavy_on_light'
  | 'max_slenderness';

/** One broken rule in a plan. `vehicle` is the PlannedVehicle index; `item_id`/`instance` name the unit. */
export interface Violation {
  rule: VerifyRule;
  message: string;
  vehicle?: number;
  item_id?: string;
  instance?: number;
  /**
   * Other units the problem concerns beside `item_id`/`instance`: the second unit of an
   * overlapping pair, the unit resting on a non-stackable one, the units whose weight overloads a
   * unit or the floor under it (plan editing traces a problem to the edit that moved one of them).
   */
  others?: { item_id: string; instance: number }[];
}

/** Geometric tolerance, cm: faces closer than this touch; overlaps thinner than this are none. */
export const LENGTH_TOLERANCE = 1e-6;

/** Relative tolerance for sums and ratios (weights kg, utilizations, covered areas). */
export const RELATIVE_TOLERANCE = 1e-6;

/** True when `actual` equals `expected` within RELATIVE_TOLERANCE of max(1, |expected|). */
export function nearlyEqual(actual: number, expected: number, tolerance = RELATIVE_TOLERANCE): boolean {
  return Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected));
}

/** A number for a message: integers as is, others to at most 6 decimals (so 0.1+0.2 reads 0.3). */
export function num(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
}

/** How a message names a unit: `item_id#instance`. */
export function unitName(itemId: string, instance: number): string {
  return `${itemId}#${instance}`;
}
