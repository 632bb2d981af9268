/**
 * Rule `stack_items`: no stack holds more units than Options.max_stack_items (0 = unlimited).
 * A unit's stack level is 1 on the floor, else 1 + the highest level of the units it rests on.
 */
import type { Contact } from './contact.js';
import { onFloor } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { num, unitName } from './violation.js';

/** Stack level of each unit of a vehicle (index-aligned with vehicle.units); a floating unit counts as level 1. */
export function stackLevels(vehicle: LoadedVehicle, below: readonly Contact[][]): number[] {
  const levels = vehicle.units.map(() => 0);
  // A unit's supports have lower bases (their tops are at its base), so rising y0 settles them first.
  const order = vehicle.units.map((_, i) => i).sort((a, b) => vehicle.units[a]!.y0 - vehicle.units[b]!.y0 || 0);
  for (const u of order) {
    const unit = vehicle.units[u]!;
    let highest = 0;
    if (!onFloor(unit)) for (const c of below[u] ?? []) highest = Math.max(highest, levels[c.lower]!);
    levels[u] = highest + 1;
  }
  return levels;
}

/** Checks each unit of one vehicle: level ≤ maxStackItems, when maxStackItems > 0. */
export function checkStackItems(
  vehicle: LoadedVehicle,
  below: readonly Contact[][],
  maxStackItems: number,
): Violation[] {
  if (!(maxStackItems > 0)) return [];
  const levels = stackLevels(vehicle, below);
  const violations: Violation[] = [];
  vehicle.units.forEach(({ placement: p }, u) => {
    const level = levels[u]!;
    if (level <= maxStackItems) return;
    violations.push({
      rule: 'stack_items',
      vehicle: vehicle.position,
      item_id: p.item_id,
      instance: p.instance,
      message: `${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position} at y = ${num(p.y)} cm is unit ${level} of its stack; max_stack_items is ${maxStackItems}.`,
    });
  });
  return violations;
}
