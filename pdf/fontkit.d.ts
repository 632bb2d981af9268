/**
 * The part of fontkit (pdfkit's font engine, package `fontkit`, no types of its own) the PDF
 * renderer uses: which code points a font file has a glyph for (pdf/fonts.ts).
 */
declare module 'fontkit' {
  /** An opened font file (TTF, OTF, WOFF, WOFF2; a collection is not used here). */
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
    /** Ascent (hhea), font units. */
    ascent: number;
    unitsPerEm: number;
  }
  /** Opens the font file at `path`; throws when it is missing or not a font. */
  export function openSync(path: string): Font;
}
