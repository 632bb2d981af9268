/**
 * The two drawings of a loaded vehicle on its PDF page: a 3D axonometric view of the cargo space
 * (every unit a shaded box, drawn back to front) and a top-down floor plan. Both fit themselves
 * into a page rectangle (pt, y down) and keep the same orientation: front wall on the left, door
 * on the right, the right wall (z = 0) at the back/top.
 */
import type { Placement, PlannedVehicle } from '../domain/pack/plan.js';
import {
  type Projection,
  type ScreenPoint,
  type SpaceBox,
  paintersOrder,
  project,
  projectionFor,
  visibleFaces,
} from './isometric.js';
import { darker, lighter, textColourOn } from '../display/item-colour.js';
import { type Doc, FONT, FONT_BOLD, textCell } from './page.js';
import { type PageStep, PolygonBatch } from './polygon-batch.js';
import { type Path3, type Vec3, capSquare, cylinderOf, cylinderOutline, endCircle } from './round-unit.js';
import type { Measures } from './measures.js';
import { CM_PER_FOOT } from '../display/units.js';

/** A page rectangle, pt, y down from the top of the page. */
export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a length drawing puts x: page x (pt) of the front wall and pt per cm. */
export interface LengthScale {
  x0: number;
  scale: number;
}

/** Colour (`#rrggbb`) of an item_id. */
export type ColourOf = (itemId: string) => string;

/** item_ids drawn round (shape `cylinder` or `drum`); the rest are boxes. */
export type RoundItems = ReadonlySet<string>;

const NO_ROUND_ITEMS: RoundItems = new Set();

/** Adds path `path` (vehicle coordinates) to `batch`, mapped onto the page by `toPage`. */
function addPath3(batch: PolygonBatch, path: Path3, toPage: (v: Vec3) => Pt, fill: string, stroke: string): void {
  const steps = path.steps.map((s) => s.map(toPage) as unknown as PageStep);
  batch.addPath(toPage(path.start), steps, fill, stroke);
}

type Pt = [number, number];

function boxOf(p: Placement): SpaceBox {
  return { x: p.x, y: p.y, z: p.z, length: p.length, height: p.height, width: p.width };
}

