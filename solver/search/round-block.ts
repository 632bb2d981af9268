/**
 * Blocks of upright round units: in a space, the arrangement holding the most
 * units on the space's footprint (round-arrangement.ts bestRoundLayer) is built. The square grid
 * is the ordinary block (block.ts blocksFor); a staggered arrangement gives blocks whose layers
 * are stacked exactly on top of each other, each circle on the identical circle below it (a drum
 * column), under the same limits as square blocks (units left, payload, stacking, load bearing).
 */
import type { Orientation } from '../../domain/pack/plan.js';
import { blocksFor, layersIn, type Block, type BlockLimits } from './block.js';
import type { Space } from './maximal-space.js';
import type { OrientedSize } from './orientation.js';
import { bestRoundLayer, firstCentres } from './round-arrangement.js';

/**
 * The blocks of upright round units of `item` (placed size `size`: l = w = 2r, cm) that fit
 * `space`: the square blocks of blocksFor when the square grid holds the most units on the
 * space's footprint (or ties with a smaller envelope), else staggered blocks of the winning
 * arrangement, one with as many layers as allowed first and one with the fullest layer first
 * (duplicates dropped). The z anchor is the side of the space nearer a side wall of a vehicle
 * `vehicleWidth` cm wide, as for square blocks. Empty when nothing fits or the limits allow none.
 */
export function roundBlocksFor(
  item: number,
  orientation: Orientation,
  size: OrientedSize,
  space: Space,
  limits: BlockLimits,
  vehicleWidth: number,
  wallSlices = false,
): Block[] {
  const r = size.l / 2;
  const best = bestRoundLayer(r, space.x1 - space.x0, space.z1 - space.z0);
  if (!best) return [];
  if (best.arrangement === 'square') return blocksFor(item, orientation, size, space, limits, vehicleWidth, wallSlices);
  const q = Math.min(limits.available, limits.byWeight);
  const fy = Math.min(layersIn(space.y1 - space.y0, size), limits.layers);
  if (q < 1 || fy < 1) return [];
  const full = best.centres.length;
  const shapes: [number, number][] = [];
  // Column first: as many layers as allowed, then the layer as full as the units allow.
  const ny = Math.min(fy, q);
  shapes.push([Math.min(full, Math.floor(q / ny)), ny]);
  // Layer first: the fullest layer, then as many layers as the units allow.
  const per = Math.min(full, q);
  shapes.push([per, Math.max(1, Math.min(fy, Math.floor(q / per)))]);
  const nearLeft = space.z0 <= vehicleWidth - space.z1;
  const out: Block[] = [];
  for (const [n, layers] of shapes) {
    if (n < 1 || out.some((b) => b.stagger!.centres.length === n && b.ny === layers)) continue;
    const stagger = firstCentres(best, n);
    out.push({
      item,
      orientation,
      size,
      nx: 1,
      ny: layers,
      nz: 1,
      stagger,
      x: space.x0,
      y: space.y0,
      z: nearLeft ? space.z0 : space.z1 - stagger.dz,
    });
  }
  return out;
}
