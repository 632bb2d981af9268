/**
 * Round units as the PDF draws them: the cylinder of a `cylinder` or `drum`
 * placement (its axis along the placed side that is the item's height: vertical for an upright
 * unit, along x or z for a lying one) and its outline as paths of cubic Bézier arcs in vehicle
 * coordinates (cm). Every view of the PDF is an affine map of the vehicle (the floor plan, the
 * axonometric 3D view), and affine maps carry Bézier control points exactly, so a view projects
 * the control points and draws one path per disc or cylinder face. Pure: no PDF here.
 */
import type { Placement } from '../domain/pack/plan.js';
import type { Projection } from './isometric.js';
import { footprintOf, footprintsMeet } from '../solver/verify/footprint.js';

/** A point or direction in vehicle coordinates, cm: x, y, z. */
export type Vec3 = readonly [number, number, number];

/** The vehicle axis a round unit's height lies along: `y` upright, `x` or `z` lying. */
export type RoundAxis = 'x' | 'y' | 'z';

/**
 * A path in vehicle coordinates: a start point, then steps that are either a line to one point
 * or a cubic Bézier curve through two control points to a third; closed by the drawing.
 */
export interface Path3 {
  start: Vec3;
  steps: Array<readonly [Vec3] | readonly [Vec3, Vec3, Vec3]>;
}

/** A placed round unit: the centre of its first end circle (lowest along the axis), radius and length along the axis, cm. */
export interface Cylinder {
  axis: RoundAxis;
  base: Vec3;
  radius: number;
  length: number;
}

/** Item shapes drawn round (domain/pack/round-shape.ts). */
export { ROUND_SHAPES } from '../domain/pack/round-shape.js';

/**
 * The axis of `p`'s height: the orientation's letters name the defined side along x, z and y
 * (domain/pack/plan.ts Orientation), so the place of `h` says where the height went.
 */
export function roundAxis(p: Pick<Placement, 'orientation'>): RoundAxis {
  const k = p.orientation.indexOf('h');
  return k === 0 ? 'x' : k === 1 ? 'z' : 'y';
}

/**
 * The cylinder of a round placement: its circle is centred in the bounding box's cross-section,
 * radius half the smaller of the two sides across the axis (they are equal, 2·radius, in a
 * valid plan).
 */
export function cylinderOf(p: Placement): Cylinder {
  const axis = roundAxis(p);
  const cx = p.x + p.length / 2,
    cy = p.y + p.height / 2,
    cz = p.z + p.width / 2;
  if (axis === 'y') return { axis, base: [cx, p.y, cz], radius: Math.min(p.length, p.width) / 2, length: p.height };
  if (axis === 'x') return { axis, base: [p.x, cy, cz], radius: Math.min(p.width, p.height) / 2, length: p.length };
  return { axis, base: [cx, cy, p.z], radius: Math.min(p.length, p.height) / 2, length: p.width };
}

const UNIT: Record<RoundAxis, Vec3> = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };
/** The two directions spanning the circle of each axis (angle 0 along the first). */
const SPAN: Record<RoundAxis, readonly [Vec3, Vec3]> = {
  x: [
    [0, 1, 0],
    [0, 0, 1],
  ],
  y: [
    [1, 0, 0],
    [0, 0, 1],
  ],
  z: [
    [1, 0, 0],
    [0, 1, 0],
  ],
};

