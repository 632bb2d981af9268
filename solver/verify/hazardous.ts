/**
 * Rule `hazardous` (spec Item.hazardous: "kept low and separated from other hazardous items"):
 * every unit of a hazardous item stands on the floor, and units of two different hazardous items
 * are at least HAZARD_CLEARANCE_CM apart along the floor (their footprints are that far apart
 * along x or along z). The clearance is our documented choice (docs/solver.md, "Packing rules the solver enforces").
 */
import { onFloor } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { LENGTH_TOLERANCE, num, unitName } from './violation.js';

/** Floor distance between units of different hazardous items, cm. */
export const HAZARD_CLEARANCE_CM = 50;

/** Checks the hazardous units of one vehicle. */
export function checkHazardous(vehicle: LoadedVehicle): Violation[] {
  const out: Violation[] = [];
  const at = vehicle.position;
  const hazardous = vehicle.units.filter((u) => u.item?.hazardous === true);
  for (const u of hazardous) {
    if (onFloor(u)) continue;
    const p = u.placement;
    out.push({
      rule: 'hazardous',
      vehicle: at,
      item_id: p.item_id,
      instance: p.instance,
      message: `${unitName(p.item_id, p.instance)} is hazardous and stands at y = ${num(p.y)} cm in vehicle ${at}; hazardous units are kept on the floor.`,
    });
  }
  for (let i = 0; i < hazardous.length; i++) {
    for (let j = i + 1; j < hazardous.length; j++) {
      const a = hazardous[i]!,
        b = hazardous[j]!;
      if (a.placement.item_id === b.placement.item_id) continue;
      const gap = Math.max(a.x0 - b.x1, b.x0 - a.x1, a.z0 - b.z1, b.z0 - a.z1);
      if (gap >= HAZARD_CLEARANCE_CM - LENGTH_TOLERANCE) continue;
      const p = b.placement;
      out.push({
        rule: 'hazardous',
        vehicle: at,
        item_id: p.item_id,
        instance: p.instance,
        message: `${unitName(p.item_id, p.instance)} is ${gap > 0 ? `${num(Number(gap.toFixed(3)))} cm` : 'not at all'} apart from ${unitName(a.placement.item_id, a.placement.instance)} of another hazardous item in vehicle ${at}; they must be ${HAZARD_CLEARANCE_CM} cm apart.`,
      });
    }
  }
  return out;
}
