/**
 * The `rests_on` column of the loading list: for each placed unit, the units it stands on, read
 * with the independent verifier's resting contacts (solver/verify/contact.ts, the contacts its
 * support, stacking and steps rules check), so the list and the verifier agree on what holds a
 * unit up. A unit on the floor or on the second deck rests on no unit.
 */
import type { PackModel, Placement, Plan } from '../../../domain/pack/plan.js';
import { contactsBelow } from '../../../solver/verify/contact.js';
import { loadedVehicles } from '../../../solver/verify/placed-unit.js';
import { unitName } from '../../../solver/verify/violation.js';

/**
 * For every placement of `plan` (keyed by the placement object itself), the names
 * `item_id#instance` of the units it rests on, in their loading order (ascending step), each
 * once; empty on the floor or the second deck. `model` supplies the round footprints of
 * cylinders and drums and the deck heights. Throws nothing.
 */
export function restingOnUnits(model: PackModel, plan: Plan): Map<Placement, string[]> {
  const out = new Map<Placement, string[]>();
  for (const vehicle of loadedVehicles(model, plan)) {
    const below = contactsBelow(vehicle.units, vehicle.deckHeight);
    vehicle.units.forEach((unit, u) => {
      const lowers = (below[u] ?? [])
        .map((c) => vehicle.units[c.lower]!.placement)
        .sort((a, b) => a.step - b.step)
        .map((p) => unitName(p.item_id, p.instance));
      out.set(unit.placement, [...new Set(lowers)]);
    });
  }
  return out;
}
