/**
 * Resting contacts: which units a unit stands on. Unit U rests on unit L when L's top face is at
 * U's base height (within LENGTH_TOLERANCE) and their footprints (footprint.ts: circles for
 * upright round units) share a positive area, or when U is nested into L (nesting.ts). The
 * support, stacking, stack_items and steps rules all read these contacts.
 */
import { footprintArea, footprintsMeet, sharedArea } from './footprint.js';
import { nestDepth, nestsInto } from './nesting.js';
import type { PlacedUnit } from './placed-unit.js';
import { LENGTH_TOLERANCE } from './violation.js';

/**
 * Unit `upper` rests on unit `lower` (indexes into the vehicle's units): the rectangle where
 * their bounding footprints meet, cm, and the area their real footprints share, cm².
 */
export interface Contact {
  upper: number;
  lower: number;
  x0: number;
  x1: number;
  z0: number;
  z1: number;
  area: number;
}

/** True when the unit stands on the floor (y within LENGTH_TOLERANCE of 0, or below: `bounds` reports that). */
export function onFloor(unit: PlacedUnit): boolean {
  return unit.y0 <= LENGTH_TOLERANCE;
}

/** True when the unit stands on the second deck at `deckHeight` cm (null: the vehicle has none). */
export function onDeck(unit: PlacedUnit, deckHeight: number | null): boolean {
  return deckHeight !== null && Math.abs(unit.y0 - deckHeight) <= LENGTH_TOLERANCE;
}

/**
 * For each unit, the contacts under it (empty for units on the floor or on the second deck at
 * `deckHeight` cm, which carries them). Units are indexed by top height and binary-searched, so
 * the cost is about n·log n plus the pairs whose faces meet.
 */
export function contactsBelow(units: readonly PlacedUnit[], deckHeight: number | null = null): Contact[][] {
  const byTop = units
    .map((_, i) => i)
    .filter((i) => Number.isFinite(units[i]!.y1))
    .sort((a, b) => units[a]!.y1 - units[b]!.y1);
  const tops = byTop.map((i) => units[i]!.y1);
  return units.map((upper, u) => {
    const below: Contact[] = [];
    if (onFloor(upper) || onDeck(upper, deckHeight) || !Number.isFinite(upper.y0)) return below;
    for (let k = firstAtLeast(tops, upper.y0 - LENGTH_TOLERANCE); k < tops.length; k++) {
      if (tops[k]! > upper.y0 + LENGTH_TOLERANCE) break;
      const l = byTop[k]!;
      if (l === u) continue;
      const lower = units[l]!;
      const x0 = Math.max(upper.x0, lower.x0);
      const x1 = Math.min(upper.x1, lower.x1);
      const z0 = Math.max(upper.z0, lower.z0);
      const z1 = Math.min(upper.z1, lower.z1);
      if (!(x1 - x0 > LENGTH_TOLERANCE && z1 - z0 > LENGTH_TOLERANCE)) continue;
      const round = upper.footprint.kind === 'circle' || lower.footprint.kind === 'circle';
      if (round && !footprintsMeet(upper.footprint, lower.footprint)) continue;
      const area = round ? sharedArea(upper.footprint, lower.footprint) : (x1 - x0) * (z1 - z0);
      below.push({ upper: u, lower: l, x0, x1, z0, z1, area });
    }
    // A nesting unit rests on the identical unit it sinks into (nesting.ts), whose top is higher.
    const depth = nestDepth(upper);
    if (depth > 0) {
      for (let k = firstAtLeast(tops, upper.y0 + depth - LENGTH_TOLERANCE); k < tops.length; k++) {
        if (tops[k]! > upper.y0 + depth + LENGTH_TOLERANCE) break;
        const l = byTop[k]!;
        if (l !== u && nestsInto(upper, units[l]!))
          below.push({
            upper: u,
            lower: l,
            x0: upper.x0,
            x1: upper.x1,
            z0: upper.z0,
            z1: upper.z1,
            area: footprintArea(upper.footprint),
          });
      }
    }
    return below;
  });
}

function firstAtLeast(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
