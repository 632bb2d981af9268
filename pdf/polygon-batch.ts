/**
 * Filled and outlined polygons written to a PDF page as one chunk of content operators. pdfkit
 * turns every path and colour call into its own small buffer (about 27 for one shaded box), so
 * the pictures of a 2,000-unit load spent most of their time allocating and collecting them;
 * one chunk per batch draws the same thing (the PDF of a 2,000-unit plan renders in a
 * few seconds). Points are in the page's coordinates as pdfkit's own drawing calls take them.
 */
import type { Doc } from './page.js';

/** A point on the page, pt, y down. */
export type PagePoint = readonly [number, number];

/** A step of a page path: a line to one point, or a cubic Bézier curve (two control points, then the end). */
export type PageStep = readonly [PagePoint] | readonly [PagePoint, PagePoint, PagePoint];

const rgbCache = new Map<string, string>();

/** "0.306 0.475 0.655" for "#4e79a7": the operands of the rg / RG operators. */
function rgb(hex: string): string {
  let out = rgbCache.get(hex);
  if (out === undefined) {
    const n = parseInt(hex.slice(1), 16);
    out = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => +(c / 255).toFixed(3)).join(' ');
    if (rgbCache.size > 4096) rgbCache.clear();
    rgbCache.set(hex, out);
  }
  return out;
}

const num = (v: number): string => (Math.round(v * 100) / 100).toString();
/** Curves to a tenth of a point (0.035 mm): a disc or cylinder face has 4–9 curves, the hundredths only grew the file. */
const num1 = (v: number): string => (Math.round(v * 10) / 10).toString();

/**
 * Polygons to fill with one `#rrggbb` colour and outline with another, in drawing order, at the
 * line width and join currently set on the document. `flush` writes what was added; call it
 * before drawing anything else that must land between the polygons (text, pdfkit shapes).
 */
export class PolygonBatch {
  private parts: string[] = [];

  /** Adds a polygon of at least three points. */
  add(points: readonly PagePoint[], fill: string, stroke: string): void {
    let path = `${rgb(fill)} rg ${rgb(stroke)} RG ${num(points[0]![0])} ${num(points[0]![1])} m`;
    for (let i = 1; i < points.length; i++) path += ` ${num(points[i]![0])} ${num(points[i]![1])} l`;
    this.parts.push(`${path} h B`);
  }

  /**
   * Adds a closed path of lines and cubic curves from `start` (a disc or a cylinder face of a
   * round unit: one path each).
   */
  addPath(start: PagePoint, steps: readonly PageStep[], fill: string, stroke: string): void {
    let path = `${rgb(fill)} rg ${rgb(stroke)} RG ${num1(start[0])} ${num1(start[1])} m`;
    for (const step of steps) {
      path +=
        step.length === 1
          ? ` ${num1(step[0][0])} ${num1(step[0][1])} l`
          : ` ${num1(step[0][0])} ${num1(step[0][1])} ${num1(step[1][0])} ${num1(step[1][1])} ${num1(step[2][0])} ${num1(step[2][1])} c`;
    }
    this.parts.push(`${path} h B`);
  }

  /** Writes the polygons added since the last flush to the current page of `doc`. */
  flush(doc: Doc): void {
    if (this.parts.length === 0) return;
    doc.addContent(this.parts.join('\n'));
    this.parts = [];
  }
}
