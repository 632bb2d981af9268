/**
 * Footprints: what a unit covers of the horizontal plane (x along the length, z across), cm.
 * A box, a pallet, a bag and a lying cylinder cover their bounding rectangle; an upright
 * cylinder or drum covers the circle of its radius centred in its bounding rectangle.
 * Overlap, resting contacts and support are decided on footprints, so staggered round
 * units may have overlapping bounding boxes while their circles only touch.
 */
import type { ItemModel, Placement } from '../../domain/pack/plan.js';
import { heightVertical, isRoundShape } from '../../domain/pack/round-shape.js';
import { LENGTH_TOLERANCE } from './violation.js';

/** An axis-aligned rectangle, cm. */
export interface RectFootprint {
  kind: 'rect';
  x0: number;
  x1: number;
  z0: number;
  z1: number;
}

/** A circle centred at (cx, cz) with radius r, cm. */
export interface CircleFootprint {
  kind: 'circle';
  cx: number;
  cz: number;
  r: number;
}

export type Footprint = RectFootprint | CircleFootprint;

/**
 * Area (cm²) of the union of footprint rectangles, robust to overlapping rectangles: for each
 * strip between consecutive x edges, the z intervals of the rectangles spanning it are merged.
 * O(k² log k) for k rectangles.
 */
export function unionArea(rects: readonly { x0: number; x1: number; z0: number; z1: number }[]): number {
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

/** Widest spacing of the sample grid that checks coverage of round footprints, cm. */
export const SAMPLE_SPACING = 0.5;

/**
 * The footprint of `placement` of `item`: the circle when the item is a cylinder or drum placed
 * with its defined height vertical (orientation `lwh` or `wlh`) and a square bounding footprint;
 * the bounding rectangle otherwise (unknown item, lying cylinder, any other shape).
 */
export function footprintOf(placement: Placement, item: Pick<ItemModel, 'shape'> | undefined): Footprint {
  const rect: RectFootprint = {
    kind: 'rect',
    x0: placement.x,
    x1: placement.x + placement.length,
    z0: placement.z,
    z1: placement.z + placement.width,
  };
  if (!item || !isRoundShape(item.shape) || !heightVertical(placement.orientation)) return rect;
  if (Math.abs(placement.length - placement.width) > LENGTH_TOLERANCE) return rect;
  const r = placement.length / 2;
  return { kind: 'circle', cx: placement.x + r, cz: placement.z + r, r };
}

/** The bounding rectangle of a footprint. */
export function boundsOf(f: Footprint): RectFootprint {
  return f.kind === 'rect' ? f : { kind: 'rect', x0: f.cx - f.r, x1: f.cx + f.r, z0: f.cz - f.r, z1: f.cz + f.r };
}

/** Area of a footprint, cm². */
export function footprintArea(f: Footprint): number {
  return f.kind === 'rect' ? Math.max(0, f.x1 - f.x0) * Math.max(0, f.z1 - f.z0) : Math.PI * f.r * f.r;
}

/** Distance from (x, z) to the rectangle, 0 inside it, cm. */
function distanceToRect(x: number, z: number, r: RectFootprint): number {
  const dx = Math.max(r.x0 - x, 0, x - r.x1);
  const dz = Math.max(r.z0 - z, 0, z - r.z1);
  return Math.hypot(dx, dz);
}

/**
 * How deep two footprints reach into each other, cm: > 0 when they share a positive area
 * (rectangles: the thinner of the two overlaps; a circle and a rectangle: how far the circle
 * reaches past the rectangle's nearest point, at least its radius when its centre is inside;
 * circles: r1 + r2 − centre distance). ≤ 0 when they only touch or are apart.
 */
export function penetration(a: Footprint, b: Footprint): number {
  if (a.kind === 'rect' && b.kind === 'rect')
    return Math.min(Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), Math.min(a.z1, b.z1) - Math.max(a.z0, b.z0));
  if (a.kind === 'circle' && b.kind === 'circle') return a.r + b.r - Math.hypot(a.cx - b.cx, a.cz - b.cz);
  const [c, r] = a.kind === 'circle' ? [a, b as RectFootprint] : [b as CircleFootprint, a];
  const inner = Math.min(
    Math.min(r.x1, c.cx + c.r) - Math.max(r.x0, c.cx - c.r),
    Math.min(r.z1, c.cz + c.r) - Math.max(r.z0, c.cz - c.r),
  );
  return Math.min(inner, c.r - distanceToRect(c.cx, c.cz, r));
}

