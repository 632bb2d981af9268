/**
 * The unit list of one vehicle, in the PDF's appendix: every placement in step order with its
 * item, unit, position, size, orientation, what it rests on and its weight, STEP_ROWS_PER_PAGE
 * rows a page. The crew loads from the grouped instructions (instruction-pages.ts); this list
 * keeps the per-unit details.
 */
import type { Orientation, Placement, PlannedVehicle } from '../domain/pack/plan.js';
import type { ColourOf } from './cargo-views.js';
import { CONTENT_BOTTOM, CONTENT_WIDTH, type Doc, MARGIN, textCell } from './page.js';
import { type Cell, type Column, HEADER_ROW_HEIGHT, ROW_HEIGHT, drawHeaderRow, drawRow } from './table.js';
import { footprintsOverlap } from './round-unit.js';
import { vehicleTitle } from './vehicle-page.js';
import { columnsIn, measures, type Measures } from './measures.js';

const TABLE_TOP = MARGIN + 34;

/** Body rows on one loading-step page. */
export const STEP_ROWS_PER_PAGE = Math.floor((CONTENT_BOTTOM - TABLE_TOP - HEADER_ROW_HEIGHT) / ROW_HEIGHT);

/** Loading-step pages a vehicle with `units` placements needs (at least one). */
export function stepPageCount(units: number): number {
  return Math.max(1, Math.ceil(units / STEP_ROWS_PER_PAGE));
}

const COLUMNS: readonly Column[] = [
  { title: 'Step', width: 34, align: 'right' },
  { title: '', width: 16 },
  { title: 'Item', width: 176 },
  { title: 'item_id#instance', width: 124 },
  { title: 'Position x / y / z cm', width: 112 },
  { title: 'Size l × w × h cm', width: 112 },
  { title: 'Orientation', width: 80 },
  { title: 'Rests on', width: 86 },
  { title: 'kg', width: 46, align: 'right' },
];

const EPS = 1e-6;

/**
 * What each unit stands on, for the loader: "floor" at y = 0, "deck" on the second deck at
 * `deckHeight` cm, else the steps of the units whose top is at the unit's bottom and whose
 * footprint overlaps it ("on 12, 13"), or of the identical unit it is nested into ("in 12"), or
 * "?" when there are none (the verifier reports such a plan; the PDF still shows it). Upright
 * units of `round` items have circular footprints (a drum on a staggered layer rests
 * on the drum under it, not on the neighbours whose bounding boxes it overlaps).
 */
export function restingOn(
  placements: readonly Placement[],
  deckHeight: number | null = null,
  round: ReadonlySet<string> = new Set(),
): Map<Placement, string> {
  const byTop = new Map<number, Placement[]>();
  for (const q of placements) {
    const key = Math.round((q.y + q.height) * 1000);
    const list = byTop.get(key);
    if (list === undefined) byTop.set(key, [q]);
    else list.push(q);
  }
  const out = new Map<Placement, string>();
  for (const p of placements) {
    if (p.y <= EPS) {
      out.set(p, 'floor');
      continue;
    }
    if (deckHeight !== null && Math.abs(p.y - deckHeight) <= EPS) {
      out.set(p, 'deck');
      continue;
    }
    const below = (byTop.get(Math.round(p.y * 1000)) ?? [])
      .filter((q) => q !== p && footprintsOverlap(q, round.has(q.item_id), p, round.has(p.item_id)))
      .map((q) => q.step)
      .sort((a, b) => a - b);
    // The highest identical unit of the same footprint that this one sinks into.
    const host = placements
      .filter(
        (q) =>
          q !== p &&
          q.item_id === p.item_id &&
          Math.abs(q.x - p.x) <= EPS &&
          Math.abs(q.z - p.z) <= EPS &&
          q.y < p.y - EPS &&
          q.y + q.height > p.y + EPS,
      )
      .sort((a, b) => b.y - a.y)[0];
    out.set(p, below.length > 0 ? `on ${below.join(', ')}` : host ? `in ${host.step}` : '?');
  }
  return out;
}

/** "wlh (turned 90°)": the orientation code with words for the loader. */
function orientationText(o: Orientation): string {
  if (o === 'lwh') return 'lwh (as defined)';
  if (o === 'wlh') return 'wlh (turned 90°)';
  return `${o} (on its side)`;
}

function row(
  p: Placement,
  colourOf: ColourOf,
  support: string,
  hazardous: boolean,
  round: boolean,
  m: Measures,
): Cell[] {
  const n = (v: number) => m.length(v);
  return [
    String(p.step),
    { swatch: colourOf(p.item_id), round },
    hazardous ? `HAZARDOUS · ${p.label}` : p.label,
    `${p.item_id}#${p.instance}`,
    `${n(p.x)} / ${n(p.y)} / ${n(p.z)}`,
    `${n(p.length)} × ${n(p.width)} × ${n(p.height)}`,
    orientationText(p.orientation),
    support,
    m.weight(p.weight),
  ];
}

/**
 * Adds the unit-list pages of `v` (stepPageCount(v.placements.length) pages, each started
 * with `addPage`). Rows are in ascending `step`; `facts` names the vehicle's second deck, the
 * hazardous items (their rows say HAZARDOUS) and the round items (round swatches, circular
 * footprints in "Rests on").
 */
export function drawStepPages(
  doc: Doc,
  v: PlannedVehicle,
  colourOf: ColourOf,
  vehicleCount: number,
  addPage: () => void,
  facts: {
    deckHeight: number | null;
    hazardous: ReadonlySet<string>;
    round?: ReadonlySet<string>;
    measures?: Measures;
  } = { deckHeight: null, hazardous: new Set() },
): void {
  const m = facts.measures ?? measures();
  const columns = columnsIn(COLUMNS, m);
  const ordered = [...v.placements].sort((a, b) => a.step - b.step);
  const round = facts.round ?? new Set<string>();
  const support = restingOn(ordered, facts.deckHeight, round);
  const pages = stepPageCount(ordered.length);
  for (let page = 0; page < pages; page++) {
    addPage();
    const chunk = ordered.slice(page * STEP_ROWS_PER_PAGE, (page + 1) * STEP_ROWS_PER_PAGE);
    const range =
      ordered.length === 0
        ? 'no units'
        : `steps ${chunk[0]!.step}–${chunk[chunk.length - 1]!.step} of ${ordered.length}`;
    textCell(
      doc,
      `Appendix: unit list  ·  ${vehicleTitle(v, vehicleCount)}  ·  ${range}`,
      MARGIN,
      MARGIN,
      CONTENT_WIDTH,
      {
        size: 12,
        bold: true,
      },
    );
    textCell(
      doc,
      'Every unit in step order (the instructions group them into blocks). Position = the corner nearest the front wall, the floor and the right wall: ' +
        'x from the front wall, y up, z from the right wall (seen from the door).',
      MARGIN,
      MARGIN + 17,
      CONTENT_WIDTH,
      { size: 7.5, colour: '#444444' },
    );
    let y = drawHeaderRow(doc, columns, MARGIN, TABLE_TOP);
    chunk.forEach((p, i) => {
      y = drawRow(
        doc,
        columns,
        row(p, colourOf, support.get(p) ?? '', facts.hazardous.has(p.item_id), round.has(p.item_id), m),
        MARGIN,
        y,
        { stripe: i % 2 === 1 },
      );
    });
  }
}
