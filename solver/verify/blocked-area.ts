/**
 * Rule `blocked_area`: no unit stands on a blocked floor zone (spec Vehicle.blocked_areas, Rect:
 * x along the length, z along the width, min corner).
 */
import { onFloor } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { LENGTH_TOLERANCE, num, unitName } from './violation.js';

/** Checks each unit on the floor of one vehicle against the definition's blockedAreas (overlap area > 0). */
export function checkBlockedAreas(vehicle: LoadedVehicle): Violation[] {
  const areas = vehicle.definition?.blockedAreas ?? [];
  if (areas.length === 0) return [];
  const violations: Violation[] = [];
  for (const unit of vehicle.units) {
    if (!onFloor(unit)) continue;
    areas.forEach((area, a) => {
      const dx = Math.min(unit.x1, area.x + area.length) - Math.max(unit.x0, area.x);
      const dz = Math.min(unit.z1, area.z + area.width) - Math.max(unit.z0, area.z);
      if (dx <= LENGTH_TOLERANCE || dz <= LENGTH_TOLERANCE) return;
      const p = unit.placement;
      violations.push({
        rule: 'blocked_area',
        vehicle: vehicle.position,
        item_id: p.item_id,
        instance: p.instance,
        message: `${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position} stands on blocked area ${a} (x ${num(area.x)}–${num(area.x + area.length)}, z ${num(area.z)}–${num(area.z + area.width)} cm) over ${num(dx)} × ${num(dz)} cm.`,
      });
    });
  }
  return violations;
}
