/**
 * Axonometric ("isometric") view of a cargo space: projection of vehicle coordinates onto the
 * drawing plane, the three visible faces of a box, and a painter's order for axis-aligned boxes.
 * Pure: no PDF here. Vehicle coordinates (spec Result → Coordinates), cm: x from the front wall
 * toward the door, y up from the floor, z from the right wall toward the left wall.
 *
 * The viewer stands behind, to the left of and above the cargo space (on the door side, the
 * left-wall side and above), so the visible faces of a box are its top (+y), its door-facing
 * face (+x) and its left-facing face (+z). On the drawing, x runs to the right (front wall on the
 * left, door on the right), z runs toward the viewer (down and left), y runs up.
 */

/** An axis-aligned box, cm: min corner and sizes along x (length), y (height), z (width). */
export interface SpaceBox {
  x: number;
  y: number;
  z: number;
  length: number;
  height: number;
  width: number;
}

/** Viewing angles, degrees: azimuth from the side view toward the door (0 < a < 90), elevation above the floor plane (0 < e < 90). */
export interface ViewAngles {
  azimuth: number;
  elevation: number;
}

/** A point on the drawing plane, cm at scale 1: u to the right, v up. */
export type ScreenPoint = readonly [u: number, v: number];

/**
 * An orthographic axonometric projection: `u = ux·x + uy·y + uz·z`, `v = vx·x + vy·y + vz·z`,
 * and the unit vector pointing from the cargo space toward the viewer (all components > 0).
 */
export interface Projection {
  readonly u: readonly [number, number, number];
  readonly v: readonly [number, number, number];
  readonly toViewer: readonly [number, number, number];
}

/**
 * The projection for the given angles. Throws RangeError when an angle is outside (0, 90)
 * degrees: at 0 or 90 two axes project onto one line and faces vanish.
 */
export function projectionFor(angles: ViewAngles): Projection {
  const { azimuth, elevation } = angles;
  if (!(azimuth > 0 && azimuth < 90 && elevation > 0 && elevation < 90)) {
    throw new RangeError(`view angles must lie in (0, 90) degrees, got ${azimuth}, ${elevation}`);
  }
  const a = (azimuth * Math.PI) / 180;
  const e = (elevation * Math.PI) / 180;
  const [sa, ca, se, ce] = [Math.sin(a), Math.cos(a), Math.sin(e), Math.cos(e)];
  return {
    u: [ca, 0, -sa],
    v: [-sa * se, ce, -ca * se],
    toViewer: [sa * ce, se, ca * ce],
  };
}

/** Projects one point of the cargo space (cm) onto the drawing plane (cm, unscaled). */
export function project(p: Projection, x: number, y: number, z: number): ScreenPoint {
  return [p.u[0] * x + p.u[1] * y + p.u[2] * z, p.v[0] * x + p.v[1] * y + p.v[2] * z];
}

/** The three faces of a box the viewer sees, each a quadrilateral on the drawing plane. */
export interface VisibleFaces {
  /** +y face. */
  top: ScreenPoint[];
  /** +x face, toward the door. */
  door: ScreenPoint[];
  /** +z face, toward the left wall. */
  side: ScreenPoint[];
}

/** The visible faces of `b` under projection `p`. */
export function visibleFaces(p: Projection, b: SpaceBox): VisibleFaces {
  const x1 = b.x + b.length;
  const y1 = b.y + b.height;
  const z1 = b.z + b.width;
  return {
    top: [project(p, b.x, y1, b.z), project(p, x1, y1, b.z), project(p, x1, y1, z1), project(p, b.x, y1, z1)],
    door: [project(p, x1, b.y, b.z), project(p, x1, y1, b.z), project(p, x1, y1, z1), project(p, x1, b.y, z1)],
    side: [project(p, b.x, b.y, z1), project(p, x1, b.y, z1), project(p, x1, y1, z1), project(p, b.x, y1, z1)],
  };
}

/** Extent of `b` along the drawing-plane direction `n` (a linear form over x, y, z). */
function extent(n: readonly [number, number, number], b: SpaceBox): [number, number] {
  const base = n[0] * b.x + n[1] * b.y + n[2] * b.z;
  let lo = base;
  let hi = base;
  for (const c of [n[0] * b.length, n[1] * b.height, n[2] * b.width]) {
    if (c < 0) lo += c;
    else hi += c;
  }
  return [lo, hi];
}

/**
 * Normals (as linear forms over x, y, z) of the three edge directions of a projected box. A
 * projected box is a convex hexagon whose edges run only along the projected x, y and z axes,
 * so two outlines overlap exactly when their extents overlap along all three normals.
 */