/** True when the two footprints share a positive area: penetration above LENGTH_TOLERANCE. */
export function footprintsMeet(a: Footprint, b: Footprint): boolean {
  return penetration(a, b) > LENGTH_TOLERANCE;
}

/** True when (x, z) lies in `f` grown by `tolerance` cm. */
function contains(f: Footprint, x: number, z: number, tolerance: number): boolean {
  if (f.kind === 'rect')
    return x >= f.x0 - tolerance && x <= f.x1 + tolerance && z >= f.z0 - tolerance && z <= f.z1 + tolerance;
  return Math.hypot(x - f.cx, z - f.cz) <= f.r + tolerance;
}

/** Length of the chord of circle `c` at x within [z0, z1], cm. */
function chordWithin(c: CircleFootprint, x: number, z0: number, z1: number): number {
  const h = c.r * c.r - (x - c.cx) * (x - c.cx);
  if (h <= 0) return 0;
  const s = Math.sqrt(h);
  return Math.max(0, Math.min(z1, c.cz + s) - Math.max(z0, c.cz - s));
}

/** Strips for the area of a circle within a rectangle (midpoint rule over the angle; error ~1e-6 of the area). */
const AREA_STRIPS = 400;

/**
 * Area the two footprints share, cm²: exact for two rectangles and two circles (the lens); for a
 * circle and a rectangle the chords within the rectangle integrated over x = cx + r·sin θ in
 * AREA_STRIPS strips (no square-root end point to spoil the sum).
 */
export function sharedArea(a: Footprint, b: Footprint): number {
  if (a.kind === 'rect' && b.kind === 'rect') {
    return (
      Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) *
      Math.max(0, Math.min(a.z1, b.z1) - Math.max(a.z0, b.z0))
    );
  }
  if (a.kind === 'circle' && b.kind === 'circle') return lensArea(a, b);
  const [c, r] = a.kind === 'circle' ? [a, b as RectFootprint] : [b as CircleFootprint, a];
  const x0 = Math.max(r.x0, c.cx - c.r);
  const x1 = Math.min(r.x1, c.cx + c.r);
  if (x1 <= x0) return 0;
  const t0 = Math.asin(Math.max(-1, Math.min(1, (x0 - c.cx) / c.r)));
  const t1 = Math.asin(Math.max(-1, Math.min(1, (x1 - c.cx) / c.r)));
  const step = (t1 - t0) / AREA_STRIPS;
  let area = 0;
  for (let i = 0; i < AREA_STRIPS; i++) {
    const t = t0 + (i + 0.5) * step;
    area += chordWithin(c, c.cx + c.r * Math.sin(t), r.z0, r.z1) * c.r * Math.cos(t) * step;
  }
  return area;
}

/** Area shared by two circles, cm². */
function lensArea(a: CircleFootprint, b: CircleFootprint): number {
  const d = Math.hypot(a.cx - b.cx, a.cz - b.cz);
  if (d >= a.r + b.r) return 0;
  const small = Math.min(a.r, b.r);
  if (d <= Math.abs(a.r - b.r)) return Math.PI * small * small;
  const alpha = Math.acos((d * d + a.r * a.r - b.r * b.r) / (2 * d * a.r));
  const beta = Math.acos((d * d + b.r * b.r - a.r * a.r) / (2 * d * b.r));
  return a.r * a.r * (alpha - Math.sin(2 * alpha) / 2) + b.r * b.r * (beta - Math.sin(2 * beta) / 2);
}

/**
 * The share (0–1) of `upper` covered by the union of `lowers`. Rectangles only: exact
 * (unionArea); one lower footprint enclosing `upper`: 1. Otherwise the share of the points of a
 * uniform grid (at most SAMPLE_SPACING cm apart) in `upper` that lie in a lower footprint (grown
 * by LENGTH_TOLERANCE); when that is all of them, also points on lines just either side of every
 * footprint's edge and 720 points on a circle's rim, so a gap between two supports thinner than
 * the grid is still found (the share is then reported just below 1).
 */
