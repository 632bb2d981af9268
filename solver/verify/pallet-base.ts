/**
 * Rule `pallets_on_cartons` (safe stacks, our extension; Options.pallets_on_cartons false by
 * default): a pallet-shaped unit (spec Item.shape `pallet`) stands on the floor, on the second
 * deck or on other pallets, never on units of another shape (docs/solver.md, "Safe stacks").
 * A unit rests on what it rests on from its own loading step on, so the final plan settles
 * every step.
 */
import type { StackingRules } from '../../domain/pack/plan.js';
import type { Contact } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { unitName } from './violation.js';

/** Checks each pallet of one vehicle that rests on units: every one of them is a pallet too. */
export function checkPalletBase(
  vehicle: LoadedVehicle,
  below: readonly Contact[][],
  rules: StackingRules,
): Violation[] {
  if (rules.palletsOnCartons) return [];
  const violations: Violation[] = [];
  vehicle.units.forEach((unit, u) => {
    if (unit.item?.shape !== 'pallet') return;
    const under = (below[u] ?? []).map((c) => vehicle.units[c.lower]!).filter((l) => l.item?.shape !== 'pallet');
    if (under.length === 0) return;
    const p = unit.placement;
    const names = under
      .slice(0, 3)
      .map((l) => `${unitName(l.placement.item_id, l.placement.instance)} (${l.item?.shape ?? 'unknown shape'})`);
    violations.push({
      rule: 'pallets_on_cartons',
      vehicle: vehicle.position,
      item_id: p.item_id,
      instance: p.instance,
      others: under.map((l) => ({ item_id: l.placement.item_id, instance: l.placement.instance })),
      message: `Pallet ${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position} rests on ${names.join(', ')}${under.length > 3 ? ` and ${under.length - 3} more` : ''}; a pallet stands on the floor, the deck or other pallets (options.pallets_on_cartons is false).`,
    });
  });
  return violations;
}
