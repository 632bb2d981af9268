/**
 * General blocks (after the idea of Fanslau & Bortfeldt's general blocks; our own rules): units
 * of several kinds or orientations joined into one cuboid that is at least MIN_FILL full, so
 * that a construction can take, in one choice, a group of different units that fit each other
 * well. Jobs with many kinds and few units of each (BR10–15) have almost only one-unit simple
 * blocks; general blocks give them level multi-unit blocks. Jobs of few kinds (BR1: three) fill
 * the gaps their simple blocks leave with blocks of two kinds joined (JobContext.generalBlocks).
 *
 * Shapes are built once per job and vehicle size from small simple blocks (up to BASE_UNITS
 * units) by joining two shapes:
 * - along the length (x) or the width (z): both stand on the same floor and have the same
 *   height, so the joined top is level;
 * - along the height (y): the upper shape stands on the lower one's top, which must be flat
 *   (one level rectangle over the whole footprint), so every upper unit is fully supported.
 * Only units that need nothing of the search's bookkeeping besides room, count and weight take
 * part: boxes, stackable, no max_stack_weight, no nesting, not hazardous (see `joinable`).
 * All sizes cm, weights kg.
 */
import type { ItemModel } from '../../domain/pack/plan.js';
import type { Block, GeneralPart, GeneralShape } from './block.js';
import type { JobContext } from './job-context.js';
import { EPS, type Space } from './maximal-space.js';

/** The shapes are declared beside Block (a candidate block may carry one). */
export type { GeneralPart, GeneralShape } from './block.js';

/** Least share of a general block's bounding box its units fill. */
export const MIN_FILL = 0.98;
/** Most units of one kind and orientation in a simple block the joining starts from. */
const BASE_UNITS = 4;
/** Most shapes kept per job and vehicle size (the largest by volume). */
const MAX_SHAPES = 2_000;
/** Most pairs examined while building the shapes (bounds the set-up time of big jobs). */
const MAX_PAIRS = 2_000_000;
/** Rounds of joining: shapes of up to 2^ROUNDS base blocks. */
const ROUNDS = 3;

/**
 * True when units of `item` may be part of a general block: a stackable box with no
 * max_stack_weight, no nesting and not hazardous.
 */
export function joinable(item: ItemModel): boolean {
  return (
    item.shape === 'box' && item.stackable && item.maxStackWeight === 0 && item.nestingHeight === 0 && !item.hazardous
  );
}

function addNeed(a: readonly [number, number][], b: readonly [number, number][]): [number, number][] {
  const m = new Map<number, number>(a);
  for (const [i, n] of b) m.set(i, (m.get(i) ?? 0) + n);
  return [...m.entries()].sort((p, q) => p[0] - q[0]);
}

function shift(parts: readonly GeneralPart[], x: number, y: number, z: number): GeneralPart[] {
  return parts.map((p) => ({ ...p, x: p.x + x, y: p.y + y, z: p.z + z }));
}

/** `a` and `b` joined along `axis` (b after a), or null when the rules or MIN_FILL forbid it. */
function join(a: GeneralShape, b: GeneralShape, axis: 'x' | 'y' | 'z'): GeneralShape | null {
  let dx: number, dy: number, dz: number, flat: boolean, parts: GeneralPart[];
  if (axis === 'y') {
    if (!a.flat || b.dx > a.dx + EPS || b.dz > a.dz + EPS) return null;
    dx = a.dx;
    dz = a.dz;
    dy = a.dy + b.dy;
    flat = b.flat && b.dx >= a.dx - EPS && b.dz >= a.dz - EPS;
    parts = a.parts.concat(shift(b.parts, 0, a.dy, 0));
  } else {
    if (Math.abs(a.dy - b.dy) > EPS) return null;
    dy = a.dy;
    if (axis === 'x') {
      dx = a.dx + b.dx;
      dz = Math.max(a.dz, b.dz);
      flat = a.flat && b.flat && Math.abs(a.dz - b.dz) <= EPS;
      parts = a.parts.concat(shift(b.parts, a.dx, 0, 0));
    } else {
      dz = a.dz + b.dz;
      dx = Math.max(a.dx, b.dx);
      flat = a.flat && b.flat && Math.abs(a.dx - b.dx) <= EPS;
      parts = a.parts.concat(shift(b.parts, 0, 0, a.dz));
    }
  }
  const volume = a.volume + b.volume;
  if (volume < MIN_FILL * dx * dy * dz) return null;
  return {
    dx,
    dy,
    dz,
    volume,
    weight: a.weight + b.weight,
    units: a.units + b.units,
    need: addNeed(a.need, b.need),
    parts,
    flat,
  };
}

