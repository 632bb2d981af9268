/**
 * Plan values in words for the viewer's panels: how a unit lies (spec Placement.orientation),
 * what an unplaced reason means (spec UnplacedItem.reason, domain/pack/plan.ts UnplacedReason)
 * and instance numbers as ranges. Pure, no DOM.
 */
import type { Orientation, UnplacedReason } from '../../domain/pack/plan.js';

const SIDE: Record<string, string> = { l: 'length', w: 'width', h: 'height' };

/** How a unit lies, in words: which of the item's defined sides runs along, across and up. */
export function orientationWords(o: Orientation): string {
  if (o === 'lwh') return 'as defined';
  if (o === 'wlh') return 'turned 90° about the vertical axis';
  return `tipped: its ${SIDE[o[0]!]} along the vehicle, ${SIDE[o[1]!]} across, ${SIDE[o[2]!]} up`;
}

/** What each spec reason means, for people (every reason: the type makes a new one a compile error here). */
export const REASON_TEXT: Readonly<Record<UnplacedReason, string>> = {
  no_space: 'no room left in the vehicles the job may use',
  weight_limit: 'room left, but the payload limits are reached',
  load_limit: 'it would overload the units under it or the floor (stack weight, floor load or stack density)',
  axle_limit: 'it would overload an axle or move the centre of gravity out of range',
  vehicle_limit: 'more vehicles were needed than the job may use',
  time_limit: 'the compute time ended before it was tried',
  rule_pallets_on_cartons:
    'room was left only on top of units that are not pallets (pallets stand on the floor or on pallets)',
  rule_heavy_on_light: 'room was left only on units too light to carry it (heavy on light)',
  rule_max_slenderness: 'it would have made a stack too slender to stand without support',
};

/** Instance numbers (any order) as ranges: `[9, 1, 2, 3, 4, 7, 10]` → `1–4, 7, 9–10`. */
export function instanceRanges(instances: readonly number[]): string {
  const sorted = [...instances].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
