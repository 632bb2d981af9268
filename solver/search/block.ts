/**
 * Blocks: nx × nz × ny identical units in the same orientation, built to fill a space, and
 * their ranking. Inside a block every upper unit stands exactly on the unit below it.
 */
import type { Orientation } from '../../domain/pack/plan.js';
import type { Space } from './maximal-space.js';
import { EPS } from './maximal-space.js';
import type { OrientedSize } from './orientation.js';
import type { BlockScore } from './strategy.js';
import { gapLoss, type Reach } from './reach.js';
import type { RoundLayer } from './round-arrangement.js';

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
  /**
   * Candidates only: a block of units nothing may rest on, standing on this block's top face
   * within its footprint (a capped column). Applied as a block of its own after this one.
   */
  cap?: Block;
  /**
   * A staggered block of upright round units: each of its `ny` layers holds the
   * circles of this layer (`nx` = `nz` = 1), stacked exactly on top of each other; the block
   * occupies the layer's envelope. Nothing rests on a staggered block.
   */
  stagger?: RoundLayer;
  /**
   * Candidates only: a general block (general-block.ts) of this shape with its min corner at
   * (x, y, z); `item` … `nz` are its first part's. Applied part by part (generalParts), its
   * parts mirrored across the width when `mirrored`.
   */
  general?: GeneralShape;
  mirrored?: boolean;
  /**
   * A pinned unit (request Vehicle.loaded, pinned.ts): a one-unit block the search starts with and
   * never moves or removes. `instance`: its item's instance in the plan; `order`: its position
   * among the pinned units of its vehicle copy, in request order; `nest`: cm it sinks into the
   * identical pinned unit under it (nesting_height), else 0.
   */
  pinned?: { instance: number; order: number; nest: number };
}

/** A simple block inside a general block, placed relative to the general block's min corner. */
export type GeneralPart = Pick<Block, 'item' | 'orientation' | 'size' | 'nx' | 'ny' | 'nz' | 'x' | 'y' | 'z'>;

/** A general block's shape: its parts relative to its min corner and what it needs. */
export interface GeneralShape {
  dx: number;
  dy: number;
  dz: number;
  /** cm³ of the units. */
  volume: number;
  /** kg of the units. */
  weight: number;
  units: number;
  /** [item index, units] per item, item ascending. */
  need: [number, number][];
  parts: GeneralPart[];
  /** The top is one level rectangle covering the whole footprint. */
  flat: boolean;
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
  if (b.general) return { dx: b.general.dx, dy: b.general.dy, dz: b.general.dz };
  // Nesting units sink into the one below: each further layer adds its pitch.
  const dy = b.size.h + b.size.pitch * (b.ny - 1);
  if (b.stagger) return { dx: b.stagger.dx, dy, dz: b.stagger.dz };
  return { dx: b.size.l * b.nx, dy, dz: b.size.w * b.nz };
}

/** Layers of units of `size` that fit a height of `room` cm in one column (0 when not one). */
export function layersIn(room: number, size: OrientedSize): number {
  return room + EPS < size.h ? 0 : 1 + Math.floor((room - size.h + EPS) / size.pitch);
}

/**
 * The mean centre of a block's units on the floor plane (x, z), cm: the middle of its extent,
 * or for a staggered block the mean of its circle centres (a partial staggered layer is not
 * symmetric in its envelope). Weight moments (axles, centre of gravity) use it.
 */
export function blockCentre(b: Block): { x: number; z: number } {
  if (b.stagger && b.stagger.centres.length > 0) {
    let sx = 0,
      sz = 0;
    for (const c of b.stagger.centres) {
      sx += c.x;
      sz += c.z;
    }
    return { x: b.x + sx / b.stagger.centres.length, z: b.z + sz / b.stagger.centres.length };
  }
  const e = blockExtent(b);
  return { x: b.x + e.dx / 2, z: b.z + e.dz / 2 };
}

/** Units in a block. */
export function blockUnits(b: Block): number {
  if (b.general) return b.general.units;
  return (b.stagger ? b.stagger.centres.length : b.nx * b.nz) * b.ny;
}

/** Volume of a block's units, cm³ (without its cap). */
export function blockVolume(b: Block): number {
  if (b.general) return b.general.volume;
  return b.size.l * b.size.w * b.size.h * blockUnits(b);
}

/** Cap heights for which a lowered column is tried. */
export const MAX_CAP_HEIGHTS = 4;

/** A unit kind and orientation that may cap a column (its units support nothing). */
export interface CapKind {
  item: number;
  orientation: Orientation;
  size: OrientedSize;
  /** Most units of the kind left and allowed by the payload after the column. */
  available: number;
  /** kg per unit. */
  weight: number;
}

