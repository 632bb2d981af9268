/**
 * The overview page of one loaded vehicle: the header block (reference, plan date, empty seal
 * number and signature fields), the vehicle's figures (weight and volume utilization, loading
 * metres, centre of gravity, where its instructions are), the 3D view, the floor plan, the
 * weight per metre of length under it with remarks on the balance, and the colour key of every
 * item on board (continued on the next page when long). The loading instructions follow on
 * their own pages (instruction-pages.ts).
 */
import type { PlannedVehicle } from '../domain/pack/plan.js';
import { loadingMetres } from '../domain/pack/loading-metres.js';
import { type ColourOf, type RoundItems, drawIsometricView, drawTopView } from './cargo-views.js';
import { type HeaderFacts, drawHeaderBlock } from './header-block.js';
import { LEGEND_LINE_HEIGHT, type LegendEntry, drawLegend, legendEntries } from './legend.js';
import { CONTENT_BOTTOM, CONTENT_WIDTH, type Doc, MARGIN, formatNumber, formatPercent, textCell } from './page.js';
import { WEIGHT_DIAGRAM_HEIGHT, drawWeightDiagram } from './weight-diagram.js';
import { measures, type Measures } from './measures.js';

/** Where the vehicle sits in the document, for the header. */
export interface VehiclePageContext {
  vehicleCount: number;
  /** Height of the vehicle's second deck, cm; null or absent without one. */
  deckHeight?: number | null;
  /** The job's facts for the header block. */
  header: HeaderFacts;
  /** Items drawn round (cylinders and drums); absent: none. */
  round?: RoundItems;
  /** Lengths and weights in the organization's display units; absent: metric. */
  measures?: Measures;
}

/** A line left empty on a drawn page, to be written once later pages exist: 0-based page, pt. */
export interface TextSlot {
  page: number;
  x: number;
  y: number;
  width: number;
}

/** What the overview page leaves to the following pages. */
export interface VehiclePageResult {
  /** Colour-key entries that did not fit: the next page starts with them. */
  legendRest: LegendEntry[];
  /** The line that names the pages of the instructions and of the unit list (fill with fillTextSlot). */
  pagesSlot: TextSlot;
  /** Balance remarks printed under the weight diagram. */
  remarks: string[];
}

/** Lines of the colour key at the foot of the overview page. */
export const LEGEND_LINES = 2;

/** "Vehicle 2 of 3 · Mega trailer": the title used on the vehicle's pages. */
export function vehicleTitle(v: PlannedVehicle, vehicleCount: number): string {
  return `Vehicle ${v.index + 1} of ${vehicleCount}  ·  ${v.name}`;
}

/** Inner size "1360 × 248 × 270 cm" (in `m`'s length unit: "535.4 × 97.6 × 106.3 in"). */
export function innerSize(v: PlannedVehicle, m: Measures = measures()): string {
  return `${m.length(v.length)} × ${m.length(v.width)} × ${m.length(v.height)} ${m.lengthUnit}`;
}

/** Loading metres as printed: "13.2 m". */
export function ldmText(v: PlannedVehicle): string {
  return `${formatNumber(loadingMetres(v.placements), 2)} m`;
}

