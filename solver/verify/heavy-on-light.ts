/**
 * Rule `heavy_on_light` (safe stacks, our extension; Options.heavy_on_light, default 2): no unit
 * rests on units that together weigh less than its own weight divided by the ratio (unit
 * weights, kg; each unit under it counted once, whatever share of its base it carries). Units on
 * the floor or the second deck rest on nothing. A unit rests on what it rests on from its own
 * loading step on, so the final plan settles every step (docs/solver.md, "Safe stacks").
 */
import type { StackingRules } from '../../domain/pack/plan.js';
import type { Contact } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { RELATIVE_TOLERANCE, num, unitName } from './violation.js';

/** Checks each unit of one vehicle that rests on units: weight ≤ ratio · Σ weight of those units. */
export function checkHeavyOnLight(
  vehicle: LoadedVehicle,
  below: readonly Contact[][],
  rules: StackingRules,
): Violation[] {
  const ratio = rules.heavyOnLight;
  if (!(ratio > 0)) return [];
  const violations: Violation[] = [];
  vehicle.units.forEach((unit, u) => {
    const contacts = below[u] ?? [];
    if (contacts.length === 0) return;
    const weight = unit.item?.weight ?? unit.placement.weight;
    const lowers = [...new Set(contacts.map((c) => c.lower))];
    const carrying = lowers.reduce(
      (s, l) => s + (vehicle.units[l]!.item?.weight ?? vehicle.units[l]!.placement.weight),
      0,
    );
    if (weight <= ratio * carrying * (1 + RELATIVE_TOLERANCE) + RELATIVE_TOLERANCE) return;
    const p = unit.placement;
    violations.push({
      rule: 'heavy_on_light',
      vehicle: vehicle.position,
      item_id: p.item_id,
      instance: p.instance,
      others: lowers.map((l) => ({
        item_id: vehicle.units[l]!.placement.item_id,
        instance: vehicle.units[l]!.placement.instance,
      })),
      message: `${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position} weighs ${num(weight)} kg and rests on ${lowers.length} unit${lowers.length === 1 ? '' : 's'} of ${num(carrying)} kg together; heavy_on_light ${num(ratio)} allows at most ${num(ratio * carrying)} kg on them.`,
    });
  });
  return violations;
}
