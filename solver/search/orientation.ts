/**
 * Placed sizes of an item in one orientation (types.ts Orientation: the letters name which of
 * the item's defined length/width/height lies along placed x, z and y).
 */
import type { ItemModel, Orientation } from '../../domain/pack/plan.js';

/**
 * Placed size of one unit, cm: `l` along x (length), `w` along z (width), `h` along y (height);
 * `pitch`: the height each further unit of a column adds (h, or h − nesting_height when the
 * item nests and stands with its defined height vertical).
 */
export interface OrientedSize {
  l: number;
  w: number;
  h: number;
  pitch: number;
}

/** Size of `item` placed in orientation `o`, cm. */
export function orientedSize(
  item: Pick<ItemModel, 'length' | 'width' | 'height'> & { nestingHeight?: number },
  o: Orientation,
): OrientedSize {
  const dim = (c: string): number => (c === 'l' ? item.length : c === 'w' ? item.width : item.height);
  const h = dim(o[2]!);
  const nest = o[2] === 'h' ? (item.nestingHeight ?? 0) : 0;
  return { l: dim(o[0]!), w: dim(o[1]!), h, pitch: h - nest };
}

/**
 * The allowed orientations of `item` with distinct placed sizes (a cube keeps one), in the
 * item's preference order.
 */
export function distinctOrientations(item: ItemModel): { orientation: Orientation; size: OrientedSize }[] {
  const out: { orientation: Orientation; size: OrientedSize }[] = [];
  for (const o of item.orientations) {
    const size = orientedSize(item, o);
    if (
      !out.some((e) => e.size.l === size.l && e.size.w === size.w && e.size.h === size.h && e.size.pitch === size.pitch)
    ) {
      out.push({ orientation: o, size });
    }
  }
  return out;
}
