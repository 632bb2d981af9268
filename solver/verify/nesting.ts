/**
 * Nesting (spec Item.nesting_height: "telescoping overlap of stacked identical units"): a unit
 * standing with its defined height vertical (orientation `lwh` or `wlh`) may sink nesting_height
 * cm into an identical unit under it: same item, same orientation, same footprint, its base
 * exactly nesting_height below the lower unit's top. Such a pair overlaps by design (rule
 * `overlap` allows it) and the upper unit rests on the lower one over its whole base (contact.ts).
 */
import type { PlacedUnit } from './placed-unit.js';
import { LENGTH_TOLERANCE } from './violation.js';

/** How deep `unit` may sink into an identical unit under it, cm (0: it does not nest). */
export function nestDepth(unit: PlacedUnit): number {
  const depth = unit.item?.nestingHeight ?? 0;
  return depth > 0 && unit.placement.orientation[2] === 'h' && depth < unit.placement.height ? depth : 0;
}

const same = (a: number, b: number): boolean => Math.abs(a - b) <= LENGTH_TOLERANCE;

/**
 * True when `a` and `b` belong to one nested column: identical units (item, orientation,
 * footprint) that nest, one a whole number of pitches (height − nesting_height) above the other.
 * Their overlap is the telescoping the spec allows; that the column is complete (each unit
 * resting on the one under it) is the `support` rule's check.
 */
export function sameNestedColumn(a: PlacedUnit, b: PlacedUnit): boolean {
  const depth = nestDepth(a);
  if (
    !(depth > 0) ||
    a.placement.item_id !== b.placement.item_id ||
    a.placement.orientation !== b.placement.orientation
  )
    return false;
  if (!(same(a.x0, b.x0) && same(a.x1, b.x1) && same(a.z0, b.z0) && same(a.z1, b.z1))) return false;
  const pitch = a.placement.height - depth;
  const steps = Math.abs(a.y0 - b.y0) / pitch;
  return Math.round(steps) >= 1 && Math.abs(steps - Math.round(steps)) * pitch <= LENGTH_TOLERANCE;
}

/** True when `upper` is nested into `lower` as described above. */
export function nestsInto(upper: PlacedUnit, lower: PlacedUnit): boolean {
  const depth = nestDepth(upper);
  return (
    depth > 0 &&
    upper.placement.item_id === lower.placement.item_id &&
    upper.placement.orientation === lower.placement.orientation &&
    same(upper.x0, lower.x0) &&
    same(upper.x1, lower.x1) &&
    same(upper.z0, lower.z0) &&
    same(upper.z1, lower.z1) &&
    same(upper.y0, lower.y1 - depth)
  );
}