const add = (a: Vec3, b: Vec3, k = 1): Vec3 => [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Centre of the end circle at `end` (0: base, 1: the far end along the axis). */
function endCentre(c: Cylinder, end: 0 | 1): Vec3 {
  return add(c.base, UNIT[c.axis], end * c.length);
}

/** The point of an end circle at angle `t` (radians from the axis's first span direction). */
function onCircle(c: Cylinder, end: 0 | 1, t: number): Vec3 {
  const [p, q] = SPAN[c.axis];
  return add(add(endCentre(c, end), p, c.radius * Math.cos(t)), q, c.radius * Math.sin(t));
}

/**
 * The arc of an end circle from angle `from` to `to` (radians, either direction) as cubic
 * Bézier steps of at most a quarter turn each (radial error under 0.03 % of the radius).
 */
function arcSteps(c: Cylinder, end: 0 | 1, from: number, to: number): Path3['steps'] {
  const [p, q] = SPAN[c.axis];
  const n = Math.max(1, Math.ceil(Math.abs(to - from) / (Math.PI / 2) - 1e-9));
  const span = (to - from) / n;
  const k = (4 / 3) * Math.tan(span / 4) * c.radius;
  const tangent = (t: number): Vec3 =>
    add([-Math.sin(t) * p[0], -Math.sin(t) * p[1], -Math.sin(t) * p[2]], q, Math.cos(t));
  const steps: Path3['steps'] = [];
  for (let i = 0; i < n; i++) {
    const a = from + i * span,
      b = a + span;
    const pa = onCircle(c, end, a),
      pb = onCircle(c, end, b);
    steps.push([add(pa, tangent(a), k), add(pb, tangent(b), -k), pb]);
  }
  return steps;
}

/** A whole end circle as a closed path (four quarter arcs). */
export function endCircle(c: Cylinder, end: 0 | 1): Path3 {
  return { start: onCircle(c, end, 0), steps: arcSteps(c, end, 0, 2 * Math.PI) };
}

/** Screen direction of a vehicle direction under `p`. */
function screen(p: Projection, d: Vec3): [number, number] {
  return [dot(p.u, d), dot(p.v, d)];
}

/**
 * What the 3D view draws of cylinder `c` under projection `p`, back to front: the `band` (the
 * curved surface the viewer sees: the near half of the base circle, the silhouette line along
 * the axis, the near half of the far circle back, closed) and the `cap`, the far end circle,
 * which faces the viewer (every axis points toward the viewer: Projection.toViewer > 0).
 */
export function cylinderOutline(p: Projection, c: Cylinder): { band: Path3; cap: Path3 } {
  const [sp, sq] = SPAN[c.axis].map((d) => screen(p, d)) as [[number, number], [number, number]];
  const se = screen(p, UNIT[c.axis]);
  const cross = (a: [number, number], b: [number, number]): number => a[0] * b[1] - a[1] * b[0];
  // Where the circle's projected tangent runs along the projected axis: the silhouette lines.
  let t0 = Math.atan2(cross(sq, se), cross(sp, se));
  const [dp, dq] = SPAN[c.axis];
  const mid = t0 + Math.PI / 2;
  if (
    dot(add([Math.cos(mid) * dp[0], Math.cos(mid) * dp[1], Math.cos(mid) * dp[2]], dq, Math.sin(mid)), p.toViewer) < 0
  )
    t0 += Math.PI;
  const t1 = t0 + Math.PI;
  const band: Path3 = {
    start: onCircle(c, 0, t0),
    steps: [...arcSteps(c, 0, t0, t1), [onCircle(c, 1, t1)], ...arcSteps(c, 1, t1, t0)],
  };
  return { band, cap: endCircle(c, 1) };
}

/**
 * The square inscribed in the far end circle, inset by `inset` cm (a label goes inside it): four
 * corners in vehicle coordinates, in order round the circle.
 */
export function capSquare(c: Cylinder, inset = 0): Vec3[] {
  const [p, q] = SPAN[c.axis];
  const h = Math.max(0, c.radius / Math.SQRT2 - inset);
  const centre = endCentre(c, 1);
  return [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([a, b]) => add(add(centre, p, a! * h), q, b! * h));
}

/**
 * Do the floor-plane footprints of `a` and `b` overlap? A unit's footprint is the circle of an
 * upright round unit (`aRound` / `bRound`: its item is a cylinder or drum) and the bounding
 * rectangle otherwise, decided by the verifier's geometry (solver/verify/footprint.ts), so the
 * unit list's "Rests on" and the verifier's contacts agree: staggered drums whose rectangles
 * overlap but whose circles only touch do not overlap.
 */
export function footprintsOverlap(a: Placement, aRound: boolean, b: Placement, bRound: boolean): boolean {
  return footprintsMeet(footprintOf(a, aRound ? DRUM : undefined), footprintOf(b, bRound ? DRUM : undefined));
}

const DRUM = { shape: 'drum' } as const;
