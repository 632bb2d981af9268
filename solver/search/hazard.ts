/**
 * Hazardous items in the search (spec Item.hazardous: "kept low and separated from other
 * hazardous items"): a hazardous unit stands on the floor, one layer high, and its footprint
 * keeps HAZARD_CLEARANCE_CM along the floor from every unit of another hazardous item. Units of
 * the same hazardous item may stand together. Non-hazardous units may stand on them.
 */
import { blockExtent, type Block } from './block.js';
import { EPS } from './maximal-space.js';

/**
 * Floor distance kept between units of different hazardous items, cm (our choice: the spec
 * gives no figure; half a metre leaves room to reach and inspect each).
 */
export const HAZARD_CLEARANCE_CM = 50;

/** A placed hazardous footprint, cm. */
export interface HazardFootprint {
  item: number;
  x0: number;
  x1: number;
  z0: number;
  z1: number;
}

/** The floor footprint of a block, cm. */
export function footprint(b: Block): HazardFootprint {
  const e = blockExtent(b);
  return { item: b.item, x0: b.x, x1: b.x + e.dx, z0: b.z, z1: b.z + e.dz };
}

/**
 * True when a block of hazardous item `b.item` keeps the clearance from every placed footprint
 * of another hazardous item: apart by at least HAZARD_CLEARANCE_CM along x or along z.
 */
export function keepsClearance(b: Block, placed: readonly HazardFootprint[]): boolean {
  const f = footprint(b);
  return placed.every(
    (o) =>
      o.item === b.item ||
      Math.max(o.x0 - f.x1, f.x0 - o.x1) >= HAZARD_CLEARANCE_CM - EPS ||
      Math.max(o.z0 - f.z1, f.z0 - o.z1) >= HAZARD_CLEARANCE_CM - EPS,
  );
}
