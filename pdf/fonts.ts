/**
 * The fonts of the load-plan PDF and their fallback chain. pdfkit has no font fallback, so
 * text is split into runs (text-runs.ts), each drawn in the first font of the chain that has
 * its glyphs:
 * - DejaVu Sans (package dejavu-fonts-ttf): Latin, Greek, Cyrillic, Hebrew, symbols — the body;
 * - Noto Naskh Arabic (package @embedpdf/fonts-arabic): Arabic script, shaped by fontkit;
 * - Noto Sans Hans (package @embedpdf/fonts-sc, CID-keyed OpenType/CFF): Chinese (GB 2312 and
 *   beyond), Japanese kana, CJK punctuation;
 * - Noto Emoji (package @expo-google-fonts/noto-emoji): monochrome emoji.
 * Every font is OFL-1.1 and subset by pdfkit when embedded (only the glyphs used).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openSync, type Font } from 'fontkit';

/** Names under which renderPlanPdf registers the embedded fonts. FONT and FONT_BOLD are the body (DejaVu Sans). */
export const FONT = 'Body';
export const FONT_BOLD = 'Bold';
const ARABIC = 'Arabic';
const ARABIC_BOLD = 'ArabicBold';
const CJK = 'CJK';
const CJK_BOLD = 'CJKBold';
const EMOJI = 'Emoji';
const EMOJI_BOLD = 'EmojiBold';

const require = createRequire(import.meta.url);
const dejavu = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
// The @embedpdf packages export only their index (dist/index.js); the fonts sit beside dist/.
const embedpdf = (pkg: string): string => join(dirname(require.resolve(pkg)), '..', 'fonts');
const arabic = embedpdf('@embedpdf/fonts-arabic');
const cjk = embedpdf('@embedpdf/fonts-sc');
const emoji = dirname(require.resolve('@expo-google-fonts/noto-emoji/package.json'));

/** Font files by registered name (TrueType, or OpenType/CFF for CJK). */
export const FONT_FILES: Readonly<Record<string, string>> = {
  [FONT]: join(dejavu, 'DejaVuSans.ttf'),
  [FONT_BOLD]: join(dejavu, 'DejaVuSans-Bold.ttf'),
  [ARABIC]: join(arabic, 'NotoNaskhArabic-Regular.ttf'),
  [ARABIC_BOLD]: join(arabic, 'NotoNaskhArabic-Bold.ttf'),
  [CJK]: join(cjk, 'NotoSansHans-Regular.otf'),
  [CJK_BOLD]: join(cjk, 'NotoSansHans-Bold.otf'),
  [EMOJI]: join(emoji, '400Regular', 'NotoEmoji_400Regular.ttf'),
  [EMOJI_BOLD]: join(emoji, '700Bold', 'NotoEmoji_700Bold.ttf'),
};

/** The fallback chain of a body font, first choice first: the body itself, then Arabic, CJK, emoji of the same weight. */
export function fallbackChain(font: string): readonly string[] {
  return font === FONT_BOLD ? [FONT_BOLD, ARABIC_BOLD, CJK_BOLD, EMOJI_BOLD] : [FONT, ARABIC, CJK, EMOJI];
}

/** True for the Arabic fonts of the chain (Arabic-script letters prefer them over the body's). */
export const isArabicFont = (font: string): boolean => font === ARABIC || font === ARABIC_BOLD;

const opened = new Map<string, Font>();
/** Coverage per font and code point, filled as text is laid out. */
const coverage = new Map<string, Map<number, boolean>>();

/** The ascent of the registered font `font` as a fraction of the font size (for a common baseline across fonts). */
export function ascentOf(font: string): number {
  hasGlyph(font, 0x20);
  const f = opened.get(font)!;
  return f.ascent / f.unitsPerEm;
}

/** True when the registered font `font` has a glyph for `codePoint` (files opened once per process, on first need). */
export function hasGlyph(font: string, codePoint: number): boolean {
  let known = coverage.get(font);
  if (!known) coverage.set(font, (known = new Map<number, boolean>()));
  const hit = known.get(codePoint);
  if (hit !== undefined) return hit;
  let f = opened.get(font);
  if (!f) {
    const file = FONT_FILES[font];
    if (file === undefined) throw new Error(`unknown PDF font ${font}`);
    opened.set(font, (f = openSync(file)));
  }
  const has = f.hasGlyphForCodePoint(codePoint);
  if (known.size > 50_000) known.clear();
  known.set(codePoint, has);
  return has;
}
