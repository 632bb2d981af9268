/**
 * The outline of each unit as line segments, two vertices each, in plan coordinates (cm):
 * a box's 12 edges, a round unit's two end circles (`cylinder` and `drum`
 * items, CIRCLE_SEGMENTS segments each) at both ends of the axis its height lies along. The
 * loaded units keep all outlines in one buffer in loading-step order; vertexOffsets says where
 * each unit's segments start, so "steps 1..s" is one draw range.
 */
import type { Placement } from '../../domain/pack/plan.js';

/** Item shapes drawn as cylinders. */
export { ROUND_SHAPES } from '../../domain/pack/round-shape.js';

/** Segments of one end circle of a round unit. */
export const CIRCLE_SEGMENTS = 24;

/** Corners of the unit box, and the 12 edges between them (pairs of corner indices). */
const CORNERS = [
  [0, 0, 0],
  [1, 0, 0],
  [1, 0, 1],
  [0, 0, 1],
  [0, 1, 0],
  [1, 1, 0],
  [1, 1, 1],
  [0, 1, 1],
] as const;
const EDGES = [
  [0, 1],
  [1, 2],
  [2, 3],
  [3, 0],
  [4, 5],
  [5, 6],
  [6, 7],
  [7, 4],
  [0, 4],
  [1, 5],
  [2, 6],
  [3, 7],
] as const;

/** The plan axis (0 x, 1 y, 2 z) a round unit's height lies along: the orientation's letters name the defined side along x, z and y. */
export function roundAxis(p: Pick<Placement, 'orientation'>): 0 | 1 | 2 {
  const k = p.orientation.indexOf('h');
  return k === 0 ? 0 : k === 1 ? 2 : 1;
}

/** Vertices of a unit's outline: 24 for a box, 4·CIRCLE_SEGMENTS for a round unit. */
export function edgeVertexCount(round: boolean): number {
  return round ? 4 * CIRCLE_SEGMENTS : 2 * EDGES.length;
}

/**
 * Where each unit's vertices start in the buffer, and the total at the end: `units.length + 1`
 * entries, ascending. `isRound(p)` says whether `p` is drawn as a cylinder.
 */
export function vertexOffsets(units: readonly Placement[], isRound: (p: Placement) => boolean): Uint32Array {
  const out = new Uint32Array(units.length + 1);
  units.forEach((p, i) => (out[i + 1] = out[i]! + edgeVertexCount(isRound(p))));
  return out;
}

/**
 * Writes the outline of `p` into `into` from vertex `vertex` (3 floats each); returns the next
 * free vertex. A round unit's circles are centred in its bounding box's cross-section with radius
 * half the smaller side across the axis (both are 2·radius).
 */
export function writeUnitEdges(p: Placement, round: boolean, into: Float32Array, vertex: number): number {
  let k = vertex * 3;
  const min = [p.x, p.y, p.z];
  const size = [p.length, p.height, p.width];
  if (!round) {
    for (const [a, b] of EDGES) {
      for (const c of [CORNERS[a], CORNERS[b]]) {
        into[k++] = p.x + c[0] * p.length;
        into[k++] = p.y + c[1] * p.height;
        into[k++] = p.z + c[2] * p.width;
      }
    }
    return k / 3;
  }
  const axis = roundAxis(p);
  const [u, v] = ([0, 1, 2] as const).filter((i) => i !== axis) as [number, number];
  const r = Math.min(size[u]!, size[v]!) / 2;
  const cu = min[u]! + size[u]! / 2,
    cv = min[v]! + size[v]! / 2;
  const point = [0, 0, 0];
  for (const at of [min[axis]!, min[axis]! + size[axis]!]) {
    for (let s = 0; s < CIRCLE_SEGMENTS; s++) {
      for (const t of [s, s + 1]) {
        const angle = (2 * Math.PI * t) / CIRCLE_SEGMENTS;
        point[axis] = at;
        point[u] = cu + r * Math.cos(angle);
        point[v] = cv + r * Math.sin(angle);
        into[k++] = point[0]!;
        into[k++] = point[1]!;
        into[k++] = point[2]!;
      }
    }
  }
  return k / 3;
}