/** Draws the whole overview page of `v` on the current page (0-based index `page`). */
export function drawVehiclePage(
  doc: Doc,
  v: PlannedVehicle,
  colourOf: ColourOf,
  ctx: VehiclePageContext,
  page: number,
): VehiclePageResult {
  const m = ctx.measures ?? measures();
  let y = drawHeaderBlock(doc, ctx.header, MARGIN) + 8;
  const title = vehicleTitle(v, ctx.vehicleCount);
  const badgeWidth = v.auto_added ? 86 : 0;
  textCell(doc, title, MARGIN, y, CONTENT_WIDTH - badgeWidth - 8, { size: 15, bold: true });
  if (v.auto_added) {
    const bx = MARGIN + CONTENT_WIDTH - badgeWidth;
    doc.roundedRect(bx, y - 2, badgeWidth, 18, 3).fill('#d9480f');
    textCell(doc, 'AUTO-ADDED', bx, y + 3, badgeWidth, { size: 9, bold: true, align: 'center', colour: '#ffffff' });
  }
  y += 21;
  textCell(
    doc,
    `vehicle_id ${v.vehicle_id}  ·  copy ${v.copy}${v.auto_added ? ' (added by auto mode)' : ''}  ·  type ${v.type}  ·  ` +
      `inner ${innerSize(v, m)} (L × W × H)  ·  payload ${m.weight(v.max_weight)} ${m.weightUnit}`,
    MARGIN,
    y,
    CONTENT_WIDTH,
    { size: 9 },
  );
  y += 13;
  const cog = v.center_of_gravity;
  textCell(
    doc,
    `${v.items_placed} units  ·  ${m.weight(v.total_weight)} ${m.weightUnit} = ${formatPercent(v.weight_utilization)} of payload  ·  ` +
      `volume ${formatPercent(v.volume_utilization)}  ·  loading metres ${ldmText(v)}  ·  centre of gravity x ${m.length(cog.x)} / ` +
      `y ${m.length(cog.y)} / z ${m.length(cog.z)} ${m.lengthUnit}`,
    MARGIN,
    y,
    CONTENT_WIDTH,
    { size: 9, bold: true },
  );
  y += 13;
  const pagesSlot: TextSlot = { page, x: MARGIN, y, width: CONTENT_WIDTH };
  y += 13;
  if (ctx.deckHeight !== undefined && ctx.deckHeight !== null) {
    const deck = ctx.deckHeight;
    const on = v.placements.filter((p) => p.y >= deck - 1e-6);
    const kg = on.reduce((s, p) => s + p.weight, 0);
    textCell(
      doc,
      `Second deck at ${m.length(deck)} ${m.lengthUnit}: ${on.length} units, ${m.weight(kg)} ${m.weightUnit} on it (load the floor under each section first, then set the deck over it)`,
      MARGIN,
      y,
      CONTENT_WIDTH,
      { size: 9 },
    );
    y += 13;
  }
  if (v.axle_loads && v.axle_loads.length > 0) {
    // Overloaded axles in red: the crew must not drive off with them.
    const over = v.axle_loads.some((a) => !a.ok);
    const axles = v.axle_loads.map(
      (a) =>
        `${a.name} (${m.length(a.position, 0)} ${m.lengthUnit}) ${m.weight(a.load, 0)} ${m.weightUnit}${a.max > 0 ? ` of ${m.weight(a.max, 0)}` : ''}${a.ok ? '' : ' OVER'}`,
    );
    textCell(doc, `Axle loads: ${axles.join('  ·  ')}`, MARGIN, y, CONTENT_WIDTH, {
      size: 9,
      bold: over,
      colour: over ? '#c92a2a' : '#222222',
    });
    y += 13;
  }
  doc
    .lineWidth(0.5)
    .strokeColor('#999999')
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + CONTENT_WIDTH, y)
    .stroke();
  y += 4;

  const legendTop = CONTENT_BOTTOM - LEGEND_LINES * LEGEND_LINE_HEIGHT;
  const weightTop = legendTop - WEIGHT_DIAGRAM_HEIGHT;
  const available = weightTop - y;
  // The floor plan takes its natural height up to a third of the room; the 3D view the rest.
  const natural = ((CONTENT_WIDTH - 88) * v.width) / v.length + 36;
  const topHeight = Math.min(natural, available * 0.36);
  const isoHeight = available - topHeight - 4;
  // Right-aligned: the FRONT WALL label sits above the drawing's top-left corner.
  textCell(doc, '3D view (seen from the door side, left wall toward you)', MARGIN + CONTENT_WIDTH - 300, y, 300, {
    size: 7,
    align: 'right',
    colour: '#555555',
  });
  drawIsometricView(
    doc,
    v,
    colourOf,
    { x: MARGIN, y: y + 4, width: CONTENT_WIDTH, height: isoHeight - 4 },
    { deckHeight: ctx.deckHeight ?? null, ...(ctx.round ? { round: ctx.round } : {}), measures: m },
  );
  y += isoHeight + 4;
  textCell(doc, 'Floor plan (from above; numbers = loading steps of each stack, bottom to top)', MARGIN, y, 400, {
    size: 7,
    colour: '#555555',
  });
  const along = drawTopView(
    doc,
    v,
    colourOf,
    { x: MARGIN, y: y + 2, width: CONTENT_WIDTH, height: topHeight - 2 },
    ctx.round,
    m,
  );
  const remarks = drawWeightDiagram(doc, v, along, weightTop + 2, m);
  const entries = legendEntries(v.placements);
  const { drawn } = drawLegend(
    doc,
    entries,
    colourOf,
    legendTop + 2,
    LEGEND_LINES,
    `colour key continued on page ${page + 2} →`,
    ctx.round,
  );
  return { legendRest: entries.slice(drawn), pagesSlot, remarks };
}

/** Writes `text` into a slot left on an earlier page (switches pages: add or switch a page afterwards). */
export function fillTextSlot(doc: Doc, slot: TextSlot, text: string): void {
  doc.switchToPage(slot.page);
  textCell(doc, text, slot.x, slot.y, slot.width, { size: 9 });
}
