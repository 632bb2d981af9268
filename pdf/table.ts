/**
 * Plain tables for the load-plan PDF: a header row and zebra-striped rows of single-line cells,
 * optionally with a colour swatch cell. Positions in pt from the top-left of the page.
 */
import { type Align, type Doc, textCell } from './page.js';

/** One column: title, width (pt) and alignment. */
export interface Column {
  title: string;
  width: number;
  align?: Align;
}

/** A cell: text, or a colour swatch (`#rrggbb`; a disc for round items). */
export type Cell = string | { swatch: string; round?: boolean };

/** Row height of body rows, pt. */
export const ROW_HEIGHT = 11.5;
/** Height of the header row, pt. */
export const HEADER_ROW_HEIGHT = 14;
const BODY_SIZE = 8;
const HEADER_SIZE = 8;
const PAD = 3;

/** Total width of `columns`, pt. */
export function tableWidth(columns: readonly Column[]): number {
  return columns.reduce((w, c) => w + c.width, 0);
}

/** Draws the header row at (x, y); returns the y below it. */
export function drawHeaderRow(doc: Doc, columns: readonly Column[], x: number, y: number): number {
  doc.rect(x, y, tableWidth(columns), HEADER_ROW_HEIGHT).fill('#2f3e4e');
  let cx = x;
  for (const c of columns) {
    textCell(doc, c.title, cx + PAD, y + 3.5, c.width - 2 * PAD, {
      size: HEADER_SIZE,
      bold: true,
      align: c.align ?? 'left',
      colour: '#ffffff',
    });
    cx += c.width;
  }
  return y + HEADER_ROW_HEIGHT;
}

/** Draws one body row at (x, y); `stripe` shades it. Returns the y below it. */
export function drawRow(
  doc: Doc,
  columns: readonly Column[],
  cells: readonly Cell[],
  x: number,
  y: number,
  opts: { stripe: boolean; bold?: boolean },
): number {
  if (opts.stripe) doc.rect(x, y, tableWidth(columns), ROW_HEIGHT).fill('#eef1f4');
  let cx = x;
  columns.forEach((c, i) => {
    const cell = cells[i] ?? '';
    if (typeof cell === 'string') {
      textCell(doc, cell, cx + PAD, y + 2.2, c.width - 2 * PAD, {
        size: BODY_SIZE,
        bold: opts.bold === true,
        align: c.align ?? 'left',
      });
    } else {
      const side = ROW_HEIGHT - 3;
      if (cell.round === true)
        doc
          .circle(cx + c.width / 2, y + 1.5 + side / 2, side / 2)
          .lineWidth(0.4)
          .fillAndStroke(cell.swatch, '#333333');
      else
        doc
          .rect(cx + (c.width - side) / 2, y + 1.5, side, side)
          .lineWidth(0.4)
          .fillAndStroke(cell.swatch, '#333333');
    }
    cx += c.width;
  });
  return y + ROW_HEIGHT;
}

/** Where a body row was drawn: 0-based page index (pages are buffered) and top y, pt. */
export interface RowSlot {
  page: number;
  y: number;
}

/**
 * Flows `rows` below `y`, starting new pages as needed: `newPage()` must add a page, draw its
 * heading and return the y where the table continues (the header row is repeated there).
 * The document must buffer its pages (`bufferPages: true`). Returns the y below the last row
 * and where each row went.
 */
export function flowTable(
  doc: Doc,
  columns: readonly Column[],
  rows: readonly Cell[][],
  x: number,
  y: number,
  bottom: number,
  newPage: () => number,
): { y: number; slots: RowSlot[] } {
  const page = () => {
    const r = doc.bufferedPageRange();
    return r.start + r.count - 1;
  };
  let cy = y;
  if (cy + HEADER_ROW_HEIGHT + ROW_HEIGHT > bottom) cy = newPage();
  cy = drawHeaderRow(doc, columns, x, cy);
  const slots: RowSlot[] = [];
  rows.forEach((row, i) => {
    if (cy + ROW_HEIGHT > bottom) {
      cy = drawHeaderRow(doc, columns, x, newPage());
    }
    slots.push({ page: page(), y: cy });
    cy = drawRow(doc, columns, row, x, cy, { stripe: i % 2 === 1 });
  });
  return { y: cy, slots };
}