/** Is point q inside the convex polygon `poly` (either winding)? */
function insideConvex(poly: readonly Pt[], q: Pt): boolean {
  let sign = 0;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % poly.length]!;
    const cross = (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
    if (Math.abs(cross) < 1e-9) continue;
    const s = Math.sign(cross);
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

const LABEL_SIZES = [8, 6.5, 5] as const;

/**
 * Could a label of the smallest size (one digit, 3 pt wide, 4.75 pt high) fit `poly` at all?
 * Most boxes of a large load are too small on the drawing: they are skipped before any text is
 * measured, and their drawing is not interrupted.
 */
function fullLabel(poly: readonly Pt[]): boolean {
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity;
  for (const [x, y] of poly) {
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  return x1 - x0 >= 4 && y1 - y0 >= 4.75;
}

const labelWidths = new Map<string, number>();

/**
 * Width (pt) of a label in the bold font at `size`. Step numbers are measured as that many
 * zeros (the font's digits share one width), so a picture of thousands of units measures a
 * handful of strings instead of one per unit.
 */
function labelWidth(doc: Doc, text: string, size: number): number {
  const key = /^[0-9]+$/.test(text) ? `${size}|${'0'.repeat(text.length)}` : `${size}|${text}`;
  let w = labelWidths.get(key);
  if (w === undefined) {
    doc.font(FONT_BOLD).fontSize(size);
    w = doc.widthOfString(key.slice(key.indexOf('|') + 1));
    if (labelWidths.size > 5000) labelWidths.clear();
    labelWidths.set(key, w);
  }
  return w;
}

/**
 * Writes `text` centred in the convex polygon `poly` at the largest of LABEL_SIZES whose text
 * box fits inside; writes nothing when none fits (the unit is too small on the drawing).
 */
function labelInside(doc: Doc, poly: readonly Pt[], text: string, fill: string): void {
  const cx = poly.reduce((s, p) => s + p[0], 0) / poly.length;
  const cy = poly.reduce((s, p) => s + p[1], 0) / poly.length;
  doc.font(FONT_BOLD);
  for (const size of LABEL_SIZES) {
    doc.fontSize(size);
    const w = labelWidth(doc, text, size) + 1;
    const h = size * 0.75 + 1;
    const corners: Pt[] = [
      [cx - w / 2, cy - h / 2],
      [cx + w / 2, cy - h / 2],
      [cx + w / 2, cy + h / 2],
      [cx - w / 2, cy + h / 2],
    ];
    if (corners.every((c) => insideConvex(poly, c))) {
      // pdfkit places text by the top of the line box; the cap height is ~0.7 of the size.
      doc.fillColor(textColourOn(fill)).text(text, cx - (w - 1) / 2, cy - size * 0.42, { lineBreak: false });
      return;
    }
  }
}

/** Azimuths tried for the 3D view; the one giving the largest drawing wins, 30° on near-ties. */
const AZIMUTHS = [30, 20, 40] as const;
const ELEVATION = 30;

interface Fit {
  projection: Projection;
  scale: number;
  toPage: (s: ScreenPoint) => Pt;
}

function fitProjection(v: Pick<PlannedVehicle, 'length' | 'width' | 'height'>, area: Area): Fit {
  let best: { projection: Projection; scale: number; uMin: number; vMax: number; du: number; dv: number } | undefined;
  for (const azimuth of AZIMUTHS) {
    const projection = cachedProjection(azimuth);
    const corners: ScreenPoint[] = [];
    for (const x of [0, v.length])
      for (const y of [0, v.height]) for (const z of [0, v.width]) corners.push(project(projection, x, y, z));
    const us = corners.map((c) => c[0]);
    const vs = corners.map((c) => c[1]);
    const du = Math.max(...us) - Math.min(...us);
    const dv = Math.max(...vs) - Math.min(...vs);
    const scale = Math.min(area.width / du, area.height / dv);
    if (best === undefined || scale > best.scale * 1.08) {
      best = { projection, scale, uMin: Math.min(...us), vMax: Math.max(...vs), du, dv };
    }
  }
  const b = best!;
  const ox = area.x + (area.width - b.du * b.scale) / 2;
  const oy = area.y + (area.height - b.dv * b.scale) / 2;
  return {
    projection: b.projection,
    scale: b.scale,
    toPage: (s) => [ox + (s[0] - b.uMin) * b.scale, oy + (b.vMax - s[1]) * b.scale],
  };
}

/**
 * Where the 3D view of `v` drawn with `compact: true` into `area` puts the point (x, y, z) of the
 * cargo space (cm): its page point, pt. Without `compact` the drawing keeps 12 pt above and 14 pt
 * below `area` for the captions.
 */
export function isometricFrame(
  v: Pick<PlannedVehicle, 'length' | 'width' | 'height'>,
  area: Area,
): { projection: Projection; toPage: (x: number, y: number, z: number) => Pt } {
  const { projection, toPage } = fitProjection(v, area);
  return { projection, toPage: (x, y, z) => toPage(project(projection, x, y, z)) };
}

/** What a 3D view shows: the whole load, or the load after a step with the latest units highlighted. */
export interface IsometricOptions {
  /** Second deck height, cm; null without one. */
  deckHeight?: number | null;
  /** Draw only the units loaded up to this step (default: all). */
  upToStep?: number;
  /** Units from this step on are drawn in full colour with their step numbers; earlier ones faded, unnumbered (default: all full). */
  highlightFrom?: number;
  /** Leave out the FRONT WALL / DOOR captions (small pictures); the walls stay marked by colour. */
  compact?: boolean;
  /** The deck height's unit (display units); absent: cm. */
  measures?: Measures;
  /** Items drawn as cylinders (default: none). */
  round?: RoundItems;
}

/** Fills and edge colour of a shaded box. */
interface BoxShades {
  top: string;
  door: string;
  side: string;
  edge: string;
}

const shadeCache = new Map<string, { fresh: BoxShades; loaded: BoxShades }>();

/**
 * The shades of an item colour: a box in full colour (lit top, shaded sides, dark edges) and a
 * box already loaded in a picture (a pale tint of the colour, so the new block stands out).
 */
function shadesOf(base: string): { fresh: BoxShades; loaded: BoxShades } {
  let s = shadeCache.get(base);
  if (s === undefined) {
    const pale = lighter(base, 0.62);
    s = {
      fresh: { top: lighter(base, 0.3), door: darker(base, 0.12), side: darker(base, 0.28), edge: darker(base, 0.55) },
      loaded: { top: lighter(pale, 0.3), door: darker(pale, 0.06), side: darker(pale, 0.14), edge: darker(pale, 0.3) },
    };
    if (shadeCache.size > 1000) shadeCache.clear();
    shadeCache.set(base, s);
  }
  return s;
}

/** Painter's orders already computed, per placement list and projection (a picture per instruction reuses one). */
const orders = new WeakMap<readonly Placement[], Map<Projection, number[]>>();

function paintersOrderOf(placements: readonly Placement[], projection: Projection): number[] {
  let byProjection = orders.get(placements);
  if (byProjection === undefined) orders.set(placements, (byProjection = new Map<Projection, number[]>()));
  let order = byProjection.get(projection);
  if (order === undefined) {
    order = paintersOrder(projection, placements.map(boxOf));
    byProjection.set(projection, order);
  }
  return order;
}

const projections = new Map<number, Projection>();
function cachedProjection(azimuth: number): Projection {
  let p = projections.get(azimuth);
  if (p === undefined) projections.set(azimuth, (p = projectionFor({ azimuth, elevation: ELEVATION })));
  return p;
}

/**
 * Draws the 3D view of vehicle `v` inside `area`: the far walls and floor, each placement as a
 * box with a lit top and two shaded sides in its item colour (painter's order), step numbers on
 * boxes large enough to hold them, the near edges dashed, the front wall and the door marked.
 * With a deck height (cm) the second deck is drawn as a dashed line round the far walls. With
 * `upToStep` / `highlightFrom` it shows the load after a loading instruction: the units loaded
 * before it faded, the instruction's units in colour. The painter's order of a
 * vehicle is computed once and reused by every picture of it. Units of `round` items are drawn
 * as cylinders: the visible half of the curved surface and the far end circle (the top of an
 * upright one), one path each.
 */
export function drawIsometricView(
  doc: Doc,
  v: PlannedVehicle,
  colourOf: ColourOf,
  area: Area,
  opts: IsometricOptions = {},
): void {
  const deckHeight = opts.deckHeight ?? null;
  const upTo = opts.upToStep ?? Infinity;
  const highlight = opts.highlightFrom ?? -Infinity;
  const round = opts.round ?? NO_ROUND_ITEMS;
  // Room for the FRONT WALL / DOOR labels above and below the drawing.
  const inner: Area =
    opts.compact === true ? area : { x: area.x, y: area.y + 12, width: area.width, height: area.height - 26 };
  const { projection, toPage } = fitProjection(v, inner);
  const P = (x: number, y: number, z: number): Pt => toPage(project(projection, x, y, z));
  const poly = (pts: Pt[]) => doc.polygon(...pts);
  const { length: L, height: H, width: W } = v;

  doc.save();
  doc.lineWidth(0.6).lineJoin('round');
  poly([P(0, 0, 0), P(L, 0, 0), P(L, 0, W), P(0, 0, W)]).fillAndStroke('#f2f2f2', '#8a8a8a');
  poly([P(0, 0, 0), P(L, 0, 0), P(L, H, 0), P(0, H, 0)]).fillAndStroke('#fafafa', '#8a8a8a');
  poly([P(0, 0, 0), P(0, 0, W), P(0, H, W), P(0, H, 0)]).fillAndStroke('#c9d8ea', '#5b7896');
  if (deckHeight !== null) {
    // The deck where it meets the far side wall and the front wall; the boxes drawn next cover it.
    const d = deckHeight;
    doc.save().lineWidth(1).dash(4, { space: 2 }).strokeColor('#7048e8');
    doc
      .moveTo(...P(0, d, W))
      .lineTo(...P(0, d, 0))
      .lineTo(...P(L, d, 0))
      .stroke();
    doc.restore();
    if (opts.compact !== true) {
      const [lx, ly] = P(L, d, 0);
      doc
        .save()
        .fillColor('#7048e8')
        .fontSize(7)
        .text(
          `deck ${opts.measures ? `${opts.measures.length(d)} ${opts.measures.lengthUnit}` : `${d} cm`}`,
          lx - 60,
          ly - 11,
          { width: 58, align: 'right', lineBreak: false },
        );
      doc.restore();
    }
  }

  doc.lineWidth(0.35);
  const batch = new PolygonBatch();
  for (const i of paintersOrderOf(v.placements, projection)) {
    const pl = v.placements[i]!;
    if (pl.step > upTo) continue;
    const fresh = pl.step >= highlight;
    const shade = shadesOf(colourOf(pl.item_id));
    const c = fresh ? shade.fresh : shade.loaded;
    if (round.has(pl.item_id)) {
      const cyl = cylinderOf(pl);
      const { band, cap } = cylinderOutline(projection, cyl);
      const toPage3 = (q: Vec3): Pt => P(q[0], q[1], q[2]);
      // The end circle faces up (upright), the door (lying along x) or the left wall (along z).
      const capFill = cyl.axis === 'y' ? c.top : cyl.axis === 'x' ? c.door : c.side;
      addPath3(batch, band, toPage3, cyl.axis === 'z' ? c.door : c.side, c.edge);
      addPath3(batch, cap, toPage3, capFill, c.edge);
      const square = capSquare(cyl).map(toPage3);
      if (fresh && fullLabel(square)) {
        batch.flush(doc);
        labelInside(doc, square, String(pl.step), capFill);
      }
      continue;
    }
    const f = visibleFaces(projection, boxOf(pl));
    const top = f.top.map(toPage);
    batch.add(f.side.map(toPage), c.side, c.edge);
    batch.add(f.door.map(toPage), c.door, c.edge);
    batch.add(top, c.top, c.edge);
    if (fresh && fullLabel(top)) {
      batch.flush(doc);
      labelInside(doc, top, String(pl.step), c.top);
    }
  }
  batch.flush(doc);

  doc.lineWidth(0.4).dash(3, { space: 2 }).strokeColor('#9a9a9a');
  doc
    .moveTo(...P(0, H, W))
    .lineTo(...P(L, H, W))
    .stroke();
  doc
    .moveTo(...P(L, H, 0))
    .lineTo(...P(L, H, W))
    .lineTo(...P(L, 0, W))
    .stroke();
  doc.lineWidth(opts.compact === true ? 1 : 1.4).strokeColor('#d9480f');
  poly([P(L, 0, 0), P(L, H, 0), P(L, H, W), P(L, 0, W)]).stroke();
  doc.undash();
  doc.restore();
  if (opts.compact === true) return;

  const front = P(0, H, 0);
  textCell(doc, 'FRONT WALL', front[0] - 60, front[1] - 11, 120, {
    size: 8,
    bold: true,
    align: 'center',
    colour: '#34506e',
  });
  const door = P(L, 0, W);
  textCell(doc, 'DOOR (load from here)', door[0] - 70, door[1] + 3, 140, {
    size: 8,
    bold: true,
    align: 'center',
    colour: '#d9480f',
  });
}

/**
 * Floor-plan label of a stack sharing one footprint, steps bottom to top: all steps ("3/4")
 * when they fit `width` pt at the largest label size, else "3–8" for consecutive steps, else the
 * top step with the stack height ("40 (3 high)"), else the top step alone.
 */
function stackLabel(doc: Doc, steps: readonly number[], width: number): string {
  const top = steps[steps.length - 1]!;
  if (steps.length === 1) return String(top);
  doc.font(FONT_BOLD).fontSize(LABEL_SIZES[0]);
  const consecutive = steps.every((s, i) => i === 0 || s === steps[i - 1]! + 1);
  const candidates = [steps.join('/'), consecutive ? `${steps[0]}–${top}` : `${top} (${steps.length} high)`];
  return candidates.find((c) => doc.widthOfString(c) < width) ?? String(top);
}

/** Floor-plan tick spacing, cm: at most 15 ticks, at least 36 pt apart at `scale` pt/cm. */
function tickSpacing(length: number, scale: number): number {
  for (const s of [10, 20, 25, 50, 100, 200, 500]) if (length / s <= 15 && s * scale >= 36) return s;
  return 1000;
}

function tickLabel(cm: number): string {
  return cm % 100 === 0 ? `${cm / 100} m` : `${cm / 100}`;
}

/** Floor-plan tick spacing in feet for imperial units (as tickSpacing), cm. */
function footTickSpacing(length: number, scale: number): number {
  const foot = CM_PER_FOOT;
  for (const s of [1, 2, 5, 10, 20, 50]) if (length / (s * foot) <= 15 && s * foot * scale >= 36) return s * foot;
  return 100 * foot;
}

function footTickLabel(cm: number): string {
  return `${Math.round(cm / CM_PER_FOOT)} ft`;
}

/** Room left and right of the floor plan for the FRONT / DOOR labels, pt. */
const TOP_VIEW_SIDE = 44;

/**
 * Where the floor plan of `v` sits in `area`: page x (pt) of the front wall (x = 0), page y of
 * the right wall (z = 0) and pt per cm; a point (x, z) of the floor is at
 * (x0 + x·scale, z0 + z·scale).
 */
export function topViewFrame(
  v: Pick<PlannedVehicle, 'length' | 'width'>,
  area: Area,
): { x0: number; z0: number; scale: number } {
  const side = TOP_VIEW_SIDE;
  const scale = Math.min((area.width - 2 * side) / v.length, (area.height - 36) / v.width);
  return { x0: area.x + side + (area.width - 2 * side - v.length * scale) / 2, z0: area.y + 11, scale };
}

/**
 * Draws the top-down floor plan of `v` inside `area`: the floor, each unit's footprint in its
 * item colour (the highest unit of a spot on top), the loading steps of each stack
 * ("bottom/…/top" when a stack shares one footprint), a length scale along the floor, the
 * centre of gravity, and the wall names. Units of `round` items standing upright are drawn as
 * discs, lying ones as their rectangles (round cargo). The scale is in feet when `m` is
 * imperial. Returns the drawing's scale along the length, so a drawing under it (the weight
 * diagram) can line up with it.
 */
export function drawTopView(
  doc: Doc,
  v: PlannedVehicle,
  colourOf: ColourOf,
  area: Area,
  round: RoundItems = NO_ROUND_ITEMS,
  m?: Measures,
): LengthScale {
  const feet = m?.units === 'imperial';
  const { x0: ox, z0: oy, scale } = topViewFrame(v, area);
  const side = TOP_VIEW_SIDE;
  const X = (x: number) => ox + x * scale;
  const Z = (z: number) => oy + z * scale;

  doc.save();
  doc
    .lineWidth(0.8)
    .rect(X(0), Z(0), v.length * scale, v.width * scale)
    .fillAndStroke('#f7f7f7', '#555555');
  doc.lineWidth(2.5).strokeColor('#5b7896').moveTo(X(0), Z(0)).lineTo(X(0), Z(v.width)).stroke();
  doc.strokeColor('#d9480f').moveTo(X(v.length), Z(0)).lineTo(X(v.length), Z(v.width)).stroke();

  // Stacks with one shared footprint are labelled with all their steps, bottom to top.
  const stacks = new Map<string, Placement[]>();
  for (const p of v.placements) {
    const key = `${p.x}|${p.z}|${p.length}|${p.width}`;
    const list = stacks.get(key);
    if (list === undefined) stacks.set(key, [p]);
    else list.push(p);
  }
  // Ascending tops: a higher unit covers the footprints and labels of the units below it.
  const byTop = [...v.placements].sort((a, b) => a.y + a.height - (b.y + b.height) || a.step - b.step);
  doc.lineWidth(0.4);
  const batch = new PolygonBatch();
  for (const p of byTop) {
    const fill = colourOf(p.item_id);
    const [x0, x1, z0, z1] = [X(p.x), X(p.x + p.length), Z(p.z), Z(p.z + p.width)];
    const cyl = round.has(p.item_id) ? cylinderOf(p) : null;
    let rect: Pt[] = [
      [x0 + 1, z0 + 1],
      [x1 - 1, z0 + 1],
      [x1 - 1, z1 - 1],
      [x0 + 1, z1 - 1],
    ];
    if (cyl !== null && cyl.axis === 'y') {
      const fromAbove = (q: Vec3): Pt => [X(q[0]), Z(q[2])];
      addPath3(batch, endCircle(cyl, 1), fromAbove, fill, shadesOf(fill).fresh.edge);
      rect = capSquare(cyl, 1 / scale).map(fromAbove);
    } else {
      batch.add(
        [
          [x0, z0],
          [x1, z0],
          [x1, z1],
          [x0, z1],
        ],
        fill,
        shadesOf(fill).fresh.edge,
      );
    }
    const stack = stacks.get(`${p.x}|${p.z}|${p.length}|${p.width}`)!;
    if (stack.some((s) => s.y > p.y)) continue;
    if (!fullLabel(rect)) continue;
    const steps = [...stack].sort((a, b) => a.y - b.y).map((s) => s.step);
    batch.flush(doc);
    labelInside(doc, rect, stackLabel(doc, steps, rect[1]![0] - rect[0]![0] - 1), fill);
  }
  batch.flush(doc);

  const cog = v.center_of_gravity;
  if (v.placements.length > 0) {
    const [cx, cz] = [X(cog.x), Z(cog.z)];
    doc.lineWidth(1.2).strokeColor('#000000');
    doc.circle(cx, cz, 4).stroke();
    doc
      .moveTo(cx - 7, cz)
      .lineTo(cx + 7, cz)
      .moveTo(cx, cz - 7)
      .lineTo(cx, cz + 7)
      .stroke();
  }

  const tick = feet ? footTickSpacing(v.length, scale) : tickSpacing(v.length, scale);
  doc.lineWidth(0.5).strokeColor('#333333');
  const yBase = Z(v.width);
  for (let t = 0; t <= v.length + 1e-9; t += tick) {
    doc
      .moveTo(X(t), yBase)
      .lineTo(X(t), yBase + 4)
      .stroke();
  }
  doc.restore();
  for (let t = 0; t <= v.length + 1e-9; t += tick) {
    textCell(doc, feet ? footTickLabel(t) : tickLabel(t), X(t) - 20, yBase + 5, 40, {
      size: 6.5,
      align: 'center',
      colour: '#333333',
    });
  }
  const midY = Z(v.width / 2) - 4;
  textCell(doc, 'FRONT', X(0) - side, midY, side - 4, { size: 8, bold: true, align: 'right', colour: '#34506e' });
  textCell(doc, 'DOOR', X(v.length) + 4, midY, side - 4, { size: 8, bold: true, colour: '#d9480f' });
  textCell(doc, 'right wall (z = 0)', X(v.length) - 150, oy - 10, 150, {
    size: 6.5,
    align: 'right',
    colour: '#555555',
  });
  const cogText = v.placements.length > 0 ? '  ·  circle = centre of gravity' : '';
  textCell(doc, `left wall${cogText}`, X(v.length) - 250, yBase + 14, 250, {
    size: 6.5,
    align: 'right',
    colour: '#555555',
  });
  doc.font(FONT);
  return { x0: ox, scale };
}
