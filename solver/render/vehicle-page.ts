/**
 * The overview page of one loaded vehicle: header (vehicle, copy, type, inner size, weight and
 * volume utilization, centre of gravity), the 3D view, the floor plan and a colour legend of the
 * items on board. The loading steps follow on their own pages (step-table.ts).
 */
import type { PlannedVehicle } from '../../domain/pack/plan.js';
import { type ColourOf, drawIsometricView, drawTopView } from './cargo-views.js';
import { CONTENT_BOTTOM, CONTENT_WIDTH, type Doc, FONT, MARGIN, fitText, formatNumber, formatPercent, textCell } from './page.js';

/** Where the vehicle sits in the document, for the header. */
export interface VehiclePageContext {
  vehicleCount: number;
  /** 1-based page numbers of the vehicle's loading-step pages. */
  stepPages: { first: number; last: number };
  /** Height of the vehicle's second deck, cm; null or absent without one. */
  deckHeight?: number | null;
}

/** "Vehicle 2 of 3 · Mega trailer": the title used on the vehicle's pages. */
export function vehicleTitle(v: PlannedVehicle, vehicleCount: number): string {
  return `Vehicle ${v.index + 1} of ${vehicleCount}  ·  ${v.name}`;
}

/** Inner size "1360 × 248 × 270 cm". */
export function innerSize(v: PlannedVehicle): string {
  return `${formatNumber(v.length, 1)} × ${formatNumber(v.width, 1)} × ${formatNumber(v.height, 1)} cm`;
}

/** Draws the whole overview page of `v` on the current page. */
export function drawVehiclePage(doc: Doc, v: PlannedVehicle, colourOf: ColourOf, ctx: VehiclePageContext): void {
  let y = MARGIN;
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
      `inner ${innerSize(v)} (L × W × H)  ·  payload ${formatNumber(v.max_weight, 1)} kg`,
    MARGIN,
    y,
    CONTENT_WIDTH,
    { size: 9 },
  );
  y += 13;
  const cog = v.center_of_gravity;
  const steps = ctx.stepPages.first === ctx.stepPages.last ? `page ${ctx.stepPages.first}` : `pages ${ctx.stepPages.first}–${ctx.stepPages.last}`;
  textCell(
    doc,
    `${v.items_placed} units  ·  ${formatNumber(v.total_weight, 1)} kg = ${formatPercent(v.weight_utilization)} of payload  ·  ` +
      `volume ${formatPercent(v.volume_utilization)}  ·  centre of gravity x ${formatNumber(cog.x, 1)} / y ${formatNumber(cog.y, 1)} / ` +
      `z ${formatNumber(cog.z, 1)} cm  ·  loading steps: ${steps}`,
    MARGIN,
    y,
    CONTENT_WIDTH,
    { size: 9, bold: true },
  );
  y += 14;
  if (ctx.deckHeight !== undefined && ctx.deckHeight !== null) {
    const deck = ctx.deckHeight;
    const on = v.placements.filter((p) => p.y >= deck - 1e-6);
    const kg = on.reduce((s, p) => s + p.weight, 0);
    textCell(doc, `Second deck at ${formatNumber(deck, 1)} cm: ${on.length} units, ${formatNumber(kg, 1)} kg on it (set the deck before loading them)`, MARGIN, y, CONTENT_WIDTH, { size: 9 });
    y += 13;
  }
  if (v.axle_loads && v.axle_loads.length > 0) {
    // Overloaded axles in red: the crew must not drive off with them.
    const over = v.axle_loads.some((a) => !a.ok);
    const axles = v.axle_loads.map((a) =>
      `${a.name} (${formatNumber(a.position, 0)} cm) ${formatNumber(a.load, 0)} kg${a.max > 0 ? ` of ${formatNumber(a.max, 0)}` : ''}${a.ok ? '' : ' OVER'}`);
    textCell(doc, `Axle loads: ${axles.join('  ·  ')}`, MARGIN, y, CONTENT_WIDTH, { size: 9, bold: over, colour: over ? '#c92a2a' : '#222222' });
    y += 13;
  }
  doc.lineWidth(0.5).strokeColor('#999999').moveTo(MARGIN, y).lineTo(MARGIN + CONTENT_WIDTH, y).stroke();
  y += 4;

  const legendHeight = 28;
  const available = CONTENT_BOTTOM - legendHeight - y;
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
  drawIsometricView(doc, v, colourOf, { x: MARGIN, y: y + 4, width: CONTENT_WIDTH, height: isoHeight - 4 }, ctx.deckHeight ?? null);
  y += isoHeight + 4;
  textCell(doc, 'Floor plan (from above; numbers = loading steps of each stack, bottom to top)', MARGIN, y, 400, {
    size: 7,
    colour: '#555555',
  });
  drawTopView(doc, v, colourOf, { x: MARGIN, y: y + 2, width: CONTENT_WIDTH, height: topHeight - 2 });
  drawLegend(doc, v, colourOf, CONTENT_BOTTOM - legendHeight + 4);
}

/** Up to two lines of "swatch label × count" for the items in `v`, then "+ n more". */
function drawLegend(doc: Doc, v: PlannedVehicle, colourOf: ColourOf, top: number): void {
  const counts = new Map<string, { label: string; count: number }>();
  for (const p of v.placements) {
    const entry = counts.get(p.item_id);
    if (entry === undefined) counts.set(p.item_id, { label: p.label, count: 1 });
    else entry.count++;
  }
  const entries = [...counts.entries()];
  const lineHeight = 12;
  const right = MARGIN + CONTENT_WIDTH;
  let x = MARGIN;
  let line = 0;
  doc.font(FONT).fontSize(7.5);
  for (let i = 0; i < entries.length; i++) {
    const [itemId, { label, count }] = entries[i]!;
    const text = fitText(doc, `${label} (${itemId}) × ${count}`, 220, FONT, 7.5);
    const w = 12 + doc.widthOfString(text) + 12;
    if (x + w > right - 70 && x > MARGIN) {
      if (line === 1) {
        textCell(doc, `+ ${entries.length - i} more items`, x, top + line * lineHeight + 1, right - x, { size: 7.5, bold: true });
        break;
      }
      line++;
      x = MARGIN;
    }
    const y = top + line * lineHeight;
    doc.lineWidth(0.4).rect(x, y, 9, 9).fillAndStroke(colourOf(itemId), '#333333');
    doc.font(FONT).fontSize(7.5).fillColor('#000000').text(text, x + 12, y + 1.5, { lineBreak: false });
    x += w;
  }
}
