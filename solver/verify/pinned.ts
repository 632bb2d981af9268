/**
 * Rule `pinned` (our extension, request Vehicle.loaded): every pinned unit of the model is in the
 * plan where the request put it: in the vehicle of its definition and copy, at its x, y, z (min
 * corner, cm, within LENGTH_TOLERANCE) and in its orientation. Pinned units of an item are its
 * instances 1..k in request order (vehicles in order, each vehicle's `loaded` in order).
 */
import type { PackModel, Placement, Plan } from '../../domain/pack/plan.js';
import type { Violation } from './violation.js';
import { LENGTH_TOLERANCE, num, unitName } from './violation.js';

/** Checks every pinned unit of `model` against `plan`; one violation per unit not where it was pinned. */
export function checkPinned(model: PackModel, plan: Plan): Violation[] {
  const violations: Violation[] = [];
  const nextInstance = model.items.map(() => 1);
  for (const definition of model.vehicles) {
    for (const u of definition.loaded ?? []) {
      const item = model.items[u.item];
      if (!item) continue;
      const instance = nextInstance[u.item]!++;
      const name = unitName(item.id, instance);
      const at = `x ${num(u.x)}, y ${num(u.y)}, z ${num(u.z)} turned ${u.orientation}`;
      const position = plan.vehicles.findIndex((v) => v.vehicle_id === definition.id && v.copy === u.copy);
      const report = (message: string, vehicle?: number): void => {
        violations.push({
          rule: 'pinned',
          item_id: item.id,
          instance,
          ...(vehicle === undefined ? {} : { vehicle }),
          message,
        });
      };
      const where = `copy ${u.copy} of vehicle ${definition.id}`;
      if (position < 0) {
        report(`${name} is pinned in ${where} at ${at}, but the plan has no such vehicle.`);
        continue;
      }
      const placed: Placement | undefined = plan.vehicles[position]!.placements.find(
        (p) => p.item_id === item.id && p.instance === instance,
      );
      if (!placed) {
        report(
          `${name} is pinned in ${where} (vehicle ${position}) at ${at}, but that vehicle does not carry it.`,
          position,
        );
        continue;
      }
      const moved = (['x', 'y', 'z'] as const).some((k) => !(Math.abs(placed[k] - u[k]) <= LENGTH_TOLERANCE));
      if (moved || placed.orientation !== u.orientation) {
        report(
          `${name} is pinned in vehicle ${position} at ${at}, but the plan puts it at x ${num(placed.x)}, y ${num(placed.y)}, z ${num(placed.z)} turned ${placed.orientation}.`,
          position,
        );
      }
    }
  }
  return violations;
}
