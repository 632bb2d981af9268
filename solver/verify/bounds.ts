/**
 * Rule `bounds`: every unit lies inside its vehicle's cargo space (spec Placement coordinates:
 * min corner, x from the front wall, y up from the floor, z from the right wall).
 */
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { LENGTH_TOLERANCE, num, unitName } from './violation.js';

/**
 * Checks per unit: x, y, z, length, width, height are finite; sizes > 0; x, y, z ≥ 0 and
 * x+length ≤ vehicle length, y+height ≤ height, z+width ≤ width, all within LENGTH_TOLERANCE (cm).
 */
export function checkBounds(vehicles: readonly LoadedVehicle[]): Violation[] {
  const violations: Violation[] = [];
  for (const vehicle of vehicles) {
    for (const unit of vehicle.units) {
      const p = unit.placement;
      const report = (message: string): void => {
        violations.push({
          rule: 'bounds',
          vehicle: vehicle.position,
          item_id: p.item_id,
          instance: p.instance,
          message: `${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position}: ${message}`,
        });
      };
      const finite =
        Number.isFinite(p.x) &&
        Number.isFinite(p.y) &&
        Number.isFinite(p.z) &&
        Number.isFinite(p.length) &&
        Number.isFinite(p.width) &&
        Number.isFinite(p.height);
      if (!finite) {
        const numbers = { x: p.x, y: p.y, z: p.z, length: p.length, width: p.width, height: p.height };
        const broken = Object.entries(numbers).filter(([, v]) => typeof v !== 'number' || !Number.isFinite(v));
        report(`${broken.map(([k, v]) => `${k} = ${String(v)}`).join(', ')} is not a finite number.`);
        continue;
      }
      const inside =
        p.length > 0 &&
        p.width > 0 &&
        p.height > 0 &&
        p.x >= -LENGTH_TOLERANCE &&
        p.y >= -LENGTH_TOLERANCE &&
        p.z >= -LENGTH_TOLERANCE &&
        unit.x1 <= vehicle.length + LENGTH_TOLERANCE &&
        unit.y1 <= vehicle.height + LENGTH_TOLERANCE &&
        unit.z1 <= vehicle.width + LENGTH_TOLERANCE;
      if (inside) continue;
      for (const size of ['length', 'width', 'height'] as const) {
        if (!(p[size] > 0)) report(`placed ${size} is ${num(p[size])} cm; sizes must be positive.`);
      }
      const axes = [
        ['x', p.x, unit.x1, 'length', vehicle.length],
        ['y', p.y, unit.y1, 'height', vehicle.height],
        ['z', p.z, unit.z1, 'width', vehicle.width],
      ] as const;
      for (const [axis, from, to, size, limit] of axes) {
        if (from < -LENGTH_TOLERANCE) report(`${axis} = ${num(from)} cm is below 0.`);
        if (to > limit + LENGTH_TOLERANCE)
          report(
            `${axis} + ${size} = ${num(from)} + ${num(to - from)} = ${num(to)} cm exceeds the vehicle ${size} ${num(limit)} cm.`,
          );
      }
    }
  }
  return violations;
}
