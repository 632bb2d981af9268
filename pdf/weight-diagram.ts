/**
 * The weight diagram of a vehicle page, for every organization: kg per metre of
 * length as bars under the floor plan (same scale along the length), the payload spread evenly
 * as a dashed line, the middle of the cargo space and the centre of gravity, and the remarks on
 * a badly balanced load (domain/pack/load-balance.ts). Axle loads stay an axle-access feature.
 */
import type { PlannedVehicle } from '../domain/pack/plan.js';
import {
  COG_OFFSET_LIMIT,
  MIN_LOAD_SHARE,
  PEAK_LIMIT,
  balanceRemarks,
  evenKgPerMetre,
} from '../domain/pack/load-balance.js';
import { metres } from '../domain/pack/loading-instructions.js';
import { weightDistribution } from '../domain/pack/weight-distribution.js';
import type { LengthScale } from './cargo-views.js';
import { CONTENT_WIDTH, type Doc, MARGIN, formatNumber, textCell } from './page.js';
import { measures, type Measures } from './measures.js';

/** Height the diagram takes on the page, pt: a caption, the bars and two lines of remarks. */
export const WEIGHT_DIAGRAM_HEIGHT = 88;
const PLOT_HEIGHT = 42;

/** The smallest of 1, 2, 2.5, 5 × 10^k at or above `v` (> 0): the top of the kg/m scale. */
export function niceCeiling(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v - 1e-9) return m * p;
  return 10 * p;
}

/**
 * Draws the diagram of `v` with its top at `y` (pt), x lined up with the floor plan through
 * `along` (page x of the front wall and pt per cm). Returns the remarks printed (empty when the
 * load is balanced), for the caller and the tests.
 */
export function drawWeightDiagram(
  doc: Doc,
  v: PlannedVehicle,
  along: LengthScale,
  y: number,
  m: Measures = measures(),
): string[] {
  // Sections stay one metre long; imperial prints lb/ft and distances in ft.
  const dist = (cm: number): string => (m.distanceUnit === 'm' ? metres(cm) : (cm / m.cmPerDistance).toFixed(2));
  const perLength = (kgPerMetre: number): string => `${formatNumber(m.perLength(kgPerMetre), 0)} ${m.perLengthUnit}`;
  const d = weightDistribution(v.placements, v.length);
  const vehicle = { length: v.length, maxWeight: v.max_weight };
  const remarks = balanceRemarks(d, vehicle).map((r) => r.message);
  const even = evenKgPerMetre(vehicle);
  const X = (cm: number): number => along.x0 + cm * along.scale;
  const heaviest = d.sections.find((s) => s.kgPerMetre === d.peakKgPerMetre && s.kg > 0);
  const cog =
    d.cogX === null || d.cogOffset === null
      ? 'no weight on board'
      : `centre of gravity ${dist(d.cogX)} ${m.distanceUnit} from the front wall, ${dist(Math.abs(d.cogOffset))} ${m.distanceUnit} ${d.cogOffset < 0 ? 'ahead of' : 'behind'} the middle`;
  const peak = heaviest
    ? `  ·  heaviest metre ${perLength(d.peakKgPerMetre)} (${dist(heaviest.from)}–${dist(heaviest.to)} ${m.distanceUnit})`
    : '';
  textCell(
    doc,
    `Weight along the length (${m.perLengthUnit === 'kg/m' ? 'kg per metre' : 'lb per foot'}): ${m.weight(d.totalKg)} ${m.weightUnit}  ·  ${cog}${peak}`,
    MARGIN,
    y,
    CONTENT_WIDTH,
    { size: 7.5, bold: true, colour: '#333333' },
  );

  const top = y + 12,
    base = top + PLOT_HEIGHT;
  const max = niceCeiling(Math.max(d.peakKgPerMetre, even, 1) * 1.05);
  const H = (kgPerMetre: number): number => (kgPerMetre / max) * PLOT_HEIGHT;
  doc.save();
  doc
    .lineWidth(0.4)
    .rect(X(0), top, v.length * along.scale, PLOT_HEIGHT)
    .fillAndStroke('#fafafa', '#bbbbbb');
  for (const s of d.sections) {
    if (s.kg <= 0) continue;
    const over = even > 0 && s.kgPerMetre > PEAK_LIMIT * even;
    doc
      .rect(X(s.from) + 0.5, base - H(s.kgPerMetre), Math.max(0.5, (s.to - s.from) * along.scale - 1), H(s.kgPerMetre))
      .fill(over ? '#d9480f' : '#5b7896');
  }
  if (even > 0) {
    doc
      .lineWidth(0.7)
      .dash(3, { space: 2 })
      .strokeColor('#2b8a3e')
      .moveTo(X(0), base - H(even))
      .lineTo(X(v.length), base - H(even))
      .stroke()
      .undash();
  }
  doc
    .lineWidth(0.6)
    .dash(2, { space: 2 })
    .strokeColor('#777777')
    .moveTo(X(v.length / 2), top)
    .lineTo(X(v.length / 2), base)
    .stroke()
    .undash();
  if (d.cogX !== null) {
    const cx = X(d.cogX);
    doc
      .lineWidth(1.2)
      .strokeColor('#000000')
      .moveTo(cx, top - 2)
      .lineTo(cx, base)
      .stroke();
    doc.polygon([cx - 4, base + 5], [cx + 4, base + 5], [cx, base]).fill('#000000');
  }
  doc.restore();
  textCell(doc, perLength(max), X(0) - 44, top - 1, 42, { size: 6, align: 'right', colour: '#555555' });
  textCell(doc, '0', X(0) - 44, base - 6, 42, { size: 6, align: 'right', colour: '#555555' });
  textCell(doc, 'middle', X(v.length / 2) + 2, top + 1, 40, { size: 6, colour: '#555555' });
  if (d.cogX !== null) textCell(doc, 'CoG', X(d.cogX) - 20, base + 5, 16, { size: 6, bold: true, align: 'right' });
  if (even > 0) {
    // Above the line, or under it when the line runs along the top of the plot.
    const ly = H(even) > PLOT_HEIGHT - 9 ? base - H(even) + 2 : base - H(even) - 8;
    textCell(doc, `payload spread evenly ${perLength(even)}`, X(v.length) - 182, ly, 180, {
      size: 6,
      align: 'right',
      colour: '#2b8a3e',
    });
  }

  let ry = base + 8;
  const light =
    d.totalKg < MIN_LOAD_SHARE * v.max_weight &&
    d.cogOffset !== null &&
    Math.abs(d.cogOffset) > COG_OFFSET_LIMIT * v.length;
  if (remarks.length === 0 && light) {
    textCell(
      doc,
      `A light load (under ${MIN_LOAD_SHARE * 100} % of the payload): where it stands does not unbalance the vehicle.`,
      MARGIN,
      ry + 2,
      CONTENT_WIDTH,
      { size: 7, colour: '#2b8a3e' },
    );
  } else if (remarks.length === 0) {
    textCell(
      doc,
      `Balanced: the centre of gravity lies within ${COG_OFFSET_LIMIT * 100} % of the length from the middle and no metre carries over ${PEAK_LIMIT} × the payload spread evenly.`,
      MARGIN,
      ry + 2,
      CONTENT_WIDTH,
      { size: 7, colour: '#2b8a3e' },
    );
  }
  for (const r of remarks) {
    textCell(doc, `Check: ${r}`, MARGIN, ry + 2, CONTENT_WIDTH, { size: 7.5, bold: true, colour: '#d9480f' });
    ry += 10;
  }
  return remarks;
}
