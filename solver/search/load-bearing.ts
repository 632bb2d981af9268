/**
 * Load bearing in the search: how much weight a supporting surface may still take, kept on each
 * empty maximal space as a pressure (`Space.capacity`, kg per cm² of the space's bottom face).
 *
 * The verifier's model (solver/verify/load-bearing.ts) passes each unit's weight plus its own
 * load to the units under it in proportion to the contact area. If every unit standing on a
 * surface of capacity p presses on it with at most p (its weight and load over its footprint),
 * a supporting unit with top area T receives at most p · T, so the search only has to keep
 * that one number per space: the smallest of the capacities of the surfaces under it.
 * A column of n units (weight w kg, footprint A cm²) on capacity p needs n · w ≤ p · A, its
 * bottom unit carries (n − 1) · w ≤ max_stack_weight, and leaves on its top
 * min(p · A − n · w, max_stack_weight − (n − 1) · w) / A for what comes later.
 * Spec Item.max_stack_weight, Vehicle.floor_load_capacity, Options.max_stack_density_kg_m2.
 */
import type { PackModel, VehicleModel } from '../../domain/pack/plan.js';

/** cm² per m². */
const CM2_PER_M2 = 10_000;

/** A unit kind's load figures: kg per unit and kg it may carry (0 = unlimited). */
export interface Bearer {
  weight: number;
  maxStackWeight: number;
}

/**
 * Capacity of the empty floor of `vehicle`, kg/cm²: the tighter of its floor_load_capacity and
 * the job's max_stack_density_kg_m2 (both kg/m², 0 = none); Infinity when neither is set.
 */
export function floorCapacity(model: PackModel, vehicle: VehicleModel): number {
  const limits = [vehicle.floorLoadCapacity, model.maxStackDensity].filter((v) => v > 0);
  return limits.length === 0 ? Infinity : Math.min(...limits) / CM2_PER_M2;
}

/**
 * Most layers of units of `kind` with footprint `area` (cm²) a column may have when it stands on
 * a surface of `capacity` kg/cm²: Infinity when neither weight nor a limit bounds it, 0 when not
 * even one unit may stand there.
 */
export function layersByLoad(kind: Bearer, area: number, capacity: number): number {
  if (kind.weight <= 0) return Infinity;
  const byPressure = Number.isFinite(capacity) ? Math.floor((capacity * area) / kind.weight + 1e-9) : Infinity;
  const byStackWeight = kind.maxStackWeight > 0 ? Math.floor(kind.maxStackWeight / kind.weight + 1e-9) + 1 : Infinity;
  return Math.min(byPressure, byStackWeight);
}

/**
 * Capacity left on top of a column of `layers` units of `kind` (footprint `area` cm²) standing
 * on a surface of `capacity` kg/cm²; never below 0.
 */
export function capacityAbove(kind: Bearer, area: number, layers: number, capacity: number): number {
  const byPressure = capacity * area - layers * kind.weight;
  const byStackWeight = kind.maxStackWeight > 0 ? kind.maxStackWeight - (layers - 1) * kind.weight : Infinity;
  return Math.max(0, Math.min(byPressure, byStackWeight) / area);
}

/** True when a unit of `weight` kg and footprint `area` cm² may stand on a surface of `capacity` kg/cm². */
export function bears(weight: number, area: number, capacity: number): boolean {
  return weight <= capacity * area * (1 + 1e-9) + 1e-9;
}
