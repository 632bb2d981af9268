/**
 * Brings a loaded vehicle within its axle maxima and centre-of-gravity ranges (enforce_axle),
 * after its loading: first by moving the whole load along the length and across the width
 * within the free room (which keeps every support and loading step), choosing the smallest move
 * that satisfies every limit; when no move does, by taking out the block, among those nothing
 * rests on, whose removal leaves the smallest excess, and trying again. Units taken out go back
 * to the units left (the next vehicle may take them) and their items are marked axle-blocked.
 * Vehicles with blocked areas are not moved (a move could put a unit on one).
 */
import { axleLines, axleLoad, type AxleLine } from './axle-load.js';
import { blockCentre, blockExtent, blockUnits, type Block } from './block.js';
import type { JobContext } from './job-context.js';
import { EPS } from './maximal-space.js';
import type { LoadState, VehicleLoad } from './load-state.js';

/** A closed interval, empty when lo > hi. */
interface Interval {
  lo: number;
  hi: number;
}

const intersect = (a: Interval, b: Interval): Interval => ({ lo: Math.max(a.lo, b.lo), hi: Math.min(a.hi, b.hi) });
const nearestToZero = (i: Interval): number => Math.min(Math.max(0, i.lo), i.hi);

/** Figures of a load the limits depend on: kg and kg·cm. */
interface Mass {
  w: number;
  mx: number;
  mz: number;
}

/** Moves of the whole load (cm along x, z) allowed by the limits; empty intervals when none. */
function allowedMoves(
  load: VehicleLoad,
  lines: readonly AxleLine[],
  mass: Mass,
  blocks: readonly Block[],
  movable: boolean,
): { dx: Interval; dz: Interval } {
  const v = load.vehicle;
  const axles = v.axles!;
  let dx: Interval = { lo: 0, hi: 0 };
  let dz: Interval = { lo: 0, hi: 0 };
  if (movable && v.blockedAreas.length === 0 && blocks.length > 0) {
    const ext = blocks.map((b) => ({ b, e: blockExtent(b) }));
    dx = { lo: -Math.min(...ext.map(({ b }) => b.x)), hi: v.length - Math.max(...ext.map(({ b, e }) => b.x + e.dx)) };
    dz = { lo: -Math.min(...ext.map(({ b }) => b.z)), hi: v.width - Math.max(...ext.map(({ b, e }) => b.z + e.dz)) };
  }
  if (mass.w <= 0) return { dx: { lo: 0, hi: 0 }, dz: { lo: 0, hi: 0 } };
  for (const line of lines) {
    if (line.max <= 0) continue;
    // load(dx) = load(0) + perKgCm · w · dx ≤ max
    const at0 = axleLoad(line, mass.w, mass.mx);
    const slope = line.perKgCm * mass.w;
    const room = line.max * (1 + 1e-9) - at0;
    if (Math.abs(slope) < 1e-12) {
      if (room < 0) dx = { lo: 1, hi: 0 };
    } else if (slope > 0) dx = intersect(dx, { lo: -Infinity, hi: room / slope });
    else dx = intersect(dx, { lo: room / slope, hi: Infinity });
  }
  const cx = mass.mx / mass.w,
    cz = mass.mz / mass.w;
  if (axles.cogRangeX !== null)
    dx = intersect(dx, {
      lo: v.length / 2 - axles.cogRangeX - cx - EPS,
      hi: v.length / 2 + axles.cogRangeX - cx + EPS,
    });
  if (axles.cogRangeY !== null)
    dz = intersect(dz, { lo: v.width / 2 - axles.cogRangeY - cz - EPS, hi: v.width / 2 + axles.cogRangeY - cz + EPS });
  return { dx, dz };
}

/** How far `mass` is from the limits unmoved: relative axle excess plus CoG excess per cm of range. */
function excess(load: VehicleLoad, lines: readonly AxleLine[], mass: Mass): number {
  if (mass.w <= 0) return 0;
  const v = load.vehicle;
  const axles = v.axles!;
  let out = 0;
  for (const line of lines) if (line.max > 0) out += Math.max(0, axleLoad(line, mass.w, mass.mx) - line.max) / line.max;
  if (axles.cogRangeX !== null)
    out += Math.max(0, Math.abs(mass.mx / mass.w - v.length / 2) - axles.cogRangeX) / v.length;
  if (axles.cogRangeY !== null)
    out += Math.max(0, Math.abs(mass.mz / mass.w - v.width / 2) - axles.cogRangeY) / v.width;
  return out;
}