/**
 * The capped variants of column `b` in `space`: for the column as built and, for each of the
 * first MAX_CAP_HEIGHTS cap heights that does not fit above it, the column lowered so it does, the largest-volume
 * block of a `caps` kind standing on the column's top inside its footprint (anchored at the
 * column's corner nearer the side wall, like the column). A lowered column runs longer when
 * units and space allow. `columnUnits`: units of the column's kind left; `weightLeft`: payload
 * left for the column and cap, kg (Infinity when overweight is allowed); `unitWeight`: kg per column unit;
 * `layersLeft`: stack levels allowed above the space's level (Infinity: no limit).
 */
export function cappedColumns(
  b: Block,
  space: Space,
  caps: readonly CapKind[],
  columnUnits: number,
  unitWeight: number,
  weightLeft: number,
  layersLeft: number,
  vehicleWidth: number,
): Block[] {
  const out: Block[] = [];
  const heights = [...new Set(caps.map((c) => c.size.h))].slice(0, MAX_CAP_HEIGHTS);
  const nys = [b.ny];
  for (const h of heights) {
    const ny = layersIn(space.y1 - space.y0 - h, b.size);
    if (ny >= 1 && ny < b.ny && !nys.includes(ny)) nys.push(ny);
  }
  const nearLeft = space.z0 <= vehicleWidth - space.z1;
  const available = Math.min(columnUnits, unitWeight > 0 ? Math.floor(weightLeft / unitWeight + 1e-9) : Infinity);
  const fx = Math.floor((space.x1 - space.x0 + EPS) / b.size.l);
  for (const ny of nys) {
    if (ny + 1 > layersLeft) continue;
    // A lowered column may run longer with the units its lost layers held.
    const nx = ny === b.ny ? b.nx : Math.max(b.nx, Math.min(fx, Math.floor(available / (ny * b.nz))));
    const col: Block = { ...b, nx, ny };
    const e = blockExtent(col);
    const room = space.y1 - space.y0 - e.dy + EPS;
    const left = weightLeft - unitWeight * blockUnits(col);
    let best: Block | null = null,
      bestVol = 0;
    for (const c of caps) {
      if (c.size.h > room || c.size.l > e.dx + EPS || c.size.w > e.dz + EPS) continue;
      const nx = Math.floor((e.dx + EPS) / c.size.l),
        nz = Math.floor((e.dz + EPS) / c.size.w);
      const byWeight = c.weight > 0 ? Math.floor(left / c.weight + 1e-9) : Infinity;
      const q = Math.min(c.available, byWeight);
      if (q < 1) continue;
      // Fill the footprint row by row across the width, then along the length.
      const cz = Math.min(nz, q),
        cx = Math.min(nx, Math.floor(q / cz));
      const vol = cx * cz * c.size.l * c.size.w * c.size.h;
      if (vol > bestVol + EPS) {
        bestVol = vol;
        best = {
          item: c.item,
          orientation: c.orientation,
          size: c.size,
          nx: cx,
          ny: 1,
          nz: cz,
          x: col.x,
          y: col.y + e.dy,
          z: nearLeft ? col.z : col.z + e.dz - c.size.w * cz,
        };
      }
    }
    if (best) out.push({ ...col, cap: best });
  }
  return out;
}

/**
 * The blocks of one kind and orientation that fit `space`: a column-first one (as many layers
 * as allowed, then across the width, then along the length) and a width-first one. The z
 * anchor is the side of the space nearer to a vehicle side wall (`vehicleWidth`, cm).
 * With `wallSlices`, every shape: the axes filled in any of the six orders, and columns and
 * layers one unit thick along the other axes (up to 18 shapes, duplicates dropped).
 */
export function blocksFor(
  item: number,
  orientation: Orientation,
  size: OrientedSize,
  space: Space,
  limits: BlockLimits,
  vehicleWidth: number,
  wallSlices = false,
): Block[] {
  const q = Math.min(limits.available, limits.byWeight);
  if (q < 1) return [];
  const fx = Math.floor((space.x1 - space.x0 + EPS) / size.l);
  const fz = Math.floor((space.z1 - space.z0 + EPS) / size.w);
  const fy = Math.min(layersIn(space.y1 - space.y0, size), limits.layers);
  if (fx < 1 || fz < 1 || fy < 1) return [];
  const out: Block[] = [];
  const nearLeft = space.z0 <= vehicleWidth - space.z1;
  // One unit left (jobs of many kinds): every shape is that unit.
  if (q === 1)
    return [
      {
        item,
        orientation,
        size,
        nx: 1,
        ny: 1,
        nz: 1,
        x: space.x0,
        y: space.y0,
        z: nearLeft ? space.z0 : space.z1 - size.w,
      },
    ];
  const shapes: [number, number, number][] = [];
  const fits: [number, number, number] = [fx, fy, fz];
  // Axes filled in order, as far as the space and the units allow; axes after the first `k`
  // stay one unit thick. Column first (y, z, then x) and width first (z, y, x) always; the
  // other orders, and columns and layers (k < 3) with `wallSlices`.
  const orders: [number, number, number][] = wallSlices
    ? [
        [1, 2, 0],
        [2, 1, 0],
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [2, 0, 1],
      ]
    : [
        [1, 2, 0],
        [2, 1, 0],
      ];
  for (const order of orders) {
    for (let k = wallSlices ? 1 : 3; k <= 3; k++) {
      const n: [number, number, number] = [1, 1, 1];
      for (let a = 0; a < k; a++) {
        const axis = order[a]!;
        const rest = n[0] * n[1] * n[2];
        n[axis] = Math.max(1, Math.min(fits[axis]!, Math.floor(q / rest)));
      }
      shapes.push(n);
    }
  }
  for (const [nx, ny, nz] of shapes) {
    if (out.some((b) => b.nx === nx && b.ny === ny && b.nz === nz)) continue;
    out.push({
      item,
      orientation,
      size,
      nx,
      ny,
      nz,
      x: space.x0,
      y: space.y0,
      z: nearLeft ? space.z0 : space.z1 - size.w * nz,
    });
  }
  return out;
}

