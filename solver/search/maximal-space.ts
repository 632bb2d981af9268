/**
 * Empty maximal spaces (EMS) of one vehicle under the full-support rule.
 *
 * A space is an empty cuboid whose whole bottom face is supported: it lies on the floor (y = 0)
 * or on top faces of stackable units whose top is exactly at the space's `y0`. Keeping that
 * invariant means any box put at the bottom of a space is fully supported (100 % of its base
 * area), so the packer needs no separate support test. Spaces at the same height are joined
 * (two touching spaces give the larger rectangle spanning both) so that a block can stand on
 * the tops of several neighbouring blocks. Coordinates in cm: x along the length (front wall
 * x = 0 → door), y up, z across the width.
 */

/** Tolerance for comparing coordinates, cm (sizes may be decimals; sums carry float error). */
export const EPS = 1e-7;

/** An empty, fully supported cuboid [x0,x1]×[y0,y1]×[z0,z1], cm. */
export interface Space {
  x0: number;
  y0: number;
  z0: number;
  x1: number;
  y1: number;
  z1: number;
  /**
   * Highest stack level (units counted from the floor) among the units under the bottom face,
   * 0 on the floor. A unit put here has stack level at most `level + 1`.
   */
  level: number;
  /**
   * Pressure the bottom face may still take, kg/cm² (Infinity: no limit): the smallest capacity
   * of the surfaces under it (load-bearing.ts).
   */
  capacity: number;
  /**
   * true when every surface under the bottom face is the floor, the second deck or the top of a
   * pallet-shaped unit: a pallet may stand here under the safe stacking rule pallets_on_cartons.
   */
  palletBase: boolean;
  /**
   * The least weight per cm² of top face among the units under the bottom face, kg/cm²
   * (Infinity on the floor or the deck; heavy-on-light, load-bearing.ts): a fully supported unit
   * of footprint A here rests on units weighing at least `bearerDensity` · A together.
   */
  bearerDensity: number;
  /**
   * The least unit weight among the units under the bottom face, kg (Infinity on the floor or the
   * deck): a unit here rests on at least one of them, so on at least this much.
   */
  bearerWeight: number;
}

/** An occupied cuboid, cm, and what may rest on its top face. */
export interface Occupied {
  x0: number;
  y0: number;
  z0: number;
  x1: number;
  y1: number;
  z1: number;
  /** Stack level of the units at the top face; the space above starts at this level. */
  topLevel: number;
  /** false: nothing may rest on the top (not stackable, stack limit reached, blocked column). */
  supportsAbove: boolean;
  /** Pressure the top face may take, kg/cm² (load-bearing.ts); read when `supportsAbove`. */
  capacityAbove: number;
  /** The top face is a pallet's (Space.palletBase above it). */
  palletTop: boolean;
  /** kg per cm² of the top face's units (Space.bearerDensity above it). */
  densityAbove: number;
  /** kg of one of the top face's units (Space.bearerWeight above it). */
  weightAbove: number;
}

/** Minimum extent of a space along each axis below which nothing fits, cm. */
export interface MinSize {
  x: number;
  y: number;
  z: number;
}

/** Most joins made per update, to bound the work on fragmented floors. */
const MAX_JOINS = 64;

function contains(a: Space, b: Space): boolean {
  return (
    a.x0 <= b.x0 + EPS &&
    a.y0 <= b.y0 + EPS &&
    a.z0 <= b.z0 + EPS &&
    a.x1 >= b.x1 - EPS &&
    a.y1 >= b.y1 - EPS &&
    a.z1 >= b.z1 - EPS
  );
}

/** `a` makes `b` redundant: it contains `b` and bears at least as much, and as many kinds of unit. */
function dominates(a: Space, b: Space): boolean {
  return (
    a.capacity >= b.capacity &&
    a.bearerDensity >= b.bearerDensity &&
    a.bearerWeight >= b.bearerWeight &&
    (a.palletBase || !b.palletBase) &&
    contains(a, b)
  );
}

