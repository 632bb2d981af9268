/**
 * The drawing-plane bounding rectangle of a box, for tests of pdf/isometric.ts: the
 * extremes of its eight projected corners (cm at scale 1), worked out apart from the renderer's
 * own extent arithmetic.
 */
import { project, type Projection, type SpaceBox } from '../../pdf/isometric.js';

/** Bounding rectangle of a box's outline on the drawing plane, cm at scale 1. */
export interface ScreenBounds {
  uMin: number;
  uMax: number;
  vMin: number;
  vMax: number;
}

/** The bounding rectangle of the points `points` ([u, v], cm). */
export function boundsOf(points: readonly (readonly [number, number])[]): ScreenBounds {
  return {
    uMin: Math.min(...points.map((q) => q[0])),
    uMax: Math.max(...points.map((q) => q[0])),
    vMin: Math.min(...points.map((q) => q[1])),
    vMax: Math.max(...points.map((q) => q[1])),
  };
}

/** The drawing-plane bounding rectangle of box `b` under projection `p`. */
export function screenBounds(p: Projection, b: SpaceBox): ScreenBounds {
  const corners: (readonly [number, number])[] = [];
  for (const x of [b.x, b.x + b.length]) {
    for (const y of [b.y, b.y + b.height]) {
      for (const z of [b.z, b.z + b.width]) corners.push(project(p, x, y, z));
    }
  }
  return boundsOf(corners);
}
