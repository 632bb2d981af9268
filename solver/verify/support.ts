/**
 * Rule `support`: full support (DESIGN §5). A unit above the floor must have its whole base
 * covered by the top faces of units whose top is at its base height. We enforce 100% of the
 * base area (within RELATIVE_TOLERANCE) for every shape, on the real footprints (footprint.ts):
 * an upright cylinder or drum needs its whole circle covered (a drum exactly on an identical drum
 * is; a box on staggered drums is not), and round supports carry only their circles.
 */
import type { Contact } from './contact.js';
import { coveredShare, footprintArea } from './footprint.js';
import { onDeck, onFloor } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { RELATIVE_TOLERANCE, num, unitName } from './violation.js';

/** Checks each unit above the floor of one vehicle: covered base area ≥ base area · (1 − RELATIVE_TOLERANCE). */
export function checkSupport(vehicle: LoadedVehicle, below: readonly Contact[][]): Violation[] {
  const violations: Violation[] = [];
  vehicle.units.forEach((unit, u) => {
    if (onFloor(unit) || onDeck(unit, vehicle.deckHeight)) return;
    const p = unit.placement;
    const base = footprintArea(unit.footprint);
    if (!(base > 0)) return;
    const contacts = below[u] ?? [];
    const share = coveredShare(
      unit.footprint,
      contacts.map((c) => vehicle.units[c.lower]!.footprint),
    );
    if (share >= 1 - RELATIVE_TOLERANCE) return;
    const covered = share * base;
    violations.push({
      rule: 'support',
      vehicle: vehicle.position,
      item_id: p.item_id,
      instance: p.instance,
      message:
        contacts.length === 0
          ? `${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position} floats at y = ${num(p.y)} cm: no unit's top face is at that height under its base.`
          : `${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position} at y = ${num(p.y)} cm is supported on ${num(covered)} of ${num(base)} cm² of its base (${num(Number((100 * share).toFixed(2)))}%, by ${contacts.length} unit${contacts.length === 1 ? '' : 's'}); full support is required.`,
    });
  });
  return violations;
}
