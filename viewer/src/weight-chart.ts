/**
 * The weight distribution diagram of the shown vehicle: kg per metre of length
 * as bars from the front wall to the door, the middle of the length (dashed) and the centre of
 * gravity (magenta) with its offset from the middle, computed by the same pure module as the
 * PDF (domain/pack/weight-distribution.ts). Drawn as SVG. The sections stay one metre long;
 * figures and axes read in the organization's display units (kg/m and m, or lb/ft and ft).
 */
import type { ViewerVehicle } from '../../api/http/plan-viewer/viewer-plan.js';
import { weightDistribution, type WeightDistribution } from '../../domain/pack/weight-distribution.js';
import type { DisplayUnits } from '../../display/units.js';
import { isolatedText } from '../../display/text.js';
import { measureWords, type MeasureWords } from './measure-words.js';

const NS = 'http://www.w3.org/2000/svg';
const LEFT = 64,
  RIGHT = 16,
  TOP = 16,
  BOTTOM = 26;

function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

const whole = (v: number): string => Math.round(v).toLocaleString('en-US');

/** The distribution of `vehicle`'s placements along its length (per metre). */
export function vehicleDistribution(vehicle: ViewerVehicle): WeightDistribution {
  return weightDistribution(
    vehicle.placements.map((p) => ({ x: p.x, length: p.length, weight: p.weight })),
    vehicle.length,
  );
}

/** One sentence in `units`: total, peak and where the centre of gravity lies against the middle. */
export function distributionSummary(d: WeightDistribution, units: DisplayUnits = 'metric'): string {
  const m = measureWords(units);
  const peak = d.sections.reduce((best, s) => (s.kgPerMetre > best.kgPerMetre ? s : best), d.sections[0]!);
  const parts = [
    m.weight(d.totalKg),
    `peak ${whole(m.perLength(d.peakKgPerMetre))} ${m.perLengthUnit} at ${span(m, peak.from, peak.to)}`,
  ];
  if (d.cogX !== null && d.cogOffset !== null) {
    const side =
      Math.abs(d.cogOffset) < 0.5
        ? 'at the middle'
        : `${m.distance(Math.abs(d.cogOffset))} towards the ${d.cogOffset < 0 ? 'front wall' : 'door'} from the middle`;
    parts.push(`centre of gravity ${m.distance(d.cogX)} from the front wall, ${side}`);
  }
  return parts.join(' · ');
}

/** `from`–`to` (cm) along the vehicle with one decimal: "1.0–2.0 m" / "3.3–6.6 ft". */
const span = (m: MeasureWords, from: number, to: number): string =>
  `${(from / m.cmPerDistanceUnit).toFixed(1)}–${m.distance(to, 1)}`;

/** Draws the diagram of `vehicle` into `svg` (at its size on screen, 1 unit = 1 CSS px) in `units` and its summary into `caption`. */
export function showWeightChart(
  svg: SVGSVGElement,
  caption: HTMLElement,
  vehicle: ViewerVehicle,
  units: DisplayUnits = 'metric',
): WeightDistribution {
  const m = measureWords(units);
  const W = Math.max(300, svg.clientWidth || 1000),
    H = Math.max(90, svg.clientHeight || 130);
  const d = vehicleDistribution(vehicle);
  const L = vehicle.length;
  const top = Math.max(1, d.peakKgPerMetre) * 1.1;
  const xOf = (cm: number): number => LEFT + (cm / L) * (W - LEFT - RIGHT);
  const yOf = (kgm: number): number => H - BOTTOM - (kgm / top) * (H - TOP - BOTTOM);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.replaceChildren();
  svg.append(
    el(
      'title',
      {},
      `Weight per ${m.distanceUnit === 'm' ? 'metre' : 'foot'} of length of ${isolatedText(vehicle.name)}`,
    ),
  );
  // Horizontal grid with kg/m (lb/ft) labels at 0, half and the peak.
  for (const v of [0, d.peakKgPerMetre / 2, d.peakKgPerMetre]) {
    svg.append(el('line', { x1: LEFT, x2: W - RIGHT, y1: yOf(v), y2: yOf(v), class: 'grid' }));
    svg.append(el('text', { x: LEFT - 6, y: yOf(v) + 4, 'text-anchor': 'end', class: 'axis' }, whole(m.perLength(v))));
  }
  svg.append(el('text', { x: 4, y: TOP - 4, class: 'axis' }, m.perLengthUnit));
  for (const s of d.sections) {
    const bar = el('rect', {
      x: xOf(s.from) + 1,
      y: yOf(s.kgPerMetre),
      width: Math.max(0.5, xOf(s.to) - xOf(s.from) - 2),
      height: Math.max(0, yOf(0) - yOf(s.kgPerMetre)),
      class: 'bar',
    });
    bar.dataset['from'] = String(s.from);
    bar.dataset['kgPerMetre'] = String(s.kgPerMetre);
    bar.append(
      el(
        'title',
        {},
        `${span(m, s.from, s.to)}: ${whole(m.perLength(s.kgPerMetre))} ${m.perLengthUnit} (${m.weight(s.kg)})`,
      ),
    );
    svg.append(bar);
  }
  // Distance ticks: every metre (2 m past 20 m), or every 2 ft (5 ft past 60 ft).
  const stepM = m.distanceUnit === 'm' ? (L > 2000 ? 2 : 1) : L > 60 * m.cmPerDistanceUnit ? 5 : 2;
  for (let d = 0; d * m.cmPerDistanceUnit <= L + 1e-6; d += stepM) {
    svg.append(
      el(
        'text',
        { x: xOf(d * m.cmPerDistanceUnit), y: H - 8, 'text-anchor': 'middle', class: 'axis' },
        `${d} ${m.distanceUnit}`,
      ),
    );
  }
  svg.append(el('line', { x1: xOf(L / 2), x2: xOf(L / 2), y1: TOP, y2: H - BOTTOM, class: 'middle' }));
  // "middle" and the centre of gravity label on two heights, each on the side of its line with room.
  const side = (x: number, room: number): { x: number; 'text-anchor': string } =>
    x + room > W - RIGHT ? { x: x - 4, 'text-anchor': 'end' } : { x: x + 4, 'text-anchor': 'start' };
  svg.append(el('text', { ...side(xOf(L / 2), 60), y: TOP + 10, class: 'axis' }, 'middle'));
  if (d.cogX !== null) {
    svg.append(el('line', { x1: xOf(d.cogX), x2: xOf(d.cogX), y1: TOP, y2: H - BOTTOM, class: 'cog' }));
    svg.append(el('text', { ...side(xOf(d.cogX), 130), y: TOP + 26, class: 'cog-label' }, 'centre of gravity'));
  }
  svg.append(el('text', { x: LEFT + 2, y: TOP - 4, 'text-anchor': 'start', class: 'axis end' }, '← front wall'));
  svg.append(el('text', { x: W - RIGHT, y: TOP - 4, 'text-anchor': 'end', class: 'axis end' }, 'door →'));
  svg.dataset['totalKg'] = String(d.totalKg);
  svg.dataset['cogX'] = d.cogX === null ? '' : String(d.cogX);
  svg.dataset['cogOffset'] = d.cogOffset === null ? '' : String(d.cogOffset);
  svg.dataset['sections'] = String(d.sections.length);
  caption.textContent = distributionSummary(d, units);
  return d;
}
