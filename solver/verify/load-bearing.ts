/**
 * Rules `stack_weight`, `floor_load` and `stack_density`: the weight units put on the units under
 * them and on the floor.
 *
 * Load model (docs/solver.md, "Packing rules the solver enforces"): each unit passes its own weight plus everything resting on
 * it to the units it stands on, split in proportion to the contact area (of all its contacts);
 * a unit on the floor passes it to the floor over its footprint.
 * - `stack_weight`: the weight resting on a unit is at most its item's max_stack_weight (kg,
 *   0 = unlimited; spec Item.max_stack_weight).
 * - `floor_load`: a floor-standing unit's weight plus load over its footprint is at most the
 *   vehicle's floor_load_capacity (kg/m², 0 = no limit; spec Vehicle.floor_load_capacity).
 * - `stack_density`: the same figure is at most options.max_stack_density_kg_m2 (kg/m²).
 */
import type { Contact } from './contact.js';
import { onFloor } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { RELATIVE_TOLERANCE, num, unitName } from './violation.js';

/** cm² per m². */
const CM2_PER_M2 = 10_000;

/**
 * Weight resting on each unit of one vehicle, kg (index = unit index), under the load model
 * above. Units are taken from the highest base down, so a unit's load is complete before it is
 * passed on.
 */
export function restingWeights(vehicle: LoadedVehicle, below: readonly Contact[][]): number[] {
  const units = vehicle.units;
  const resting = units.map(() => 0);
  const order = units.map((_, i) => i).sort((a, b) => units[b]!.y0 - units[a]!.y0);
  for (const u of order) {
    const contacts = below[u] ?? [];
    const total = contacts.reduce((s, c) => s + c.area, 0);
    if (!(total > 0)) continue;
    const force = (units[u]!.item?.weight ?? 0) + resting[u]!;
    for (const c of contacts) resting[c.lower]! += (force * c.area) / total;
  }
  return resting;
}

const over = (value: number, limit: number): boolean => value > limit * (1 + RELATIVE_TOLERANCE) + RELATIVE_TOLERANCE;

/** Checks the three load rules on one vehicle; `maxStackDensity`: kg/m², 0 = unlimited. */
export function checkLoadBearing(
  vehicle: LoadedVehicle,
  below: readonly Contact[][],
  maxStackDensity: number,
): Violation[] {
  const violations: Violation[] = [];
  const floorLimit = vehicle.definition?.floorLoadCapacity ?? 0;
  const resting = restingWeights(vehicle, below);
  // The units whose weight reaches unit u (everything resting on it, directly or not), for a problem's `others`.
  const above: number[][] = vehicle.units.map(() => []);
  below.forEach((contacts, upper) => contacts.forEach((c) => above[c.lower]!.push(upper)));
  const carried = (u: number): Violation['others'] => {
    const seen = new Set<number>();
    const stack = [...above[u]!];
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (seen.has(v)) continue;
      seen.add(v);
      stack.push(...above[v]!);
    }
    return [...seen]
      .sort((a, b) => a - b)
      .map((v) => {
        const q = vehicle.units[v]!.placement;
        return { item_id: q.item_id, instance: q.instance };
      });
  };
  vehicle.units.forEach((unit, u) => {
    const p = unit.placement;
    const name = unitName(p.item_id, p.instance);
    const load = resting[u]!;
    const limit = unit.item?.maxStackWeight ?? 0;
    if (limit > 0 && over(load, limit)) {
      violations.push({
        rule: 'stack_weight',
        vehicle: vehicle.position,
        item_id: p.item_id,
        instance: p.instance,
        others: carried(u),
        message: `${name} in vehicle ${vehicle.position} carries ${num(load)} kg; item ${p.item_id} allows ${num(limit)} kg resting on one unit (max_stack_weight).`,
      });
    }
    if (!onFloor(unit)) return;
    const area = p.length * p.width;
    if (!(area > 0)) return;
    const pressure = (((unit.item?.weight ?? 0) + load) * CM2_PER_M2) / area;
    const figure = `${num(Number(pressure.toFixed(3)))} kg/m² (${num((unit.item?.weight ?? 0) + load)} kg on ${num(area)} cm²)`;
    if (floorLimit > 0 && over(pressure, floorLimit)) {
      violations.push({
        rule: 'floor_load',
        vehicle: vehicle.position,
        item_id: p.item_id,
        instance: p.instance,
        others: carried(u),
        message: `${name} in vehicle ${vehicle.position} presses on the floor with ${figure}; the floor_load_capacity is ${num(floorLimit)} kg/m².`,
      });
    }
    if (maxStackDensity > 0 && over(pressure, maxStackDensity)) {
      violations.push({
        rule: 'stack_density',
        vehicle: vehicle.position,
        item_id: p.item_id,
        instance: p.instance,
        others: carried(u),
        message: `The stack on ${name} in vehicle ${vehicle.position} weighs ${figure}; max_stack_density_kg_m2 is ${num(maxStackDensity)}.`,
      });
    }
  });
  return violations;
}
