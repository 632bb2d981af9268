/**
 * Whether an item can go into any listed vehicle at all (spec PackRequest: "Every item must fit
 * at least one listed vehicle", detail code `does_not_fit`). Sizes in cm, weights in kg.
 */
import type { Orientation } from '../../domain/pack/plan.js';
import { fitsWithin, placedSize, type BoxSize } from './orientations.js';

/** A vehicle's inner cargo space and payload. */
export interface VehicleSpace extends BoxSize {
  maxWeight: number;
}

/** Why an item fits no vehicle: `size` (no allowed orientation fits any vehicle), `weight` (only too heavy). */
export type MisfitReason = 'size' | 'weight';

/**
 * Checks one unit against the listed vehicles: it fits when some vehicle holds it in one of its
 * allowed orientations and, unless `allowOverweight`, carries its unit weight. Blocked areas and
 * aux decks are not considered (this is the cheap up-front check; the search does the rest).
 * Returns null when it fits, else the reason (`weight` only when size alone would fit).
 */
export function misfit(
  size: BoxSize,
  weight: number,
  orientations: readonly Orientation[],
  vehicles: readonly VehicleSpace[],
  allowOverweight: boolean,
): MisfitReason | null {
  let sizeFits = false;
  for (const v of vehicles) {
    if (!orientations.some((o) => fitsWithin(placedSize(o, size), v))) continue;
    sizeFits = true;
    if (allowOverweight || weight <= v.maxWeight) return null;
  }
  return sizeFits ? 'weight' : 'size';
}