function key(s: GeneralShape): string {
  return `${s.dx},${s.dy},${s.dz}|${s.need.map(([i, n]) => `${i}:${n}`).join(',')}`;
}

/**
 * The general blocks of `ctx` that fit a vehicle of `length` × `height` × `width` cm, largest
 * volume first: each joins at least two simple blocks (of different kinds or orientations, or
 * side by side in a way a simple block is not), needs no more units of an item than the job
 * has, and fills at least MIN_FILL of its bounding box. Empty when no two small simple blocks
 * join that well: for example with no joinable kind, or with one joinable kind of one orientation
 * and at most BASE_UNITS units (with more, a row of 4 + 1 units is already a joined shape).
 */
export function generalShapes(ctx: JobContext, length: number, height: number, width: number): GeneralShape[] {
  const base: GeneralShape[] = [];
  for (const kind of ctx.kinds) {
    const item = ctx.model.items[kind.index]!;
    if (!joinable(item) || item.quantity < 1) continue;
    const most = Math.min(item.quantity, BASE_UNITS);
    for (const { orientation, size } of kind.orientations) {
      for (let nx = 1; nx <= most; nx++) {
        for (let ny = 1; nx * ny <= most; ny++) {
          for (let nz = 1; nx * ny * nz <= most; nz++) {
            const dx = size.l * nx,
              dy = size.h * ny,
              dz = size.w * nz;
            if (dx > length + EPS || dy > height + EPS || dz > width + EPS) continue;
            const units = nx * ny * nz;
            base.push({
              dx,
              dy,
              dz,
              volume: kind.volume * units,
              weight: kind.weight * units,
              units,
              need: [[kind.index, units]],
              parts: [{ item: kind.index, orientation, size, nx, ny, nz, x: 0, y: 0, z: 0 }],
              flat: true,
            });
          }
        }
      }
    }
  }
  const quantity = ctx.model.items.map((it) => it.quantity);
  /** The job has the units a joined shape needs (its `need` already adds up both parts). */
  const enough = (s: GeneralShape): boolean => s.need.every(([i, n]) => n <= quantity[i]!);
  const seen = new Set(base.map(key));
  const general: GeneralShape[] = [];
  // Shapes by height (joins along x and z need equal heights), and all of them (joins along y).
  const byHeight = new Map<string, GeneralShape[]>();
  const all: GeneralShape[] = [];
  const keep = (s: GeneralShape): void => {
    all.push(s);
    const h = s.dy.toFixed(6);
    const list = byHeight.get(h);
    if (list) list.push(s);
    else byHeight.set(h, [s]);
  };
  base.forEach(keep);
  const fits = (s: GeneralShape): boolean => s.dx <= length + EPS && s.dy <= height + EPS && s.dz <= width + EPS;
  const consider = (p: GeneralShape, q: GeneralShape, axis: 'x' | 'y' | 'z', fresh: GeneralShape[]): void => {
    const s = join(p, q, axis);
    if (!s || !fits(s) || !enough(s)) return;
    const k = key(s);
    if (seen.has(k)) return;
    seen.add(k);
    fresh.push(s);
  };
  let frontier = base,
    pairs = 0;
  for (let round = 0; round < ROUNDS && frontier.length > 0 && pairs < MAX_PAIRS; round++) {
    const fresh: GeneralShape[] = [];
    for (const b of frontier) {
      for (const a of byHeight.get(b.dy.toFixed(6)) ?? []) {
        pairs++;
        // Side by side: the joined box is at least MIN_FILL full only when the other sides nearly match.
        const vol = a.volume + b.volume;
        if (vol >= MIN_FILL * (a.dx + b.dx) * b.dy * Math.max(a.dz, b.dz)) {
          consider(a, b, 'x', fresh);
          consider(b, a, 'x', fresh);
        }
        if (vol >= MIN_FILL * (a.dz + b.dz) * b.dy * Math.max(a.dx, b.dx)) {
          consider(a, b, 'z', fresh);
          consider(b, a, 'z', fresh);
        }
      }
      for (const a of all) {
        pairs++;
        // One on the other: the footprints nearly match.
        const vol = a.volume + b.volume;
        if (vol < MIN_FILL * Math.max(a.dx, b.dx) * Math.max(a.dz, b.dz) * (a.dy + b.dy)) continue;
        consider(a, b, 'y', fresh);
        consider(b, a, 'y', fresh);
      }
      if (pairs > MAX_PAIRS || general.length + fresh.length > 4 * MAX_SHAPES) break;
    }
    general.push(...fresh);
    fresh.forEach(keep);
    frontier = fresh;
  }
  return general.sort((a, b) => b.volume - a.volume).slice(0, MAX_SHAPES);
}

