/**
 * Lengths and weights in words for the viewer's panels, in the organization's display units
 * (ViewerPlan.display_units; display/units.ts): cm, m, kg and kg/m when metric; in, ft, lb and
 * lb/ft when imperial. The plan's figures stay cm and kg; only the text changes. Pure, no DOM.
 */
import {
  CM_PER_FOOT,
  lengthToDisplay,
  lengthUnitLabel,
  weightToDisplay,
  weightUnitLabel,
  type DisplayUnits,
} from '../../display/units.js';

/** Centimetres in one foot. */

/** Formats of one unit system; every input is cm, kg or kg per metre. */
export interface MeasureWords {
  units: DisplayUnits;
  /** A length figure without its unit, one decimal at most: 120 → "120" / "47.2". */
  figure(cm: number): string;
  /** A length with its unit: "120 cm" / "47.2 in". */
  length(cm: number): string;
  /** Sizes with one unit: "120 × 80 × 100 cm" / "47.2 × 31.5 × 39.4 in". */
  sizes(...cm: number[]): string;
  /** A weight with its unit, `decimals` at most, thousands separated: "1,250 kg" / "2,755.8 lb". */
  weight(kg: number, decimals?: number): string;
  /** A distance along the vehicle in metres or feet: "1.20 m" / "3.94 ft". */
  distance(cm: number, decimals?: number): string;
  /** Unit of distances along the vehicle: `m` or `ft`. */
  distanceUnit: 'm' | 'ft';
  /** cm in one distanceUnit. */
  cmPerDistanceUnit: number;
  /** Weight per length: kg/m as is, or lb/ft. */
  perLength(kgPerMetre: number): number;
  /** Unit of perLength: `kg/m` or `lb/ft`. */
  perLengthUnit: 'kg/m' | 'lb/ft';
}

const grouped = (v: number, decimals: number): string =>
  Number(v.toFixed(decimals)).toLocaleString('en-US', { maximumFractionDigits: decimals });

/** The formats of `units` (metric when absent or unknown). */
export function measureWords(units: DisplayUnits = 'metric'): MeasureWords {
  const imperial = units === 'imperial';
  const lu = lengthUnitLabel(units),
    wu = weightUnitLabel(units);
  const figure = (cm: number): string => `${Number(lengthToDisplay(cm, units).toFixed(1))}`;
  const cmPerDistanceUnit = imperial ? CM_PER_FOOT : 100;
  return {
    units: imperial ? 'imperial' : 'metric',
    figure,
    length: (cm) => `${figure(cm)} ${lu}`,
    sizes: (...cm) => `${cm.map(figure).join(' × ')} ${lu}`,
    weight: (kg, decimals = 0) => `${grouped(weightToDisplay(kg, units), decimals)} ${wu}`,
    distance: (cm, decimals = 2) => `${(cm / cmPerDistanceUnit).toFixed(decimals)} ${imperial ? 'ft' : 'm'}`,
    distanceUnit: imperial ? 'ft' : 'm',
    cmPerDistanceUnit,
    perLength: (kgPerMetre) => (imperial ? weightToDisplay(kgPerMetre, units) * (CM_PER_FOOT / 100) : kgPerMetre),
    perLengthUnit: imperial ? 'lb/ft' : 'kg/m',
  };
}
