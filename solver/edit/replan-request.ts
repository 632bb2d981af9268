/**
 * "Re-plan from step K" (plan editing): the request of a new job that keeps what the crew has
 * already loaded and packs the rest again. Every unit of the result's vehicles before vehicle V
 * (vehicles load in result order) and every unit of V up to loading step K become pinned units,
 * `vehicles[].loaded` (our extension) of their vehicle definition. Browser-safe: the viewer and the
 * web app both build the request with it.
 */
import type { Orientation } from '../../domain/pack/plan.js';
import type { PackRequest, VehicleInput } from '../../domain/pack/request.js';

/** A pinned unit of a request (`vehicles[].loaded[]`): min corner cm, orientation, 1-based copy of the vehicle. */
export interface PinnedUnitInput {
  item_id: string;
  x: number;
  y: number;
  z: number;
  orientation: Orientation;
  copy: number;
}

/** What replanRequest reads of a Result: vehicles in loading order with their placements and steps. */
export interface ReplanSource {
  vehicles: readonly {
    vehicle_id: string;
    copy: number;
    placements: readonly {
      item_id: string;
      x: number;
      y: number;
      z: number;
      orientation: Orientation;
      step: number;
    }[];
  }[];
}

/** The request's vehicle definition a result vehicle names (Vehicle.id, defaulting to vehicle_id). */
function definitionIndex(request: PackRequest, vehicleId: string): number {
  return request.vehicles.findIndex((v) => (v.id ?? v.vehicle_id) === vehicleId);
}

/**
 * The request of a re-plan of `result` (made for `request`) from step `step` of result vehicle
 * `vehicle`: the request with the units loaded so far pinned (in step order, so the new plan's
 * first loading steps are theirs). A vehicle definition's `quantity` is raised to the highest
 * copy pinned in it (an auto-added copy of the first plan becomes a listed one). Pinned units
 * already in the request are replaced. `step` 0 pins only the vehicles before `vehicle`.
 * Throws RangeError when `vehicle` is not a result vehicle or `step` is not an integer ≥ 0, and
 * Error when a result vehicle names no vehicle definition of the request.
 */
export function replanRequest(request: PackRequest, result: ReplanSource, vehicle: number, step: number): PackRequest {
  if (!Number.isInteger(vehicle) || vehicle < 0 || vehicle >= result.vehicles.length)
    throw new RangeError(`vehicle ${vehicle} is not in the result (0..${result.vehicles.length - 1})`);
  if (!Number.isInteger(step) || step < 0) throw new RangeError(`step must be an integer ≥ 0, got ${step}`);
  const vehicles: (VehicleInput & { loaded?: PinnedUnitInput[] })[] = request.vehicles.map((v) => {
    const { loaded: _dropped, ...rest } = v as VehicleInput & { loaded?: unknown };
    return rest;
  });
  result.vehicles.slice(0, vehicle + 1).forEach((rv, index) => {
    const d = definitionIndex(request, rv.vehicle_id);
    if (d < 0)
      throw new Error(
        `result vehicle ${index} names vehicle ${JSON.stringify(rv.vehicle_id)}, which the request does not define`,
      );
    const definition = vehicles[d]!;
    const units = [...rv.placements]
      .filter((p) => index < vehicle || p.step <= step)
      .sort((a, b) => a.step - b.step)
      .map((p) => ({ item_id: p.item_id, x: p.x, y: p.y, z: p.z, orientation: p.orientation, copy: rv.copy }));
    if (units.length === 0) return;
    definition.loaded = [...(definition.loaded ?? []), ...units];
    definition.quantity = Math.max(definition.quantity ?? 1, rv.copy);
  });
  return { ...request, vehicles };
}
