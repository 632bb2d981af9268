/**
 * The colour key of a vehicle's items (it lists every item): one entry per item
 * on board, "swatch label (item_id) × count", flowed in lines; when the lines run out the rest
 * continues on the next page.
 */
import type { Placement } from '../domain/pack/plan.js';
import type { ColourOf, RoundItems } from './cargo-views.js';
import { CONTENT_WIDTH, type Doc, FONT, FONT_BOLD, MARGIN, drawText, fitText, textCell, textWidth } from './page.js';

/** One item of the key. */
export interface LegendEntry {
  itemId: string;
  label: string;
  count: number;
}

/** Line height of the key, pt. */
export const LEGEND_LINE_HEIGHT = 12;
const SIZE = 7.5;

/** The entries of `placements`, one per item_id in order of first loading step. */
export function legendEntries(placements: readonly Placement[]): LegendEntry[] {
  const byItem = new Map<string, LegendEntry>();
  for (const p of [...placements].sort((a, b) => a.step - b.step)) {
    const e = byItem.get(p.item_id);
    if (e === undefined) byItem.set(p.item_id, { itemId: p.item_id, label: p.label, count: 1 });
    else e.count++;
  }
  return [...byItem.values()];
}

/**
 * Draws `entries` from the left margin at `top` (pt) in at most `maxLines` lines of the content
 * width. Labels are shortened only when an entry is longer than a whole line. When not all fit,
 * the last line ends with `more` (e.g. "continued on page 3 →") and the count drawn is returned;
 * the caller continues with the rest. Returns how many entries were drawn and the y below.
 * Items in `round` get a round swatch (cylinders and drums).
 */
export function drawLegend(
  doc: Doc,
  entries: readonly LegendEntry[],
  colourOf: ColourOf,
  top: number,
  maxLines: number,
  more = 'continued on the next page →',
  round?: RoundItems,
): { drawn: number; y: number } {
  const right = MARGIN + CONTENT_WIDTH;
  doc.font(FONT_BOLD).fontSize(SIZE);
  const moreWidth = doc.widthOfString(more) + 8;
  let x = MARGIN,
    line = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const text = fitText(doc, `${e.label} (${e.itemId}) × ${e.count}`, CONTENT_WIDTH - 24 - moreWidth, FONT, SIZE);
    doc.font(FONT).fontSize(SIZE);
    const w = 12 + textWidth(doc, text, FONT) + 14;
    const lastLine = line === maxLines - 1;
    // On the last line keep room for the continuation note unless this is the last entry.
    const room = right - x - (lastLine && i < entries.length - 1 ? moreWidth : 0);
    if (w > room && x > MARGIN) {
      if (lastLine) {
        textCell(doc, more, right - moreWidth + 8, top + line * LEGEND_LINE_HEIGHT + 1.5, moreWidth - 8, {
          size: SIZE,
          bold: true,
          align: 'right',
        });
        return { drawn: i, y: top + (line + 1) * LEGEND_LINE_HEIGHT };
      }
      line++;
      x = MARGIN;
    }
    const y = top + line * LEGEND_LINE_HEIGHT;
    if (round?.has(e.itemId) === true)
      doc
        .lineWidth(0.4)
        .circle(x + 4.5, y + 4.5, 4.5)
        .fillAndStroke(colourOf(e.itemId), '#333333');
    else doc.lineWidth(0.4).rect(x, y, 9, 9).fillAndStroke(colourOf(e.itemId), '#333333');
    doc.font(FONT).fontSize(SIZE).fillColor('#000000');
    drawText(doc, text, x + 12, y + 1.5, FONT, SIZE);
    x += w;
  }
  return { drawn: entries.length, y: top + (entries.length === 0 ? 0 : line + 1) * LEGEND_LINE_HEIGHT };
}
