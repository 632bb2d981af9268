/**
 * Rule `support`: full support (DESIGN §5). A unit above the floor must have its whole base
 * covered by the top faces of units whose top is at its base height. We enforce 100% of the
 * base area (within RELATIVE_TOLERANCE) for every shape: cylinders and drums are checked by their
 * bounding box, which is what the search places.
 */
import type { Contact } from './contact.js';
import { onDeck, onFloor } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { RELATIVE_TOLERANCE, num, unitName } from './violation.js';

/**
 * Area (cm²) of the union of footprint rectangles, robust to overlapping rectangles: for each
 * strip between consecutive x edges, the z intervals of the rectangles spanning it are merged.
 * O(k² log k) for k rectangles.
 */
export function unionArea(rects: readonly Pick<Contact, 'x0' | 'x1' | 'z0' | 'z1'>[]): number {
  const xs = [...new Set(rects.flatMap((r) => [r.x0, r.x1]))].sort((a, b) => a - b);
  let area = 0;
  for (let i = 0; i + 1 < xs.length; i++) {
    const x0 = xs[i]!;
    const x1 = xs[i + 1]!;
    const spans = rects.filter((r) => r.x0 <= x0 && r.x1 >= x1 && r.z1 > r.z0).sort((a, b) => a.z0 - b.z0);
    let covered = 0;
    let reach = Number.NEGATIVE_INFINITY;
    for (const r of spans) {
      if (r.z1 <= reach) continue;
      covered += r.z1 - Math.max(r.z0, reach);
      reach = r.z1;
    }
    area += (x1 - x0) * covered;
  }
  return area;
}

/** Checks each unit above the floor of one vehicle: covered base area ≥ base area · (1 − RELATIVE_TOLERANCE). */
export function checkSupport(vehicle: LoadedVehicle, below: readonly Contact[][]): Violation[] {
  const violations: Violation[] = [];
  vehicle.units.forEach((unit, u) => {
    if (onFloor(unit) || onDeck(unit, vehicle.deckHeight)) return;
    const p = unit.placement;
    const base = p.length * p.width;
    if (!(base > 0)) return;
    const contacts = below[u] ?? [];
    const covered = unionArea(contacts);
    if (covered >= base * (1 - RELATIVE_TOLERANCE)) return;
    const share = (100 * covered) / base;
    violations.push({
      rule: 'support',
      vehicle: vehicle.position,
      item_id: p.item_id,
      instance: p.instance,
      message: contacts.length === 0
        ? `${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position} floats at y = ${num(p.y)} cm: no unit's top face is at that height under its base.`
        : `${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position} at y = ${num(p.y)} cm is supported on ${num(covered)} of ${num(base)} cm² of its base (${num(Number(share.toFixed(2)))}%, by ${contacts.length} unit${contacts.length === 1 ? '' : 's'}); full support is required.`,
    });
  });
  return violations;
}
