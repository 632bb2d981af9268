/**
 * Loading instructions a crew follows: consecutive loading steps of a vehicle
 * grouped into blocks of units of one item loaded together, each described as "24 × Microwave
 * oven, 3 across × 2 high × 4 deep, against the left wall from 3.2 m". Pure, with no Node
 * imports, so the PDF and the browser viewer read the same groups. Coordinates as in the spec
 * (Result → Coordinates), cm: x from the front wall, y up from the floor, z from the right wall.
 */
import type { Orientation, Placement } from './plan.js';

/** Where a block stands across the width: against a wall, over the full width, or between. */
export type BlockSide = 'right' | 'left' | 'full_width' | 'centre';

/** What a block stands on: the floor, the second deck, or other units. */
export type BlockLevel = 'floor' | 'deck' | 'stacked';

/** One instruction: a block of units of one item loaded at consecutive steps. */
export interface LoadingInstruction {
  /** 1-based number within the vehicle, in loading order. */
  number: number;
  firstStep: number;
  lastStep: number;
  itemId: string;
  label: string;
  /** Units in the block (lastStep − firstStep + 1). */
  count: number;
  /**
   * Units across the width (z), high (y) and deep along the length (x); across × high × deep =
   * count for a grid. A staggered block of round units (`stagger` set): `across` lines
   * (or `deep` rows) and the most units of one line (row) in the other.
   */
  across: number;
  high: number;
  deep: number;
  /**
   * Set for staggered round units: `lines` along the length, every second one
   * shifted by half a unit, or `rows` across the width shifted the same way.
   */
  stagger?: 'lines' | 'rows';
  /** Size of one unit as placed, cm. */
  unit: { length: number; width: number; height: number };
  orientation: Orientation;
  /** kg of the whole block. */
  weight: number;
  /** The block's bounding box, cm: min corner and max corner. */
  min: { x: number; y: number; z: number };
  max: { x: number; y: number; z: number };
  side: BlockSide;
  level: BlockLevel;
  /** The block's placements in step order. */
  placements: Placement[];
}

/** Gap to a wall, cm, that still counts as "against" it (pallets rarely touch the wall exactly). */
export const WALL_GAP = 10;

const KEY = 1000;
const keyOf = (v: number): number => Math.round(v * KEY);

/** Same item, same placed size and orientation: units that may share a block. */
function sameKind(a: Placement, b: Placement): boolean {
  return (
    a.item_id === b.item_id &&
    a.orientation === b.orientation &&
    keyOf(a.length) === keyOf(b.length) &&
    keyOf(a.width) === keyOf(b.width) &&
    keyOf(a.height) === keyOf(b.height)
  );
}

/** Distinct coordinate values along one axis with their use counts, and their span. */
class AxisValues {
  private readonly counts = new Map<number, number>();
  lo = Infinity;
  hi = -Infinity;
  add(v: number): void {
    const k = keyOf(v);
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    this.lo = Math.min(this.lo, v);
    this.hi = Math.max(this.hi, v);
  }
  get size(): number {
    return this.counts.size;
  }
  /** Do the distinct values lie `pitch` cm apart without a gap? */
  packed(pitch: number): boolean {
    return Math.abs(this.hi - this.lo - (this.size - 1) * pitch) <= 1e-3;
  }
  /**
   * Are the distinct values (two or more) evenly spaced at least `min` and less than `max` cm
   * apart (staggered lines of round units: from r·√3 up to, not including, 2r)?
   */
  staggered(min: number, max: number): boolean {
    if (this.size < 2) return false;
    const step = (this.hi - this.lo) / (this.size - 1);
    return step >= min - 1e-3 && step < max - 1e-3 && this.even(step);
  }
  /** Are the distinct values evenly spaced, at most `pitch` cm apart (nesting units sink into each other)? */
  even(pitch: number): boolean {
    if (this.size < 2) return true;
    const step = (this.hi - this.lo) / (this.size - 1);
    if (step > pitch + 1e-3) return false;
    const sorted = [...this.counts.keys()].sort((a, b) => a - b);
    return sorted.every((k, i) => Math.abs(k / KEY - this.lo - i * step) <= 1e-3);
  }
}

/**
 * The length of the longest prefix of `run` (units of one kind in step order) whose units fill
 * a whole grid without gaps: as many units as distinct x values × distinct y values × distinct z
 * values, so every cell of the block is taken (units never overlap), the x values one unit
 * length apart, the z values one unit width apart and the y values evenly at most one unit
 * height apart (nesting units sink into the one under them); a gap makes two blocks. At least 1.
 */