function intersects(s: Space, o: Occupied): boolean {
  return (
    s.x0 < o.x1 - EPS &&
    o.x0 < s.x1 - EPS &&
    s.y0 < o.y1 - EPS &&
    o.y0 < s.y1 - EPS &&
    s.z0 < o.z1 - EPS &&
    o.z0 < s.z1 - EPS
  );
}

function bigEnough(s: Space, min: MinSize): boolean {
  return s.x1 - s.x0 >= min.x - EPS && s.y1 - s.y0 >= min.y - EPS && s.z1 - s.z0 >= min.z - EPS;
}

/** The empty cargo space of a vehicle L×W×H (cm) as one floor space; `capacity`: floor, kg/cm². */
export function initialSpace(length: number, width: number, height: number, capacity = Infinity): Space {
  return {
    x0: 0,
    y0: 0,
    z0: 0,
    x1: length,
    y1: height,
    z1: width,
    level: 0,
    capacity,
    palletBase: true,
    bearerDensity: Infinity,
    bearerWeight: Infinity,
  };
}

/**
 * Parts of `s` left free by `o` (which must intersect `s`): the four sides and the part below
 * keep the bottom of `s`; the part above `o` is cut to the footprint of `o`, the only area
 * whose support is known, and only exists when `o` supports units on top.
 */
function split(s: Space, o: Occupied): Space[] {
  const out: Space[] = [];
  if (o.x0 > s.x0 + EPS) out.push({ ...s, x1: o.x0 });
  if (o.x1 < s.x1 - EPS) out.push({ ...s, x0: o.x1 });
  if (o.z0 > s.z0 + EPS) out.push({ ...s, z1: o.z0 });
  if (o.z1 < s.z1 - EPS) out.push({ ...s, z0: o.z1 });
  if (o.y0 > s.y0 + EPS) out.push({ ...s, y1: o.y0 });
  if (o.supportsAbove && o.y1 < s.y1 - EPS) {
    out.push({
      x0: Math.max(s.x0, o.x0),
      x1: Math.min(s.x1, o.x1),
      z0: Math.max(s.z0, o.z0),
      z1: Math.min(s.z1, o.z1),
      y0: o.y1,
      y1: s.y1,
      level: o.topLevel,
      capacity: o.capacityAbove,
      palletBase: o.palletTop,
      bearerDensity: o.densityAbove,
      bearerWeight: o.weightAbove,
    });
  }
  return out;
}

/**
 * Joins of two spaces at the same height that touch or overlap: the rectangle spanning both
 * along x over their common z range, and the one spanning both along z over their common x
 * range, each up to the lower of the two tops, with the higher level and the lower capacity.
 * Only joins larger than both inputs are returned.
 */
function joins(a: Space, b: Space): Space[] {
  if (Math.abs(a.y0 - b.y0) > EPS) return [];
  const out: Space[] = [];
  const y1 = Math.min(a.y1, b.y1);
  const level = Math.max(a.level, b.level);
  const capacity = Math.min(a.capacity, b.capacity);
  const palletBase = a.palletBase && b.palletBase;
  const bearerDensity = Math.min(a.bearerDensity, b.bearerDensity);
  const bearerWeight = Math.min(a.bearerWeight, b.bearerWeight);
  const xTouch = a.x0 <= b.x1 + EPS && b.x0 <= a.x1 + EPS;
  const zTouch = a.z0 <= b.z1 + EPS && b.z0 <= a.z1 + EPS;
  const zLo = Math.max(a.z0, b.z0),
    zHi = Math.min(a.z1, b.z1);
  const xLo = Math.max(a.x0, b.x0),
    xHi = Math.min(a.x1, b.x1);
  if (xTouch && zHi > zLo + EPS) {
    out.push({
      x0: Math.min(a.x0, b.x0),
      x1: Math.max(a.x1, b.x1),
      z0: zLo,
      z1: zHi,
      y0: a.y0,
      y1,
      level,
      capacity,
      palletBase,
      bearerDensity,
      bearerWeight,
    });
  }
  if (zTouch && xHi > xLo + EPS) {
    out.push({
      x0: xLo,
      x1: xHi,
      z0: Math.min(a.z0, b.z0),
      z1: Math.max(a.z1, b.z1),
      y0: a.y0,
      y1,
      level,
      capacity,
      palletBase,
      bearerDensity,
      bearerWeight,
    });
  }
  return out.filter((j) => !contains(a, j) && !contains(b, j));
}