/**
 * The volume by which rankBlocks orders `b` (at the bottom of `space`), cm³: the block's volume,
 * cap included; for `fitness` (with `reach`) less the gaps beside, behind and above the block that
 * no units can fill. Never more than the block's volume.
 */
export function rankVolume(b: Block, score: BlockScore, space: Space, reach?: Reach): number {
  let dy = blockExtent(b).dy,
    vol = blockVolume(b);
  if (b.cap) {
    dy += b.cap.size.h * b.cap.ny;
    vol += blockVolume(b.cap);
  }
  // Fitness: the volume less the gaps beside, behind and above the block no units can fill.
  if (score === 'fitness' && reach) {
    const { dx, dz } = blockExtent(b);
    const m0 = space.x1 - space.x0 - dx,
      m1 = space.y1 - space.y0 - dy,
      m2 = space.z1 - space.z0 - dz;
    vol -= gapLoss(reach.x, m0) * dy * dz + gapLoss(reach.y, m1) * dx * dz + gapLoss(reach.z, m2) * dx * dy;
  }
  return vol;
}

/**
 * Orders `blocks` (all at the bottom of `space`) best first for `score`: `volume` by block
 * volume, cap included (ties: fewer margins); `fit` by the sorted margins left in the space
 * (smallest first), ties by volume; last ties by item index, then list order (as a stable sort).
 * Blocks for which `wasteful(b)` is true (a unit that supports nothing standing where other units
 * could have stood on it) come after all others. With `limit`, only the best `limit` blocks are
 * returned (selected in one pass: the lists are long for jobs with many kinds). Returns a new array.
 */
export function rankBlocks(
  blocks: readonly Block[],
  score: BlockScore,
  space: Space,
  wasteful: (b: Block) => boolean,
  limit = Infinity,
  reach?: Reach,
): Block[] {
  const sx = space.x1 - space.x0,
    sy = space.y1 - space.y0,
    sz = space.z1 - space.z0;
  const keyed = blocks.map((b, n) => {
    const dy = blockExtent(b).dy + (b.cap ? b.cap.size.h * b.cap.ny : 0);
    const { dx, dz } = blockExtent(b);
    const vol = rankVolume(b, score, space, reach);
    let m0 = sx - dx,
      m1 = sy - dy,
      m2 = sz - dz,
      t: number;
    if (m0 > m1) {
      t = m0;
      m0 = m1;
      m1 = t;
    }
    if (m1 > m2) {
      t = m1;
      m1 = m2;
      m2 = t;
    }
    if (m0 > m1) {
      t = m0;
      m0 = m1;
      m1 = t;
    }
    return { b, n, w: wasteful(b) ? 1 : 0, vol, m0, m1, m2 };
  });
  type K = (typeof keyed)[number];
  const byMargins = (a: K, b: K): number => {
    let d = a.m0 - b.m0;
    if (Math.abs(d) > EPS) return d;
    d = a.m1 - b.m1;
    if (Math.abs(d) > EPS) return d;
    d = a.m2 - b.m2;
    return Math.abs(d) > EPS ? d : 0;
  };
  const cmp =
    score !== 'fit'
      ? (a: K, b: K): number => a.w - b.w || b.vol - a.vol || byMargins(a, b) || a.b.item - b.b.item || a.n - b.n
      : (a: K, b: K): number => a.w - b.w || byMargins(a, b) || b.vol - a.vol || a.b.item - b.b.item || a.n - b.n;
  if (limit >= keyed.length / 4)
    return keyed
      .sort(cmp)
      .slice(0, limit)
      .map((k) => k.b);
  const top: K[] = [];
  for (const k of keyed) {
    if (top.length >= limit && cmp(k, top[top.length - 1]!) >= 0) continue;
    let i = top.length;
    while (i > 0 && cmp(k, top[i - 1]!) < 0) i--;
    top.splice(i, 0, k);
    if (top.length > limit) top.pop();
  }
  return top.map((k) => k.b);
}
