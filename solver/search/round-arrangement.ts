/**
 * Arrangements of upright round units (drums, upright cylinders) on a rectangular footprint
 *. A unit standing upright occupies the circle of radius r centred in its
 * 2r × 2r bounding square. Three arrangements of one layer are compared:
 * - `square`: the square grid, ⌊L / 2r⌋ × ⌊W / 2r⌋ (the ordinary block of bounding squares);
 * - `lines`: lines along the length (x) at a pitch of r·√3 across the width (z), every second
 *   line shifted by r along the length (so it may hold one unit fewer);
 * - `rows`: rows across the width at a pitch of r·√3 along the length, every second row shifted
 *   by r across the width.
 * Neighbouring circles of a staggered arrangement touch (centre distance 2r), never overlap.
 * Lengths in cm; x along the vehicle's length, z across its width.
 */
import type { ItemModel, Orientation } from '../../domain/pack/plan.js';
import { heightVertical, isRoundShape } from '../../domain/pack/round-shape.js';
import { EPS } from './maximal-space.js';

/** The arrangements of one layer of upright round units. */
export type RoundArrangement = 'square' | 'lines' | 'rows';

/** A circle centre relative to an arrangement's min corner (x along the length, z across), cm. */
export interface CircleCentre {
  x: number;
  z: number;
}

/**
 * One layer of upright round units: the circle centres (relative to the envelope's min corner,
 * in fill order: front first, then across the width) and the envelope, the bounding rectangle
 * of the circles, cm.
 */
export interface RoundLayer {
  arrangement: RoundArrangement;
  radius: number;
  centres: readonly CircleCentre[];
  dx: number;
  dz: number;
}

/** True when `item` placed in orientation `o` is an upright round unit (its height vertical). */
export function uprightRound(item: Pick<ItemModel, 'shape'>, o: Orientation): boolean {
  return isRoundShape(item.shape) && heightVertical(o);
}

/**
 * Footprint area over which a unit of `item` in orientation `o` (placed size l × w, cm) presses
 * on what it stands on, cm²: the circle πr² for an upright round unit (r = l / 2), else l · w.
 */
export function bearingArea(item: Pick<ItemModel, 'shape'>, o: Orientation, l: number, w: number): number {
  return uprightRound(item, o) ? (Math.PI * l * l) / 4 : l * w;
}

/** Units along a line of `length` cm of circles of radius `r` starting `offset` cm in. */
function perLine(length: number, r: number, offset: number): number {
  return Math.max(0, Math.floor((length - offset + EPS) / (2 * r)));
}

/** Lines of pitch r·√3 that fit `width` cm (the first and last lines' circles inside). */
function lineCount(width: number, r: number): number {
  if (width + EPS < 2 * r) return 0;
  return 1 + Math.floor((width - 2 * r + EPS) / (r * Math.sqrt(3)));
}

/**
 * The staggered layer with lines along `along` (cm) staggered across `across` (cm), centres as
 * (a, c) = (position along, position across); every line is full or one shorter.
 */
function staggered(r: number, along: number, across: number): { a: number; c: number }[] {
  const lines = lineCount(across, r);
  const out: { a: number; c: number }[] = [];
  const full = perLine(along, r, 0),
    shifted = perLine(along, r, r);
  if (full < 1) return out;
  for (let k = 0; k < lines; k++) {
    const shift = k % 2 === 1 ? r : 0;
    const n = k % 2 === 1 ? shifted : full;
    for (let j = 0; j < n; j++) out.push({ a: r + shift + 2 * r * j, c: r + k * r * Math.sqrt(3) });
  }
  return out;
}

/** Orders centres front first (x), then across the width (z), and measures their envelope. */
function layer(arrangement: RoundArrangement, r: number, centres: CircleCentre[]): RoundLayer {
  centres.sort((p, q) => p.x - q.x || p.z - q.z);
  return { arrangement, radius: r, centres, ...envelope(centres, r) };
}

/** The bounding rectangle of circles of radius `r` at `centres` (min corner at 0, 0), cm. */
export function envelope(centres: readonly CircleCentre[], r: number): { dx: number; dz: number } {
  let dx = 0,
    dz = 0;
  for (const c of centres) {
    dx = Math.max(dx, c.x + r);
    dz = Math.max(dz, c.z + r);
  }
  return { dx, dz };
}

/**
 * The three layers of circles of radius `r` (cm) inside a footprint of `length` × `width` cm:
 * square grid, lines along the length, rows across the width (each possibly empty).
 */
export function roundLayers(r: number, length: number, width: number): RoundLayer[] {
  const nx = perLine(length, r, 0),
    nz = perLine(width, r, 0);
  const square: CircleCentre[] = [];
  for (let i = 0; i < nx; i++) for (let k = 0; k < nz; k++) square.push({ x: r + 2 * r * i, z: r + 2 * r * k });
  const lines = staggered(r, length, width).map((p) => ({ x: p.a, z: p.c }));
  const rows = staggered(r, width, length).map((p) => ({ x: p.c, z: p.a }));
  return [layer('square', r, square), layer('lines', r, lines), layer('rows', r, rows)];
}

/**
 * The layer holding the most circles of radius `r` in `length` × `width` cm (ties: the smaller
 * envelope area, then square before lines before rows); null when not one circle fits.
 */
export function bestRoundLayer(r: number, length: number, width: number): RoundLayer | null {
  const key = `${r}|${length}|${width}`;
  const hit = bestLayers.get(key);
  if (hit !== undefined) return hit;
  const best = bestOf(r, length, width);
  // The same footprints come back from space to space and beam node to beam node.
  if (bestLayers.size >= MAX_REMEMBERED) bestLayers.clear();
  bestLayers.set(key, best);
  return best;
}

/** Best layers already worked out, by radius and footprint (layers are never mutated). */
const bestLayers = new Map<string, RoundLayer | null>();
const MAX_REMEMBERED = 4096;

function bestOf(r: number, length: number, width: number): RoundLayer | null {
  let best: RoundLayer | null = null;
  for (const l of roundLayers(r, length, width)) {
    if (l.centres.length === 0) continue;
    if (
      !best ||
      l.centres.length > best.centres.length ||
      (l.centres.length === best.centres.length && l.dx * l.dz < best.dx * best.dz - EPS)
    )
      best = l;
  }
  return best;
}

/** The first `n` centres of `layer` (its fill order) as a layer of their own, envelope re-measured. */
export function firstCentres(l: RoundLayer, n: number): RoundLayer {
  const centres = l.centres.slice(0, n);
  return { ...l, centres, ...envelope(centres, l.radius) };
}