function longestFullBlock(run: readonly Placement[]): { n: number; stagger?: 'lines' | 'rows' } {
  const xs = new AxisValues(),
    ys = new AxisValues(),
    zs = new AxisValues();
  const { length, width, height } = run[0]!;
  const lines = new StaggerLines(length, 'x'),
    rows = new StaggerLines(width, 'z');
  const round = Math.abs(length - width) <= 1e-3; // upright round units have a square bounding footprint
  const pitch = (length * Math.sqrt(3)) / 2; // the closest pitch of staggered lines
  let best: { n: number; stagger?: 'lines' | 'rows' } = { n: 1 };
  for (let n = 1; n <= run.length; n++) {
    const p = run[n - 1]!;
    xs.add(p.x);
    ys.add(p.y);
    zs.add(p.z);
    if (xs.size * ys.size * zs.size === n && xs.packed(length) && zs.packed(width) && ys.even(height)) {
      best = { n };
      continue;
    }
    if (!round) continue;
    lines.add(p);
    rows.add(p);
    if (ys.even(height) && zs.staggered(pitch, width) && xs.packed(length / 2) && lines.full())
      best = { n, stagger: 'lines' };
    else if (ys.even(height) && xs.staggered(pitch, length) && zs.packed(width / 2) && rows.full())
      best = { n, stagger: 'rows' };
  }
  return best;
}

/**
 * The lines of a staggered block of round units: units grouped by height and by their
 * position across the lines; full when every line is packed one unit `pitch` apart along `axis`
 * without a gap and every layer holds as many units.
 */
class StaggerLines {
  private readonly lines = new Map<string, { count: number; lo: number; hi: number }>();
  private readonly layers = new Map<number, number>();
  private gappy = 0;
  constructor(
    private readonly pitch: number,
    private readonly axis: 'x' | 'z',
  ) {}
  add(p: Placement): void {
    const along = this.axis === 'x' ? p.x : p.z;
    const key = `${keyOf(p.y)}:${keyOf(this.axis === 'x' ? p.z : p.x)}`;
    const was = this.lines.get(key);
    const line = was
      ? { count: was.count + 1, lo: Math.min(was.lo, along), hi: Math.max(was.hi, along) }
      : { count: 1, lo: along, hi: along };
    if (was && !this.packed(was)) this.gappy--;
    if (!this.packed(line)) this.gappy++;
    this.lines.set(key, line);
    this.layers.set(keyOf(p.y), (this.layers.get(keyOf(p.y)) ?? 0) + 1);
  }
  private packed(l: { count: number; lo: number; hi: number }): boolean {
    return Math.abs(l.hi - l.lo - (l.count - 1) * this.pitch) <= 1e-3;
  }
  full(): boolean {
    return this.gappy === 0 && new Set(this.layers.values()).size === 1;
  }
}

function sideOf(minZ: number, maxZ: number, width: number): BlockSide {
  const right = minZ <= WALL_GAP,
    left = maxZ >= width - WALL_GAP;
  if (right && left) return 'full_width';
  if (right) return 'right';
  if (left) return 'left';
  return 'centre';
}

function block(
  units: Placement[],
  number: number,
  width: number,
  deckHeight: number | null,
  stagger?: 'lines' | 'rows',
): LoadingInstruction {
  const first = units[0]!;
  const distinct = (f: (p: Placement) => number): number => new Set(units.map((p) => keyOf(f(p)))).size;
  const min = { x: Infinity, y: Infinity, z: Infinity },
    max = { x: -Infinity, y: -Infinity, z: -Infinity };
  let weight = 0;
  for (const p of units) {
    min.x = Math.min(min.x, p.x);
    min.y = Math.min(min.y, p.y);
    min.z = Math.min(min.z, p.z);
    max.x = Math.max(max.x, p.x + p.length);
    max.y = Math.max(max.y, p.y + p.height);
    max.z = Math.max(max.z, p.z + p.width);
    weight += p.weight;
  }
  const level: BlockLevel =
    min.y <= 1e-6 ? 'floor' : deckHeight !== null && Math.abs(min.y - deckHeight) <= 1e-6 ? 'deck' : 'stacked';
  const high = distinct((p) => p.y);
  // Staggered: lines (rows) by their distinct z (x); the most units of a line (row) of one layer.
  const perLine = (along: (p: Placement) => number): number => {
    const counts = new Map<string, number>();
    for (const p of units)
      counts.set(`${keyOf(p.y)}:${keyOf(along(p))}`, (counts.get(`${keyOf(p.y)}:${keyOf(along(p))}`) ?? 0) + 1);
    return Math.max(...counts.values());
  };
  const across = stagger === 'rows' ? perLine((p) => p.x) : distinct((p) => p.z);
  const deep = stagger === 'lines' ? perLine((p) => p.z) : distinct((p) => p.x);
  return {
    number,
    firstStep: first.step,
    lastStep: units[units.length - 1]!.step,
    itemId: first.item_id,
    label: first.label,
    count: units.length,
    across,
    high,
    deep,
    ...(stagger ? { stagger } : {}),
    unit: { length: first.length, width: first.width, height: first.height },
    orientation: first.orientation,
    weight,
    min,
    max,
    side: sideOf(min.z, max.z, width),
    level,
    placements: units,
  };
}