export function coveredShare(upper: Footprint, lowers: readonly Footprint[]): number {
  const area = footprintArea(upper);
  if (!(area > 0)) return 1;
  if (upper.kind === 'rect' && lowers.every((l) => l.kind === 'rect')) {
    const clipped = (lowers as RectFootprint[])
      .map((l) => ({
        x0: Math.max(l.x0, upper.x0),
        x1: Math.min(l.x1, upper.x1),
        z0: Math.max(l.z0, upper.z0),
        z1: Math.min(l.z1, upper.z1),
      }))
      .filter((l) => l.x1 > l.x0 && l.z1 > l.z0);
    return Math.min(1, unionArea(clipped) / area);
  }
  if (lowers.length === 0) return 0;
  if (lowers.some((l) => encloses(l, upper))) return 1;
  const box = boundsOf(upper);
  const grid = (lo: number, hi: number): number[] => {
    const n = Math.max(2, Math.ceil((hi - lo) / SAMPLE_SPACING));
    return Array.from({ length: n }, (_, i) => lo + ((i + 0.5) * (hi - lo)) / n);
  };
  const isCovered = (x: number, z: number): boolean => lowers.some((l) => contains(l, x, z, LENGTH_TOLERANCE));
  const inUpper = (x: number, z: number): boolean => contains(upper, x, z, -LENGTH_TOLERANCE);
  // The share: a uniform grid, each point standing for the same area.
  let inside = 0;
  let covered = 0;
  const gx = grid(box.x0, box.x1);
  const gz = grid(box.z0, box.z1);
  for (const x of gx)
    for (const z of gz) {
      if (!inUpper(x, z)) continue;
      inside++;
      if (isCovered(x, z)) covered++;
    }
  const share = inside === 0 ? 1 : covered / inside;
  if (share < 1) return share;
  // Fully covered on the grid: probe along every edge and the rim for a gap the grid stepped over.
  const xs = [...gx, ...edgeLines(box.x0, box.x1, upper, lowers, 'x')];
  const zs = [...gz, ...edgeLines(box.z0, box.z1, upper, lowers, 'z')];
  const probes: [number, number][] = [];
  for (const x of xs) for (const z of zs) probes.push([x, z]);
  if (upper.kind === 'circle') {
    const rim = upper.r * (1 - 1e-9) - 2 * LENGTH_TOLERANCE;
    for (let k = 0; k < 720; k++)
      probes.push([upper.cx + rim * Math.cos((k * Math.PI) / 360), upper.cz + rim * Math.sin((k * Math.PI) / 360)]);
  }
  const gaps = probes.filter(([x, z]) => inUpper(x, z) && !isCovered(x, z)).length;
  // A gap thinner than the grid: report it as the share it would have among the probes.
  return gaps === 0 ? 1 : Math.min(1 - 1e-4, 1 - gaps / probes.length);
}

/** True when `outer` grown by LENGTH_TOLERANCE contains all of `inner`. */
export function encloses(outer: Footprint, inner: Footprint): boolean {
  const t = LENGTH_TOLERANCE;
  if (outer.kind === 'rect') {
    const b = boundsOf(inner);
    return b.x0 >= outer.x0 - t && b.x1 <= outer.x1 + t && b.z0 >= outer.z0 - t && b.z1 <= outer.z1 + t;
  }
  if (inner.kind === 'circle') return Math.hypot(inner.cx - outer.cx, inner.cz - outer.cz) + inner.r <= outer.r + t;
  return [
    [inner.x0, inner.z0],
    [inner.x0, inner.z1],
    [inner.x1, inner.z0],
    [inner.x1, inner.z1],
  ].every(([x, z]) => contains(outer, x!, z!, t));
}

/** Coordinates along one axis within (lo, hi) just either side of every footprint's edge and through each circle's centre. */
function edgeLines(lo: number, hi: number, upper: Footprint, lowers: readonly Footprint[], axis: 'x' | 'z'): number[] {
  const lines: number[] = [];
  const nudge = Math.max(1e-4, 10 * LENGTH_TOLERANCE);
  for (const f of [upper, ...lowers]) {
    const b = boundsOf(f);
    const [e0, e1] = axis === 'x' ? [b.x0, b.x1] : [b.z0, b.z1];
    for (const e of [e0 - nudge, e0 + nudge, e1 - nudge, e1 + nudge]) if (e > lo && e < hi) lines.push(e);
    if (f.kind === 'circle') {
      const c = axis === 'x' ? f.cx : f.cz;
      if (c > lo && c < hi) lines.push(c);
    }
  }
  return lines;
}