function outlineNormals(p: Projection): Array<[number, number, number]> {
  const axis = (k: 0 | 1 | 2): [number, number] => [p.u[k], p.v[k]];
  const normals: Array<[number, number, number]> = [];
  for (const k of [0, 1, 2] as const) {
    const [du, dv] = axis(k);
    // n = (-dv, du) on the drawing plane, expressed as a form over x, y, z.
    normals.push([-dv * p.u[0] + du * p.v[0], -dv * p.u[1] + du * p.v[1], -dv * p.u[2] + du * p.v[2]]);
  }
  return normals;
}

const EPS = 1e-6;

/**
 * -1 when `a` must be drawn before `b` (a lies behind b on some axis), 1 for the reverse, 0 when
 * no axis separates them (the boxes overlap: not a valid plan). Because the viewer direction is
 * positive on every axis, a box entirely below / behind another along an axis is never in
 * front of it; for boxes whose outlines overlap every separating axis gives the same answer.
 */
function separation(a: SpaceBox, b: SpaceBox): -1 | 0 | 1 {
  if (a.x + a.length <= b.x + EPS || a.y + a.height <= b.y + EPS || a.z + a.width <= b.z + EPS) return -1;
  if (b.x + b.length <= a.x + EPS || b.y + b.height <= a.y + EPS || b.z + b.width <= a.z + EPS) return 1;
  return 0;
}

/**
 * Painter's order: indices of `boxes`, back to front, so that drawing them in this order leaves
 * every box covered only by boxes in front of it. Boxes must be axis-aligned and must not
 * overlap (touching is fine). Only pairs whose outlines overlap on the drawing constrain the
 * order; the order is a topological sort of those constraints, ties taken by depth (distance
 * toward the viewer of the box centre). A cyclic overlap, possible in theory for long
 * interlocking boxes, is broken at the box visited first. O(n·k) for k boxes per screen
 * column, plus a sort.
 */
export function paintersOrder(p: Projection, boxes: readonly SpaceBox[]): number[] {
  const n = boxes.length;
  const normals = outlineNormals(p);
  const ext: Array<[number, number][]> = boxes.map((b) => normals.map((nv) => extent(nv, b)));
  const uRange = boxes.map((b) => extent(p.u, b));
  const depth = boxes.map(
    (b) =>
      p.toViewer[0] * (b.x + b.length / 2) + p.toViewer[1] * (b.y + b.height / 2) + p.toViewer[2] * (b.z + b.width / 2),
  );

  // behind[i]: boxes that must be drawn before box i.
  const behind: number[][] = Array.from({ length: n }, () => []);
  const byU = [...Array(n).keys()].sort((i, j) => uRange[i]![0] - uRange[j]![0]);
  for (let s = 0; s < n; s++) {
    const i = byU[s]!;
    const [, iuMax] = uRange[i]!;
    const ei = ext[i]!;
    for (let t = s + 1; t < n; t++) {
      const j = byU[t]!;
      if (uRange[j]![0] >= iuMax - EPS) break;
      const ej = ext[j]!;
      let overlap = true;
      for (let k = 0; k < 3; k++) {
        const [ilo, ihi] = ei[k]!;
        const [jlo, jhi] = ej[k]!;
        if (ihi <= jlo + EPS || jhi <= ilo + EPS) {
          overlap = false;
          break;
        }
      }
      if (!overlap) continue;
      const sep = separation(boxes[i]!, boxes[j]!);
      const order = sep !== 0 ? sep : depth[i]! <= depth[j]! ? -1 : 1;
      if (order < 0) behind[j]!.push(i);
      else behind[i]!.push(j);
    }
  }

  // Depth-first topological sort, roots taken back to front; iterative (chains can be long).
  const roots = [...Array(n).keys()].sort((i, j) => depth[i]! - depth[j]! || i - j);
  for (const list of behind) list.sort((i, j) => depth[i]! - depth[j]! || i - j);
  const state = new Uint8Array(n); // 0 new, 1 on the stack, 2 emitted
  const out: number[] = [];
  const stack: Array<[node: number, next: number]> = [];
  for (const r of roots) {
    if (state[r] !== 0) continue;
    state[r] = 1;
    stack.push([r, 0]);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const preds = behind[top[0]]!;
      if (top[1] < preds.length) {
        const q = preds[top[1]++]!;
        if (state[q] === 0) {
          state[q] = 1;
          stack.push([q, 0]);
        }
      } else {
        stack.pop();
        state[top[0]] = 2;
        out.push(top[0]);
      }
    }
  }
  return out;
}
