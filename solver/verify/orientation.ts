/**
 * Rule `orientation`: each unit is placed in an orientation its item allows, with its sizes
 * permuted as that orientation says (spec Placement.orientation, Item.rotation/shape).
 */
import { ALL_ORIENTATIONS } from '../../domain/pack/plan.js';
import type { ItemModel, Orientation } from '../../domain/pack/plan.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { LENGTH_TOLERANCE, num, unitName } from './violation.js';

/**
 * The placed sizes an orientation gives, cm: the code's letters name which defined dimension
 * lies along the placed length (x), width (z) and height (y).
 */
export function orientedSize(
  item: Pick<ItemModel, 'length' | 'width' | 'height'>,
  orientation: Orientation,
): { length: number; width: number; height: number } {
  const size = { l: item.length, w: item.width, h: item.height };
  const [alongX, alongZ, alongY] = orientation.split('') as ('l' | 'w' | 'h')[];
  return { length: size[alongX!], width: size[alongZ!], height: size[alongY!] };
}

/**
 * Checks per unit of a known item: orientation is a valid code and among item.orientations;
 * placed length/width/height equal orientedSize (within LENGTH_TOLERANCE); rotated ===
 * (orientation !== 'lwh'). Units of unknown items are left to `instances`.
 */
export function checkOrientation(vehicles: readonly LoadedVehicle[]): Violation[] {
  const violations: Violation[] = [];
  for (const vehicle of vehicles) {
    for (const { placement: p, item } of vehicle.units) {
      if (!item) continue;
      const report = (message: string): void => {
        violations.push({
          rule: 'orientation',
          vehicle: vehicle.position,
          item_id: p.item_id,
          instance: p.instance,
          message: `${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position}: ${message}`,
        });
      };
      if (!ALL_ORIENTATIONS.includes(p.orientation)) {
        report(`orientation ${JSON.stringify(p.orientation)} is not one of ${ALL_ORIENTATIONS.join(', ')}.`);
        continue;
      }
      if (!item.orientations.includes(p.orientation)) {
        report(
          `orientation ${p.orientation} is not allowed for item ${item.id} (allowed: ${item.orientations.join(', ')}).`,
        );
      }
      const expected = orientedSize(item, p.orientation);
      const differs = (['length', 'width', 'height'] as const).some(
        (k) => !(Math.abs(p[k] - expected[k]) <= LENGTH_TOLERANCE),
      );
      if (differs) {
        report(
          `placed size ${num(p.length)} × ${num(p.width)} × ${num(p.height)} cm (length × width × height) does not match orientation ${p.orientation} of ${num(item.length)} × ${num(item.width)} × ${num(item.height)} cm, which gives ${num(expected.length)} × ${num(expected.width)} × ${num(expected.height)} cm.`,
        );
      }
      const rotated = p.orientation !== 'lwh';
      if (p.rotated !== rotated) report(`rotated is ${p.rotated} but orientation ${p.orientation} means ${rotated}.`);
    }
  }
  return violations;
}
