/**
 * Where a unit moved by hand in the viewer's edit mode lands (plan editing): the arithmetic of
 * snapping a dragged unit to its neighbours' faces and to the walls, of a keyboard step that stops
 * at the first face it reaches, of the arrow keys seen from the camera and of turning a unit to its
 * item's next allowed orientation. Plan coordinates, cm: x front wall → door, y up, z right wall →
 * left wall; a box is its min corner and its size as placed. Pure: no DOM, no three.js.
 */
import type { Orientation } from '../../../domain/pack/plan.js';

/** A unit as placed: min corner and size along x (length), z (width), y (height), cm. */
export interface SolidBox {
  x: number;
  y: number;
  z: number;
  length: number;
  width: number;
  height: number;
}

/** The cargo space: inner size, cm, and the second deck's floor height (null: none). */
export interface CargoSpace {
  length: number;
  width: number;
  height: number;
  deckHeight: number | null;
}

/** A horizontal axis of the floor. */
export type FloorAxis = 'x' | 'z';
/** Any axis; y is up. */
export type Axis = FloorAxis | 'y';

const EPS = 1e-6;

const sizeAlong = (b: SolidBox, axis: Axis): number => (axis === 'x' ? b.length : axis === 'z' ? b.width : b.height);
const spaceAlong = (s: CargoSpace, axis: Axis): number => (axis === 'x' ? s.length : axis === 'z' ? s.width : s.height);

/** True when the open ranges [a, a+la] and [b, b+lb] share more than a touch. */
const overlaps = (a: number, la: number, b: number, lb: number): boolean => a < b + lb - EPS && b < a + la - EPS;

/** True when `o` matters to `box` along a floor axis: it stands in the same height range, or carries `box` (its top is `box`'s bottom). */
function sameLayerOrUnder(box: SolidBox, o: SolidBox): boolean {
  return overlaps(box.y, box.height, o.y, o.height) || Math.abs(o.y + o.height - box.y) <= EPS;
}

/**
 * The positions (min corner along `axis`, cm) where `box` touches something: the walls (0 and
 * the space's size less the box's), and for each other unit in its layer or under it the four
 * positions that butt against one of its faces or line up with it. Along y: the floor, the deck,
 * the tops of the units under its footprint and the positions just under the units over it.
 */
export function snapTargets(box: SolidBox, others: readonly SolidBox[], space: CargoSpace, axis: Axis): number[] {
  const size = sizeAlong(box, axis);
  const targets = [0, spaceAlong(space, axis) - size];
  if (axis === 'y') {
    if (space.deckHeight !== null) targets.push(space.deckHeight);
    for (const o of others) {
      if (!overlaps(box.x, box.length, o.x, o.length) || !overlaps(box.z, box.width, o.z, o.width)) continue;
      targets.push(o.y + o.height, o.y - size);
    }
    return targets.filter((t) => t >= -EPS);
  }
  for (const o of others) {
    if (!sameLayerOrUnder(box, o)) continue;
    const start = axis === 'x' ? o.x : o.z;
    const length = sizeAlong(o, axis);
    targets.push(start + length, start - size, start, start + length - size);
  }
  return targets;
}

/** `value` moved to the nearest of `targets` within `tolerance` (cm), or `value` when none is that near. */
export function snapValue(value: number, targets: readonly number[], tolerance: number): number {
  let best = value;
  let distance = tolerance + EPS;
  for (const t of targets) {
    const d = Math.abs(t - value);
    if (d < distance) {
      best = t;
      distance = d;
    }
  }
  return best;
}

/** How near (cm) a dragged unit must come to a face to snap to it: 15 % of its smaller floor side, 3–15 cm. */
export function snapTolerance(box: Pick<SolidBox, 'length' | 'width'>): number {
  return Math.max(3, Math.min(15, 0.15 * Math.min(box.length, box.width)));
}

/** `value` kept within 0..`max` (a box larger than the space stays at 0). */
const within = (value: number, max: number): number => Math.max(0, Math.min(Math.max(0, max), value));

/**
 * A dragged unit dropped at `box` (x, z where the pointer put it, y the surface it rests on):
 * x and z each snapped to the nearest wall or neighbour's face within `tolerance` (cm), then
 * kept inside the cargo space. y is kept.
 */
export function snapBox(
  box: SolidBox,
  others: readonly SolidBox[],
  space: CargoSpace,
  tolerance = snapTolerance(box),
): SolidBox {
  const x = within(snapValue(box.x, snapTargets(box, others, space, 'x'), tolerance), space.length - box.length);
  const z = within(snapValue(box.z, snapTargets(box, others, space, 'z'), tolerance), space.width - box.width);
  return { ...box, x, z };
}

/**
 * A keyboard step: `from` moved by `delta` (cm, either sign), stopping at the first of `targets`
 * strictly between `from` and `from + delta` (a face is never stepped over), and kept within
 * 0..`max`.
 */
export function nudge(from: number, delta: number, targets: readonly number[], max: number): number {
  let to = from + delta;
  for (const t of targets) {
    if (delta > 0 && t > from + EPS && t < to) to = t;
    if (delta < 0 && t < from - EPS && t > to) to = t;
  }
  return within(to, max);
}

/**
 * `box` moved one keyboard step of `delta` cm along `axis` (nudge with the box's snap targets);
 * the other coordinates are kept.
 */
export function nudgeBox(
  box: SolidBox,
  others: readonly SolidBox[],
  space: CargoSpace,
  axis: Axis,
  delta: number,
): SolidBox {
  const from = box[axis];
  const to = nudge(from, delta, snapTargets(box, others, space, axis), spaceAlong(space, axis) - sizeAlong(box, axis));
  return { ...box, [axis]: to };
}

/**
 * The direction an arrow key moves a unit, seen from the camera: ArrowUp away from the viewer
 * along the floor axis nearest to the camera's looking direction `forward` (x, z of it), ArrowDown
 * toward the viewer, ArrowRight and ArrowLeft across. Null for other keys.
 */
export function arrowDirection(
  key: string,
  forward: { x: number; z: number },
): { axis: FloorAxis; sign: 1 | -1 } | null {
  // Right of the camera on the floor: forward × up = (−fz, fx).
  const dir =
    key === 'ArrowUp'
      ? { x: forward.x, z: forward.z }
      : key === 'ArrowDown'
        ? { x: -forward.x, z: -forward.z }
        : key === 'ArrowRight'
          ? { x: -forward.z, z: forward.x }
          : key === 'ArrowLeft'
            ? { x: forward.z, z: -forward.x }
            : null;
  if (!dir) return null;
  return Math.abs(dir.x) >= Math.abs(dir.z)
    ? { axis: 'x', sign: dir.x >= 0 ? 1 : -1 }
    : { axis: 'z', sign: dir.z >= 0 ? 1 : -1 };
}

/** The orientation after `current` in the item's `allowed` list (round), its first when `current` is not in it. */
export function nextOrientation(allowed: readonly Orientation[], current: Orientation): Orientation {
  const i = allowed.indexOf(current);
  return allowed[(i + 1) % allowed.length] ?? current;
}

/**
 * A unit turned to a new size in place: same min corner, kept inside the cargo space along x
 * and z (a turned unit that would poke through the door or a side wall is pushed back in).
 */
export function keepInside(box: SolidBox, space: CargoSpace): SolidBox {
  return {
    ...box,
    x: within(box.x, space.length - box.length),
    z: within(box.z, space.width - box.width),
  };
}
