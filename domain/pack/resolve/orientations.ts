/**
 * Orientations an item unit may take (spec Item.rotation, Item.shape; Placement.orientation;
 * Options.lock_rotations). Sizes in cm.
 */
import { ALL_ORIENTATIONS, type Orientation } from '../plan.js';
import type { ItemShape, RotationRule } from '../request.js';

/** A box size in cm: `length` along x, `width` along z, `height` along y. */
export interface BoxSize {
  length: number;
  width: number;
  height: number;
}

const UPRIGHT: readonly Orientation[] = ['lwh', 'wlh'];

/**
 * Size of a unit placed in orientation `o`: the letters name which defined dimension lies along
 * the placed length (x), width (z) and height (y); `lwh` is the size as defined.
 */
export function placedSize(o: Orientation, size: BoxSize): BoxSize {
  const pick = (letter: string): number => (letter === 'l' ? size.length : letter === 'w' ? size.width : size.height);
  return { length: pick(o[0]!), width: pick(o[1]!), height: pick(o[2]!) };
}

/**
 * Distinct orientations allowed by the rotation rule, in the order lwh, wlh, lhw, hwl, whl, hlw:
 * `fixed` → lwh; `upright` → lwh, wlh; `all` → all six. Pallets and drums always stay upright
 * (spec Item.shape), even with `all`. Orientations giving the same placed size as an earlier one
 * are dropped (a cube has one). Never empty.
 */
export function allowedOrientations(shape: ItemShape, rotation: RotationRule, size: BoxSize): Orientation[] {
  const keepUpright = shape === 'pallet' || shape === 'drum';
  const candidates =
    rotation === 'fixed' ? ['lwh' as const] : rotation === 'upright' || keepUpright ? UPRIGHT : ALL_ORIENTATIONS;
  const seen = new Set<string>();
  const out: Orientation[] = [];
  for (const o of candidates) {
    const s = placedSize(o, size);
    const key = `${s.length}|${s.width}|${s.height}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(o);
  }
  return out;
}

/** True when a box of size `s` fits inside `space` (cm), with a tolerance for float noise. */
export function fitsWithin(s: BoxSize, space: BoxSize): boolean {
  const eps = 1e-9;
  return s.length <= space.length + eps && s.width <= space.width + eps && s.height <= space.height + eps;
}

/**
 * Options.lock_rotations: keeps one orientation out of `allowed` (in its order). The spec says
 * "the first orientation that fits the vehicle height"; with several vehicles we take the first
 * that fits some listed vehicle completely, else the first whose height fits the tallest vehicle,
 * else the first allowed (then the item fits nowhere and is reported as does_not_fit).
 */
export function lockedOrientation(
  allowed: readonly Orientation[],
  size: BoxSize,
  vehicles: readonly BoxSize[],
): Orientation {
  const first = allowed[0] ?? 'lwh';
  const whole = allowed.find((o) => vehicles.some((v) => fitsWithin(placedSize(o, size), v)));
  if (whole) return whole;
  const tallest = vehicles.reduce((m, v) => Math.max(m, v.height), 0);
  return allowed.find((o) => placedSize(o, size).height <= tallest + 1e-9) ?? first;
}