function massOf(ctx: JobContext, b: Block): Mass {
  const w = ctx.kinds[b.item]!.weight * blockUnits(b);
  const c = blockCentre(b);
  return { w, mx: w * c.x, mz: w * c.z };
}

/**
 * Blocks nothing rests on (their top face touches no other block's bottom over an area; blocks
 * standing on the second deck at `deckHeight` cm rest on the deck).
 */
function freeBlocks(blocks: readonly Block[], deckHeight: number | null): Block[] {
  return blocks.filter((b) => {
    const e = blockExtent(b);
    const top = b.y + e.dy;
    return !blocks.some((o) => {
      if (o === b || Math.abs(o.y - top) > EPS) return false;
      if (deckHeight !== null && Math.abs(o.y - deckHeight) <= EPS) return false;
      const f = blockExtent(o);
      return (
        Math.min(b.x + e.dx, o.x + f.dx) - Math.max(b.x, o.x) > EPS &&
        Math.min(b.z + e.dz, o.z + f.dz) - Math.max(b.z, o.z) > EPS
      );
    });
  });
}

/**
 * Moves or unloads `load` (mutated, with `state`) until its axles and centre of gravity are
 * within the limits of its vehicle's axle model; a vehicle without limits is left as it is.
 * A load with `pinned` blocks (pinned.ts) is never moved and its pinned blocks never unloaded:
 * only other blocks are taken out, and when those are not enough the load stays as it is.
 */
export function balanceVehicle(
  ctx: JobContext,
  load: VehicleLoad,
  state: LoadState,
  pinned?: ReadonlySet<Block>,
): void {
  const movable = !pinned || pinned.size === 0;
  const axles = load.vehicle.axles;
  if (!axles) return;
  const lines = axleLines(axles);
  if (!lines.some((l) => l.max > 0) && axles.cogRangeX === null && axles.cogRangeY === null) return;
  for (;;) {
    const mass = { w: load.weight, mx: load.momentX, mz: load.momentZ };
    if (load.blocks.length === 0) return;
    const { dx, dz } = allowedMoves(load, lines, mass, load.blocks, movable);
    if (dx.lo <= dx.hi && dz.lo <= dz.hi) {
      const mx = nearestToZero(dx),
        mz = nearestToZero(dz);
      if (mx !== 0 || mz !== 0) {
        load.blocks = load.blocks.map((b) => ({ ...b, x: b.x + mx, z: b.z + mz }));
        load.momentX += load.weight * mx;
        load.momentZ += load.weight * mz;
        load.minX += mx;
        load.maxX += mx;
      }
      return;
    }
    let best: { b: Block; left: number; w: number } | null = null;
    for (const b of freeBlocks(load.blocks, load.vehicle.auxDeck?.height ?? null)) {
      if (pinned?.has(b)) continue;
      const m = massOf(ctx, b);
      const left = excess(load, lines, { w: mass.w - m.w, mx: mass.mx - m.mx, mz: mass.mz - m.mz });
      if (!best || left < best.left - 1e-12 || (Math.abs(left - best.left) <= 1e-12 && m.w < best.w))
        best = { b, left, w: m.w };
    }
    if (!best) return;
    const m = massOf(ctx, best.b);
    const kind = ctx.kinds[best.b.item]!;
    load.blocks = load.blocks.filter((b) => b !== best.b);
    load.weight -= m.w;
    load.volume -= kind.volume * blockUnits(best.b);
    load.momentX -= m.mx;
    load.momentZ -= m.mz;
    load.minX = Math.min(Infinity, ...load.blocks.map((b) => b.x));
    load.maxX = Math.max(-Infinity, ...load.blocks.map((b) => b.x + blockExtent(b).dx));
    state.remaining[best.b.item] = (state.remaining[best.b.item] ?? 0) + blockUnits(best.b);
    state.axleBlocked[best.b.item] = true;
  }
}
