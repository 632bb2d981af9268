/**
 * Page frame of the load-plan PDF: A4 landscape in PDF points (1/72 in), the margins, and the
 * text primitives every page uses. All text is drawn with `lineBreak: false` at explicit
 * positions, so pdfkit never wraps or adds a page by itself; long strings are shortened with an
 * ellipsis to their column.
 */
/// <reference types="pdfkit" />

/** The pdfkit document the page modules draw on (global type from @types/pdfkit). */
export type Doc = PDFKit.PDFDocument;

/** A4 landscape, pt. */
export const PAGE_WIDTH = 841.89;
export const PAGE_HEIGHT = 595.28;
export const MARGIN = 28;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
/** Lowest y (pt from the top) body content may reach; the footer sits below it. */
export const CONTENT_BOTTOM = PAGE_HEIGHT - 36;
/** Baseline area of the footer line. */
export const FOOTER_Y = PAGE_HEIGHT - 24;

export const FONT = 'Helvetica';
export const FONT_BOLD = 'Helvetica-Bold';

const fitCache = new Map<string, string>();

/**
 * `text` shortened with a trailing ellipsis so it is at most `width` pt wide in the current
 * font and size. The standard fonts encode WinAnsi only, so characters outside it are replaced
 * by `?` first (pdfkit would otherwise print garbage).
 */
export function fitText(doc: Doc, text: string, width: number, font: string, size: number): string {
  const key = `${font}|${size}|${width}|${text}`;
  const hit = fitCache.get(key);
  if (hit !== undefined) return hit;
  const clean = toWinAnsi(text);
  let out = clean;
  if (doc.widthOfString(clean) > width) {
    let lo = 0;
    let hi = clean.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (doc.widthOfString(`${clean.slice(0, mid)}…`) <= width) lo = mid;
      else hi = mid - 1;
    }
    out = `${clean.slice(0, lo)}…`;
  }
  if (fitCache.size > 20000) fitCache.clear();
  fitCache.set(key, out);
  return out;
}

/** Characters the standard 14 fonts can show (Latin-1 plus the WinAnsi extras we use). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Common symbols outside WinAnsi, spelled with characters it has. */
const SPELLED: Readonly<Record<string, string>> = { '→': '->', '←': '<-', '↔': '<->', '≤': '<=', '≥': '>=', '≈': '~', '−': '-' };

function toWinAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    out += (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch) ? ch : (SPELLED[ch] ?? '?');
  }
  return out;
}

/** Alignment of a text cell. */
export type Align = 'left' | 'right' | 'center';

/**
 * Draws one line of text in the box starting at (x, y) of width `width`, pt; shortened to fit.
 * Sets font, size and colour.
 */
export function textCell(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  width: number,
  opts: { size: number; bold?: boolean; align?: Align; colour?: string },
): void {
  const font = opts.bold === true ? FONT_BOLD : FONT;
  doc.font(font).fontSize(opts.size).fillColor(opts.colour ?? '#000000');
  const shown = fitText(doc, text, width, font, opts.size);
  let tx = x;
  if (opts.align === 'right' || opts.align === 'center') {
    const w = doc.widthOfString(shown);
    tx = opts.align === 'right' ? x + width - w : x + (width - w) / 2;
  }
  doc.text(shown, tx, y, { lineBreak: false });
}

/** `n` with at most `decimals` decimals, thousands separated by a thin comma: 18450 → "18,450". */
export function formatNumber(n: number, decimals = 0): string {
  const fixed = n.toFixed(decimals);
  const [int, frac] = fixed.split('.');
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const trimmed = frac?.replace(/0+$/, '') ?? '';
  return trimmed.length > 0 ? `${grouped}.${trimmed}` : grouped;
}

/** A 0–1 ratio as a percentage with one decimal: 0.7691 → "76.9 %". */
export function formatPercent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}
