/**
 * Page frame of the load-plan PDF: A4 landscape in PDF points (1/72 in), the margins, and the
 * text primitives every page uses. All text is drawn with `lineBreak: false` at explicit
 * positions, so pdfkit never wraps or adds a page by itself; long strings are shortened with an
 * ellipsis to their column.
 */
/// <reference types="pdfkit" />
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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

/** Names under which renderPlanPdf registers the embedded fonts (DejaVu Sans: Latin, Greek, Cyrillic…). */
export const FONT = 'Body';
export const FONT_BOLD = 'Bold';

const fontDir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
/** TrueType files of FONT and FONT_BOLD (package dejavu-fonts-ttf). */
export const FONT_FILES: Readonly<Record<string, string>> = {
  [FONT]: join(fontDir, 'DejaVuSans.ttf'),
  [FONT_BOLD]: join(fontDir, 'DejaVuSans-Bold.ttf'),
};

const fitCache = new Map<string, string>();

/**
 * `text` shortened with a trailing ellipsis so it is at most `width` pt wide in the current
 * font and size, after printableText (control characters dropped, lone surrogates replaced); the
 * embedded Unicode font shows the rest (scripts it lacks, such as CJK, come out as empty boxes).
 */
export function fitText(doc: Doc, text: string, width: number, font: string, size: number): string {
  const key = `${font}|${size}|${width}|${text}`;
  const hit = fitCache.get(key);
  if (hit !== undefined) return hit;
  const clean = printableText(text);
  let out = clean;
  if (doc.widthOfString(clean) > width) {
    // Cut between code points, never inside a surrogate pair.
    const points = Array.from(clean);
    let lo = 0;
    let hi = points.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (doc.widthOfString(`${points.slice(0, mid).join('')}…`) <= width) lo = mid;
      else hi = mid - 1;
    }
    out = `${points.slice(0, lo).join('')}…`;
  }
  if (fitCache.size > 20000) fitCache.clear();
  fitCache.set(key, out);
  return out;
}

/** Line breaks and tabs: shown as one space on the single line of a text cell. */
const BREAKS = /^[\t\n\v\f\r\u0085\u2028\u2029]$/;
/** Bidi embeddings, overrides and isolates: pdfkit lays text out left to right and has no glyphs for them. */
const BIDI_CONTROLS = /^[\u202a-\u202e\u2066-\u2069]$/;

/**
 * Any JavaScript string (any valid JSON string: lone surrogates included) as text the PDF can
 * print on one line and keep in its metadata: a lone surrogate becomes U+FFFD (pdfkit hashes
 * the metadata through encodeURIComponent, which throws URIError on one), line breaks and tabs
 * become a space, other control characters (C0, DEL, C1) and bidi controls are dropped.
 * Everything else is kept; glyphs the embedded font lacks come out as empty boxes.
 */
export function printableText(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) out += '\ufffd';
    else if (BREAKS.test(ch)) out += ' ';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || BIDI_CONTROLS.test(ch)) continue;
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

/**
 * `text` broken at spaces into lines of at most `width` pt in `font` at `size`, at most
 * `maxLines` lines; a word longer than a line and the rest after the last line are shortened
 * with an ellipsis (fitText). After printableText. At least one line (possibly empty).
 */
export function wrapText(doc: Doc, text: string, width: number, font: string, size: number, maxLines: number): string[] {
  doc.font(font).fontSize(size);
  const words = printableText(text).split(' ');
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < words.length; i++) {
    const candidate = line === '' ? words[i]! : `${line} ${words[i]}`;
    if (line === '' || doc.widthOfString(candidate) <= width) {
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
