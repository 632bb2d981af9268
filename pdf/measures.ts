/**
 * Lengths and weights of the load-plan PDF in the organization's display units
 * (OrganizationDocument.displayUnits; display/units.ts): cm, kg, kg/m and m when metric; in,
 * lb, lb/ft and ft when imperial. The plan's figures are cm and kg; only the printed text
 * changes, including the distances of the loading instructions ("from 10.5 ft"). Loading metres
 * (LDM) stay metres: the trade measures them so.
 */
import {
  CM_PER_FOOT,
  lengthToDisplay,
  lengthUnitLabel,
  weightToDisplay,
  weightUnitLabel,
  type DisplayUnits,
} from '../display/units.js';
import { formatNumber } from './page.js';
import { metresText } from '../domain/pack/loading-instructions.js';

/** The printed forms of one unit system; inputs are cm, kg and kg per metre. */
export interface Measures {
  units: DisplayUnits;
  lengthUnit: string;
  weightUnit: string;
  /** A length figure without its unit, `decimals` at most (1 by default), thousands separated. */
  length: (cm: number, decimals?: number) => string;
  /** A weight figure without its unit, `decimals` at most (1 by default), thousands separated. */
  weight: (kg: number, decimals?: number) => string;
  /** Distances along the vehicle (weight diagram): `m` or `ft`, and cm in one of them. */
  distanceUnit: 'm' | 'ft';
  cmPerDistance: number;
  /** A distance in the loading instructions with its unit: "3.2 m", or "10.5 ft" (one decimal). */
  distance: (cm: number) => string;
  /** Weight per length: kg/m as is, or lb/ft. */
  perLength: (kgPerMetre: number) => number;
  perLengthUnit: 'kg/m' | 'lb/ft';
  /** `text` (a column title, a caption) with the words `cm` and `kg` in these units. */
  words: (text: string) => string;
}

/** The measures of `units` (metric when absent). */
export function measures(units: DisplayUnits = 'metric'): Measures {
  const imperial = units === 'imperial';
  const lengthUnit = lengthUnitLabel(units),
    weightUnit = weightUnitLabel(units);
  return {
    units: imperial ? 'imperial' : 'metric',
    lengthUnit,
    weightUnit,
    length: (cm, decimals = 1) => formatNumber(lengthToDisplay(cm, units), decimals),
    weight: (kg, decimals = 1) => formatNumber(weightToDisplay(kg, units), decimals),
    distanceUnit: imperial ? 'ft' : 'm',
    cmPerDistance: imperial ? CM_PER_FOOT : 100,
    distance: (cm) => (imperial ? `${formatNumber(cm / CM_PER_FOOT, 1)} ft` : metresText(cm)),
    perLength: (kgPerMetre) => (imperial ? weightToDisplay(kgPerMetre, units) * (CM_PER_FOOT / 100) : kgPerMetre),
    perLengthUnit: imperial ? 'lb/ft' : 'kg/m',
    words: (text) => (imperial ? text.replace(/\bcm\b/g, lengthUnit).replace(/\bkg\b/g, weightUnit) : text),
  };
}

/** `columns` with their titles in `m`'s units ("Weight kg" → "Weight lb"). */
export function columnsIn<C extends { title: string }>(columns: readonly C[], m: Measures): C[] {
  return columns.map((c) => ({ ...c, title: m.words(c.title) }));
}
