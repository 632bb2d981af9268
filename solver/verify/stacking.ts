/**
 * Rule `stacking`: nothing rests on a unit of a non-stackable item (spec Item.stackable: false
 * keeps everything off the top).
 */
import type { Contact } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { num, unitName } from './violation.js';

/** Checks each resting contact of one vehicle: the lower unit's item must be stackable. */
export function checkStacking(vehicle: LoadedVehicle, below: readonly Contact[][]): Violation[] {
  const violations: Violation[] = [];
  for (const contacts of below) {
    for (const c of contacts) {
      const lower = vehicle.units[c.lower]!;
      if (lower.item?.stackable !== false) continue;
      const upper = vehicle.units[c.upper]!.placement;
      const p = lower.placement;
      violations.push({
        rule: 'stacking',
        vehicle: vehicle.position,
        item_id: p.item_id,
        instance: p.instance,
        others: [{ item_id: upper.item_id, instance: upper.instance }],
        message: `${unitName(upper.item_id, upper.instance)} rests on ${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position} (${num(c.area)} cm² of its top at y = ${num(lower.y1)} cm), but item ${p.item_id} is not stackable.`,
      });
    }
  }
  return violations;
}
