/**
 * Whether an item can go into any listed vehicle at all (spec PackRequest: "Every item must fit
 * at least one listed vehicle", detail code `does_not_fit`), and the message saying why not.
 * Sizes in cm, weights in kg.
 */
import type { Orientation } from '../plan.js';
import type { ItemShape, RotationRule } from '../request.js';
import { dims } from './message-figures.js';
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

/**
 * The message of `does_not_fit` for a unit of `item` that misfits for `reason`: for `weight`
 * the largest payload; for `size` the rotation rule and the first three inner sizes of `spaces`.
 */
export function misfitMessage(
  item: { size: BoxSize; weight: number; shape: ItemShape; rotation: RotationRule },
  reason: MisfitReason,
  spaces: readonly (VehicleSpace & { id: string })[],
): string {
  if (reason === 'weight') {
    const top = spaces.reduce((m, v) => Math.max(m, v.maxWeight), 0);
    return `unit weight ${item.weight} kg exceeds the payload of every vehicle it fits in (largest payload ${top} kg); options.allow_overweight ignores payload limits`;
  }
  const shown = spaces
    .slice(0, 3)
    .map((v) => `${v.id} ${dims(v)}`)
    .join('; ');
  const more = spaces.length > 3 ? `; and ${spaces.length - 3} more` : '';
  const turn =
    item.rotation !== 'all'
      ? `rotation "${item.rotation}"`
      : item.shape === 'pallet' || item.shape === 'drum'
        ? `a ${item.shape} stays upright`
        : 'any of the six orientations';
  return `${dims(item.size)} fits no listed vehicle (${turn}); inner sizes: ${shown}${more}`;
}