/** General shapes per job context and vehicle size (built once per search thread). */
const cache = new WeakMap<JobContext, Map<string, GeneralShape[]>>();

/** `generalShapes`, cached per job context and vehicle size. */
export function generalShapesFor(ctx: JobContext, length: number, height: number, width: number): GeneralShape[] {
  let byVehicle = cache.get(ctx);
  if (!byVehicle) cache.set(ctx, (byVehicle = new Map<string, GeneralShape[]>()));
  const k = `${length}x${height}x${width}`;
  let shapes = byVehicle.get(k);
  if (!shapes) byVehicle.set(k, (shapes = generalShapes(ctx, length, height, width)));
  return shapes;
}

/**
 * General blocks of `shapes` (volume descending, as generalShapes returns them) for `space` (at
 * its bottom, on the side nearer to a vehicle side wall, `vehicleWidth`), largest first, at most
 * `limit`: those that fit the space, with units of each item left (`remaining`) and weighing at
 * most `weightRoom` kg. A block put at the right wall has its parts mirrored across the width
 * (`generalParts`), so they stay flush with that wall. With `minVolume` (cm³) the scan ends at the
 * first shape of less volume: a greedy step wants only blocks that can beat one already found,
 * and a general block's ranking volume is at most its volume (block.ts rankVolume).
 */
export function generalBlocksFor(
  shapes: readonly GeneralShape[],
  space: Space,
  remaining: readonly number[],
  weightRoom: number,
  vehicleWidth: number,
  limit: number,
  minVolume = -Infinity,
): Block[] {
  const out: Block[] = [];
  const sx = space.x1 - space.x0 + EPS,
    sy = space.y1 - space.y0 + EPS,
    sz = space.z1 - space.z0 + EPS;
  const nearLeft = space.z0 <= vehicleWidth - space.z1;
  const room = weightRoom + 1e-9;
  // A shape's units fill at most its box, which must fit the space: the shapes larger than the
  // space's volume come first (volume descending) and are skipped at once (binary search).
  const spaceVolume = sx * sy * sz;
  let lo = 0,
    hi = shapes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (shapes[mid]!.volume > spaceVolume) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < shapes.length && out.length < limit; k++) {
    const s = shapes[k]!;
    if (s.volume < minVolume) break;
    if (s.dx > sx || s.dy > sy || s.dz > sz || s.weight > room) continue;
    let left = true;
    for (let j = 0; j < s.need.length; j++) {
      const e = s.need[j]!;
      if (e[1] > (remaining[e[0]] ?? 0)) {
        left = false;
        break;
      }
    }
    if (!left) continue;
    const first = s.parts[0]!;
    out.push({
      item: first.item,
      orientation: first.orientation,
      size: first.size,
      nx: first.nx,
      ny: first.ny,
      nz: first.nz,
      x: space.x0,
      y: space.y0,
      z: nearLeft ? space.z0 : space.z1 - s.dz,
      general: s,
      mirrored: !nearLeft,
    });
  }
  return out;
}

/** The parts of general block `b` as simple blocks at their absolute places (mirrored across the width when `b.mirrored`). */
export function generalParts(b: Block): Block[] {
  const s = b.general!;
  return s.parts.map((p) => ({
    item: p.item,
    orientation: p.orientation,
    size: p.size,
    nx: p.nx,
    ny: p.ny,
    nz: p.nz,
    x: b.x + p.x,
    y: b.y + p.y,
    z: b.mirrored ? b.z + s.dz - p.z - p.size.w * p.nz : b.z + p.z,
  }));
}
