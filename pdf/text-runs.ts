/**
 * One line of PDF text as runs pdfkit can draw one after the other, left to right: each run in
 * one font of the fallback chain (fonts.ts; pdfkit has no fallback of its own) and the runs in
 * visual order by the Unicode bidi algorithm (package bidi-js), so an Arabic or Hebrew label
 * reads right to left among left-to-right words.
 *
 * Fonts: each character takes the first font of the chain with a glyph for it; Arabic letters
 * prefer the Arabic font; combining marks, joiners, variation selectors and emoji modifiers stay
 * with the character before them, spaces and punctuation too when its font has them; a
 * character no font has stays in the body font (its missing-glyph box).
 *
 * Direction: every line is a left-to-right paragraph (the plan's words are English), in which an
 * Arabic or Hebrew label reads right to left. A right-to-left run is handed over in logical order when fontkit will
 * lay it out right to left itself (its script is Arabic, Hebrew, Syriac, Thaana or N'Ko: fontkit
 * shapes and reverses such runs), else reversed here; mirrored brackets are swapped first.
 */
import bidiModule, { type Bidi } from 'bidi-js';
import { fallbackChain, hasGlyph, isArabicFont } from './fonts.js';

/** Text drawn in one font, in the order its glyphs stand on the line. */
export interface TextRun {
  font: string;
  text: string;
}

/** Scripts fontkit lays out right to left by itself. */
const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const ARABIC_SCRIPT = /\p{Script=Arabic}/u;
/** Characters that belong with the one before: marks, ZWNJ/ZWJ, variation selectors, keycap, skin tones, tags. */
const ATTACHES = /^(?:\p{M}|\u200c|\u200d|\ufe0e|\ufe0f|\u20e3|[\u{1f3fb}-\u{1f3ff}]|[\u{e0020}-\u{e007f}])$/u;
/** Spaces and punctuation: kept in the run they follow when its font has them. */
const NEUTRAL = /^[\p{Zs}\p{P}]$/u;

// bidi-js is CommonJS whose module.exports is the factory; its types declare it as `default`.
const bidiFactory = bidiModule as unknown as () => Bidi;
let bidi: Bidi | null = null;

interface LogicalRun {
  font: string;
  /** Code units [start, end) of the text. */
  start: number;
  end: number;
}

function fontOf(ch: string, chain: readonly string[]): string {
  const cp = ch.codePointAt(0)!;
  if (ARABIC_SCRIPT.test(ch)) {
    const ar = chain.find(isArabicFont);
    if (ar !== undefined && hasGlyph(ar, cp)) return ar;
  }
  return chain.find((f) => hasGlyph(f, cp)) ?? chain[0]!;
}

/** `text` split into runs of one font each, in logical order. */
function logicalRuns(text: string, chain: readonly string[]): LogicalRun[] {
  const runs: LogicalRun[] = [];
  let i = 0;
  for (const ch of text) {
    const cur = runs[runs.length - 1];
    if (cur && (ATTACHES.test(ch) || (NEUTRAL.test(ch) && hasGlyph(cur.font, ch.codePointAt(0)!))))
      cur.end += ch.length;
    else {
      const font = fontOf(ch, chain);
      if (cur && cur.font === font) cur.end += ch.length;
      else runs.push({ font, start: i, end: i + ch.length });
    }
    i += ch.length;
  }
  return runs;
}

/**
 * `text` (one line, no controls: page.ts printableText) as runs in visual order, left to right,
 * drawn with the fallback chain of `font` (FONT or FONT_BOLD). Empty text gives no runs.
 */
export function textRuns(text: string, font: string): TextRun[] {
  const chain = fallbackChain(font);
  const runs = logicalRuns(text, chain);
  if (!RTL_SCRIPT.test(text)) return runs.map((r) => ({ font: r.font, text: text.slice(r.start, r.end) }));

  bidi ??= bidiFactory();
  const levels = bidi.getEmbeddingLevels(text, 'ltr');
  const units = text.split('');
  for (const [index, mirror] of bidi.getMirroredCharactersMap(text, levels.levels)) units[index] = mirror;
  const fontAt: string[] = new Array<string>(text.length);
  for (const r of runs) fontAt.fill(r.font, r.start, r.end);
  const order = bidi.getReorderedIndices(text, levels);

  // Consecutive visual positions of one font and level whose logical indices step by one
  // (up at an even level, down at an odd one) form one run.
  const out: TextRun[] = [];
  let piece: { font: string; level: number; lo: number; hi: number; last: number } | null = null;
  const flush = (): void => {
    if (!piece) return;
    const logical = units.slice(piece.lo, piece.hi + 1).join('');
    const rtl = piece.level % 2 === 1;
    out.push({
      font: piece.font,
      text: rtl && !RTL_SCRIPT.test(logical) ? Array.from(logical).reverse().join('') : logical,
    });
    piece = null;
  };
  for (const index of order) {
    const level = levels.levels[index]!;
    const f = fontAt[index]!;
    const step = level % 2 === 1 ? -1 : 1;
    if (piece && piece.font === f && piece.level === level && index === piece.last + step) {
      piece.lo = Math.min(piece.lo, index);
      piece.hi = Math.max(piece.hi, index);
      piece.last = index;
    } else {
      flush();
      piece = { font: f, level, lo: index, hi: index, last: index };
    }
  }
  flush();
  return out;
}
