/**
 * Page frame of the load-plan PDF: A4 landscape in PDF points (1/72 in), the margins, and the
 * text primitives every page uses. All text is drawn with `lineBreak: false` at explicit
 * positions, so pdfkit never wraps or adds a page by itself; long strings are shortened with an
 * ellipsis to their column.
 */
/// <reference types="pdfkit" />
import { BIDI_FORMATTING } from '../display/text.js';
import { FONT, FONT_BOLD, ascentOf } from './fonts.js';
import { textRuns, type TextRun } from './text-runs.js';

export { FONT, FONT_BOLD, FONT_FILES } from './fonts.js';

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

const runCache = new Map<string, TextRun[]>();

/** The runs of `text` (printable) in `font`'s fallback chain, in visual order (text-runs.ts); cached. */
function runsOf(text: string, font: string): TextRun[] {
  const key = `${font}|${text}`;
  let runs = runCache.get(key);
  if (!runs) {
    runs = textRuns(text, font);
    if (runCache.size > 20000) runCache.clear();
    runCache.set(key, runs);
  }
  return runs;
}

const plain = (runs: readonly TextRun[], font: string): boolean =>
  runs.length === 0 || (runs.length === 1 && runs[0]!.font === font);

/**
 * Width (pt) of printable `text` in `font` (FONT or FONT_BOLD, with its fallback fonts) at the
 * current font size. Leaves `font` as the current font.
 */
export function textWidth(doc: Doc, text: string, font: string): number {
  const runs = runsOf(text, font);
  if (plain(runs, font)) return doc.font(font).widthOfString(text);
  let w = 0;
  for (const r of runs) w += doc.font(r.font).widthOfString(r.text);
  doc.font(font);
  return w;
}

/**
 * Draws printable `text` on one line with its top at (x, y) in `font` (with its fallback fonts)
 * at `size` (pt, the current size) and the current colour: each run in its font, on the body
 * font's baseline. Leaves `font` as the current font.
 */
export function drawText(doc: Doc, text: string, x: number, y: number, font: string, size: number): void {
  const runs = runsOf(text, font);
  if (plain(runs, font)) {
    doc.font(font).text(text, x, y, { lineBreak: false });
    return;
  }
  const baseline = y + ascentOf(font) * size;
  let tx = x;
  for (const r of runs) {
    doc.font(r.font).text(r.text, tx, baseline, { lineBreak: false, baseline: 'alphabetic' });
    tx += doc.widthOfString(r.text);
  }
  doc.font(font);
}

const fitCache = new Map<string, string>();

/**
 * `text` shortened with a trailing ellipsis so it is at most `width` pt wide in `font` (with its
 * fallback fonts: fonts.ts) at `size`, after printableText (control characters dropped, lone
 * surrogates replaced).
 */
export function fitText(doc: Doc, text: string, width: number, font: string, size: number): string {
  const key = `${font}|${size}|${width}|${text}`;
  const hit = fitCache.get(key);
  if (hit !== undefined) return hit;
  doc.font(font).fontSize(size);
  const clean = printableText(text);
  let out = clean;
  if (textWidth(doc, clean, font) > width) {
    // Cut between code points, never inside a surrogate pair.
    const points = Array.from(clean);
    let lo = 0;
    let hi = points.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (textWidth(doc, `${points.slice(0, mid).join('')}…`, font) <= width) lo = mid;
      else hi = mid - 1;
    }
    out = `${points.slice(0, lo).join('')}…`;
  }
  if (fitCache.size > 20000) fitCache.clear();
  fitCache.set(key, out);
  return out;
}

const isBidiFormatting = (ch: string): boolean => ch.replace(BIDI_FORMATTING, '') === '';

/** Line breaks and tabs: shown as one space on the single line of a text cell. */
const BREAKS = /^[\t\n\v\f\r\u0085\u2028\u2029]$/;

/**
 * Any JavaScript string (any valid JSON string: lone surrogates included) as text the PDF can
 * print on one line and keep in its metadata: a lone surrogate becomes U+FFFD (pdfkit hashes
 * the metadata through encodeURIComponent, which throws URIError on one), line breaks and tabs
 * become a space, other control characters (C0, DEL, C1) and explicit bidi formatting characters
 * (display/text.ts: the text runs are ordered by the bidi algorithm) are dropped. Everything else
 * is kept; a glyph no embedded font has comes out as an empty box.
 */
export function printableText(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) out += '\ufffd';
    else if (BREAKS.test(ch)) out += ' ';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || isBidiFormatting(ch)) continue;
    else out += ch;
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
  doc
    .font(font)
    .fontSize(opts.size)
    .fillColor(opts.colour ?? '#000000');
  const shown = fitText(doc, text, width, font, opts.size);
  let tx = x;
  if (opts.align === 'right' || opts.align === 'center') {
    const w = textWidth(doc, shown, font);
    tx = opts.align === 'right' ? x + width - w : x + (width - w) / 2;
  }
  drawText(doc, shown, tx, y, font, opts.size);
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

/**
 * `text` broken at spaces into lines of at most `width` pt in `font` at `size`, at most
 * `maxLines` lines; a word longer than a line and the rest after the last line are shortened
 * with an ellipsis (fitText). After printableText. At least one line (possibly empty).
 */
export function wrapText(
  doc: Doc,
  text: string,
  width: number,
  font: string,
  size: number,
  maxLines: number,
): string[] {
  doc.font(font).fontSize(size);
  const words = printableText(text).split(' ');
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < words.length; i++) {
    const candidate = line === '' ? words[i]! : `${line} ${words[i]}`;
    if (line === '' || textWidth(doc, candidate, font) <= width) {
      line = candidate;
      continue;
    }
    if (lines.length === maxLines - 1) {
      // The last line takes the rest; fitText shortens it.
      line = `${line} ${words.slice(i).join(' ')}`;
      break;
    }
    lines.push(line);
    line = words[i]!;
  }
  lines.push(line);
  return lines.map((l) => fitText(doc, l, width, font, size));
}