/**
 * Updates the space list after `o` is occupied: every space intersecting `o` is replaced by its
 * free parts, new parts are joined with spaces at the same height, parts smaller than `min`
 * and parts contained in another space are dropped. Returns the new list (input not mutated).
 */
export function occupy(spaces: readonly Space[], o: Occupied, min: MinSize): Space[] {
  const kept: Space[] = [];
  let fresh: Space[] = [];
  for (const s of spaces) {
    if (intersects(s, o)) fresh.push(...split(s, o));
    else kept.push(s);
  }
  fresh = fresh.filter((s) => bigEnough(s, min));
  // `queue` grows at its end while read from `head` (first in, first out, without shifting).
  const queue = fresh;
  const added: Space[] = [];
  let joinCount = 0;
  const joinWith = (p: Space, q: Space): void => {
    if (q === p) return;
    for (const j of joins(p, q)) {
      if (joinCount >= MAX_JOINS) break;
      if (!bigEnough(j, min)) continue;
      joinCount++;
      queue.push(j);
    }
  };
  for (let head = 0; head < queue.length; head++) {
    const p = queue[head]!;
    if (dominatedIn(kept, p) || dominatedIn(added, p)) continue;
    added.push(p);
    if (joinCount >= MAX_JOINS) continue;
    // The spaces kept, then those added so far (`p` last); joins go to the queue only.
    for (const q of kept) joinWith(p, q);
    for (const q of added) joinWith(p, q);
  }
  return removeContainedAfter(kept, added, min);
}

/** True when a space of `list` other than `p` itself dominates `p`. */
function dominatedIn(list: readonly Space[], p: Space): boolean {
  for (const q of list) if (q !== p && dominates(q, p)) return true;
  return false;
}

/** Drops spaces smaller than `min` and spaces contained in another one that bears as much. */
export function removeContained(spaces: readonly Space[], min: MinSize): Space[] {
  return removeContainedAfter([], spaces, min);
}

/**
 * removeContained(kept.concat(added), min), the same list in the same order, for `kept` whose
 * spaces do not dominate one another in their order (a removeContained or occupy result, or a
 * subsequence of one): a kept space is only checked against the added spaces before it, since
 * no kept space before it dominates it.
 */
export function removeContainedAfter(kept: readonly Space[], added: readonly Space[], min: MinSize): Space[] {
  const all = kept.concat(added);
  const vol = new Float64Array(all.length);
  const order: number[] = [];
  for (let i = 0; i < all.length; i++) {
    if (!bigEnough(all[i]!, min)) continue;
    order.push(i);
    vol[i] = volume(all[i]!);
  }
  // Largest first; ties keep their order.
  order.sort((a, b) => vol[b]! - vol[a]! || a - b);
  const out: Space[] = [];
  const outAdded: Space[] = [];
  for (const i of order) {
    const s = all[i]!;
    if (i < kept.length) {
      if (!dominatedIn(outAdded, s)) out.push(s);
    } else if (!dominatedIn(out, s)) {
      out.push(s);
      outAdded.push(s);
    }
  }
  return out;
}

/** Volume of a space, cm³. */
export function volume(s: Space): number {
  return (s.x1 - s.x0) * (s.y1 - s.y0) * (s.z1 - s.z0);
}
