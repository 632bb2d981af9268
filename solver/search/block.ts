/**
 * Blocks: nx × nz × ny identical units in the same orientation, built to fill a space, and
 * their ranking. Inside a block every upper unit stands exactly on the unit below it.
 */
import type { Orientation } from '../model/types.js';
import type { Space } from './maximal-space.js';
import { EPS } from './maximal-space.js';
import type { OrientedSize } from './orientation.js';
import type { BlockScore } from './strategy.js';

/** A block of one item kind placed with its min corner at (x, y, z), cm. */
export interface Block {
  item: number;
  orientation: Orientation;
  /** One unit's placed size, cm. */
  size: OrientedSize;
  nx: number;
  ny: number;
  nz: number;
  x: number;
  y: number;
  z: number;
}

/** Limits a block must respect besides the space. */
export interface BlockLimits {
  /** Units of the kind still to load. */
  available: number;
  /** Most units of the kind the payload still allows. */
  byWeight: number;
  /** Most layers allowed by stacking (not stackable: 1; stack limit: max − space level). */
  layers: number;
}

/** Block sizes along x, y, z, cm. */
export function blockExtent(b: Block): { dx: number; dy: number; dz: number } {
  return { dx: b.size.l * b.nx, dy: b.size.h * b.ny, dz: b.size.w * b.nz };
}

/** Units in a block. */
export function blockUnits(b: Block): number {
  return b.nx * b.ny * b.nz;
}

/**
 * The blocks of one kind and orientation that fit `space`: a column-first one (as many layers
 * as allowed, then across the width, then along the length) and a width-first one. The z
 * anchor is the side of the space nearer to a vehicle side wall (`vehicleWidth`, cm).
 * With `wallSlices`, also the column-first block one unit deep. Returns 0–3 blocks.
 */
export function blocksFor(
  item: number, orientation: Orientation, size: OrientedSize, space: Space,
  limits: BlockLimits, vehicleWidth: number, wallSlices = false,
): Block[] {
  const q = Math.min(limits.available, limits.byWeight);
  if (q < 1) return [];
  const fx = Math.floor((space.x1 - space.x0 + EPS) / size.l);
  const fz = Math.floor((space.z1 - space.z0 + EPS) / size.w);
  const fy = Math.min(Math.floor((space.y1 - space.y0 + EPS) / size.h), limits.layers);
  if (fx < 1 || fz < 1 || fy < 1) return [];
  const out: Block[] = [];
  const nearLeft = space.z0 <= vehicleWidth - space.z1;
  const shapes: [number, number, number][] = [];
  let ny = Math.min(fy, q);
  let nz = Math.min(fz, Math.floor(q / ny));
  shapes.push([Math.min(fx, Math.floor(q / (ny * nz))), ny, nz]);
  nz = Math.min(fz, q);
  ny = Math.min(fy, Math.floor(q / nz));
  shapes.push([Math.min(fx, Math.floor(q / (ny * nz))), ny, nz]);
  // One unit deep: a slice of wall, so a kind need not fill the whole space's depth.
  if (wallSlices) {
    ny = Math.min(fy, q);
    shapes.push([1, ny, Math.min(fz, Math.floor(q / ny))]);
  }
  for (const [nx, ny, nz] of shapes) {
    if (out.some((b) => b.nx === nx && b.ny === ny && b.nz === nz)) continue;
    out.push({ item, orientation, size, nx, ny, nz, x: space.x0, y: space.y0, z: nearLeft ? space.z0 : space.z1 - size.w * nz });
  }
  return out;
}

/**
 * Orders blocks best first for `score` in `space`: `volume` by block volume (ties: fewer
 * margins); `fit` by the sorted margins left in the space (smallest first), ties by volume.
 */
export function compareBlocks(score: BlockScore, space: Space): (a: Block, b: Block) => number {
  const margins = (b: Block): number[] => {
    const e = blockExtent(b);
    return [space.x1 - space.x0 - e.dx, space.y1 - space.y0 - e.dy, space.z1 - space.z0 - e.dz].sort((p, q) => p - q);
  };
  const vol = (b: Block): number => b.size.l * b.size.w * b.size.h * blockUnits(b);
  const byMargins = (a: Block, b: Block): number => {
    const ma = margins(a), mb = margins(b);
    for (let i = 0; i < 3; i++) {
      const d = ma[i]! - mb[i]!;
      if (Math.abs(d) > EPS) return d;
    }
    return 0;
  };
  if (score === 'volume') return (a, b) => vol(b) - vol(a) || byMargins(a, b) || a.item - b.item;
  return (a, b) => byMargins(a, b) || vol(b) - vol(a) || a.item - b.item;
}
