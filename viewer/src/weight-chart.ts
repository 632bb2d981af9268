/**
 * The weight distribution diagram of the shown vehicle (issue 9 item 3): kg per metre of length
 * as bars from the front wall to the door, the middle of the length (dashed) and the centre of
 * gravity (magenta) with its offset from the middle, computed by the same pure module as the
 * PDF (domain/pack/weight-distribution.ts). Drawn as SVG.
 */
import type { ViewerVehicle } from '../../api/viewer-plan.js';
import { weightDistribution, type WeightDistribution } from '../../domain/pack/weight-distribution.js';

const NS = 'http://www.w3.org/2000/svg';
const LEFT = 64, RIGHT = 16, TOP = 16, BOTTOM = 26;

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

const metres = (cm: number): string => `${(cm / 100).toFixed(2)} m`;
const whole = (v: number): string => Math.round(v).toLocaleString('en-US');

/** The distribution of `vehicle`'s placements along its length (per metre). */
export function vehicleDistribution(vehicle: ViewerVehicle): WeightDistribution {
  return weightDistribution(vehicle.placements.map((p) => ({ x: p.x, length: p.length, weight: p.weight })), vehicle.length);
}

/** One sentence: total, peak and where the centre of gravity lies against the middle. */
export function distributionSummary(d: WeightDistribution): string {
  const peak = d.sections.reduce((best, s) => (s.kgPerMetre > best.kgPerMetre ? s : best), d.sections[0]!);
  const parts = [`${whole(d.totalKg)} kg`, `peak ${whole(d.peakKgPerMetre)} kg/m at ${(peak.from / 100).toFixed(1)}–${(peak.to / 100).toFixed(1)} m`];
  if (d.cogX !== null && d.cogOffset !== null) {
    const side = Math.abs(d.cogOffset) < 0.5 ? 'at the middle' : `${metres(Math.abs(d.cogOffset))} towards the ${d.cogOffset < 0 ? 'front wall' : 'door'} from the middle`;
    parts.push(`centre of gravity ${metres(d.cogX)} from the front wall, ${side}`);
  }
  return parts.join(' · ');
}

/** Draws the diagram of `vehicle` into `svg` (at its size on screen, 1 unit = 1 CSS px) and its summary into `caption`. */
export function showWeightChart(svg: SVGSVGElement, caption: HTMLElement, vehicle: ViewerVehicle): WeightDistribution {
  const W = Math.max(300, svg.clientWidth || 1000), H = Math.max(90, svg.clientHeight || 130);
  const d = vehicleDistribution(vehicle);
  const L = vehicle.length;
  const top = Math.max(1, d.peakKgPerMetre) * 1.1;
  const xOf = (cm: number): number => LEFT + (cm / L) * (W - LEFT - RIGHT);
  const yOf = (kgm: number): number => H - BOTTOM - (kgm / top) * (H - TOP - BOTTOM);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.replaceChildren();
  svg.append(el('title', {}, `Weight per metre of length of ${vehicle.name}`));
  // Horizontal grid with kg/m labels at 0, half and the peak.
  for (const v of [0, d.peakKgPerMetre / 2, d.peakKgPerMetre]) {
    svg.append(el('line', { x1: LEFT, x2: W - RIGHT, y1: yOf(v), y2: yOf(v), class: 'grid' }));
    svg.append(el('text', { x: LEFT - 6, y: yOf(v) + 4, 'text-anchor': 'end', class: 'axis' }, whole(v)));
  }
  svg.append(el('text', { x: 4, y: TOP - 4, class: 'axis' }, 'kg/m'));
  for (const s of d.sections) {
    const bar = el('rect', { x: xOf(s.from) + 1, y: yOf(s.kgPerMetre), width: Math.max(0.5, xOf(s.to) - xOf(s.from) - 2), height: Math.max(0, yOf(0) - yOf(s.kgPerMetre)), class: 'bar' });
    bar.dataset['from'] = String(s.from);
    bar.dataset['kgPerMetre'] = String(s.kgPerMetre);
    bar.append(el('title', {}, `${(s.from / 100).toFixed(1)}–${(s.to / 100).toFixed(1)} m: ${whole(s.kgPerMetre)} kg/m (${whole(s.kg)} kg)`));
    svg.append(bar);
  }
  const stepM = L > 2000 ? 2 : 1;
  for (let m = 0; m * 100 <= L + 1e-6; m += stepM) {
    svg.append(el('text', { x: xOf(m * 100), y: H - 8, 'text-anchor': 'middle', class: 'axis' }, `${m} m`));
  }
  svg.append(el('line', { x1: xOf(L / 2), x2: xOf(L / 2), y1: TOP, y2: H - BOTTOM, class: 'middle' }));
  // "middle" and the centre of gravity label on two heights, each on the side of its line with room.
  const side = (x: number, room: number): { x: number; 'text-anchor': string } => (x + room > W - RIGHT ? { x: x - 4, 'text-anchor': 'end' } : { x: x + 4, 'text-anchor': 'start' });
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
  caption.textContent = distributionSummary(d);
  return d;
}