/**
 * Groups the placements of one vehicle (inner `width` cm across; second deck at `deckHeight` cm
 * or null) into loading instructions: walking the steps in ascending order, a run of consecutive
 * units of the same item, size and orientation is cut into blocks, each the longest prefix that
 * fills a whole across × high × deep grid without gaps, or, for round units (square bounding
 * footprint), a staggered block: lines r·√3 apart, each packed without a gap, every layer alike. Every placement lands in exactly one instruction; the
 * instructions cover the steps in order without gaps. O(n · r) for runs of r units.
 */
export function loadingInstructions(
  placements: readonly Placement[],
  width: number,
  deckHeight: number | null = null,
): LoadingInstruction[] {
  const ordered = [...placements].sort((a, b) => a.step - b.step);
  const out: LoadingInstruction[] = [];
  let i = 0;
  while (i < ordered.length) {
    let end = i + 1;
    while (end < ordered.length && sameKind(ordered[i]!, ordered[end]!)) end++;
    let start = i;
    while (start < end) {
      const { n, stagger } = longestFullBlock(ordered.slice(start, end));
      out.push(block(ordered.slice(start, start + n), out.length + 1, width, deckHeight, stagger));
      start += n;
    }
    i = end;
  }
  return out;
}

/** cm as metres with at most two decimals: 320 → "3.2", 1250 → "12.5", 5 → "0.05". */
export function metres(cm: number): string {
  const m = (Math.round(cm) / 100).toFixed(2);
  return m.replace(/\.?0+$/, '');
}

/** cm as metres with the unit: 320 → "3.2 m". */
export const metresText = (cm: number): string => `${metres(cm)} m`;

/** "Steps 12–35" or "Step 7". */
export function stepRange(ins: Pick<LoadingInstruction, 'firstStep' | 'lastStep'>): string {
  return ins.firstStep === ins.lastStep ? `Step ${ins.firstStep}` : `Steps ${ins.firstStep}–${ins.lastStep}`;
}

/**
 * "3 across × 2 high × 4 deep" (empty for a single unit); staggered round units: "4 staggered
 * lines of up to 9 × 2 high" or "12 staggered rows of up to 4 × 1 high".
 */
export function blockShape(ins: Pick<LoadingInstruction, 'count' | 'across' | 'high' | 'deep' | 'stagger'>): string {
  if (ins.count === 1) return '';
  if (ins.stagger === 'lines') return `${ins.across} staggered lines of up to ${ins.deep} × ${ins.high} high`;
  if (ins.stagger === 'rows') return `${ins.deep} staggered rows of up to ${ins.across} × ${ins.high} high`;
  return `${ins.across} across × ${ins.high} high × ${ins.deep} deep`;
}

/**
 * Where the block goes, in the crew's words: "in the front right corner", "across the full width
 * at the front wall", "against the left wall from 3.2 m", "in the middle, 0.8 m from the right
 * wall, from 6 m"; then "on the second deck" or "on top, 1.2 m up" when it does not stand on the
 * floor. A wall counts when the block is within WALL_GAP cm of it. `distance` writes a distance
 * in cm with its unit (metres by default; the PDF of an imperial organization passes feet).
 */
export function blockPlace(
  ins: Pick<LoadingInstruction, 'side' | 'level' | 'min'>,
  distance: (cm: number) => string = metresText,
): string {
  const front = ins.min.x <= WALL_GAP;
  const from = front ? 'at the front wall' : `from ${distance(ins.min.x)}`;
  const level =
    ins.level === 'deck'
      ? ', on the second deck'
      : ins.level === 'stacked'
        ? `, on top, ${distance(ins.min.y)} up`
        : '';
  let place: string;
  if (ins.side === 'full_width') place = `across the full width ${from}`;
  else if (ins.side === 'centre') place = `in the middle, ${distance(ins.min.z)} from the right wall, ${from}`;
  else if (front) place = `in the front ${ins.side} corner`;
  else place = `against the ${ins.side} wall ${from}`;
  return place + level;
}

/** The whole instruction: "24 × Microwave oven, 3 across × 2 high × 4 deep, against the left wall from 3.2 m". */
export function describeInstruction(ins: LoadingInstruction): string {
  const shape = blockShape(ins);
  return `${ins.count} × ${ins.label}, ${shape === '' ? '' : `${shape}, `}${blockPlace(ins)}`;
}
