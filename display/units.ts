/**
 * The organization's display units (OrganizationDocument.displayUnits, projections/organizations)
 * for the web app, the 3D viewer and the PDF: the API always speaks centimetres and kilograms; a
 * person reads lengths and weights in the organization's preference. `metric` shows cm and kg;
 * `imperial` shows inches and pounds. Conversions are exact to the definitions
 * (1 in = 2.54 cm, 1 lb = 0.45359237 kg). Pure, no DOM: shared by all three.
 */

import { valueText } from './text.js';

/** An organization's display preference; `metric` unless the owner chose otherwise. */
export type DisplayUnits = 'metric' | 'imperial';

/** Centimetres in one inch. */
export const CM_PER_INCH = 2.54;
/** Centimetres in one foot (12 in). */
export const CM_PER_FOOT = 12 * CM_PER_INCH;
/** Kilograms in one pound. */
export const KG_PER_POUND = 0.45359237;

/** A length in cm shown in `units` (cm or in), not rounded. */
export const lengthToDisplay = (cm: number, units: DisplayUnits): number =>
  units === 'imperial' ? cm / CM_PER_INCH : cm;
/** A length typed in `units` (cm or in), in cm for the API, not rounded. */
export const lengthFromDisplay = (value: number, units: DisplayUnits): number =>
  units === 'imperial' ? value * CM_PER_INCH : value;
/** A weight in kg shown in `units` (kg or lb), not rounded. */
export const weightToDisplay = (kg: number, units: DisplayUnits): number =>
  units === 'imperial' ? kg / KG_PER_POUND : kg;
/** A weight typed in `units` (kg or lb), in kg for the API, not rounded. */
export const weightFromDisplay = (value: number, units: DisplayUnits): number =>
  units === 'imperial' ? value * KG_PER_POUND : value;

/** The label of a length in `units`: `cm` or `in`. */
export const lengthUnitLabel = (units: DisplayUnits): string => (units === 'imperial' ? 'in' : 'cm');
/** The label of a weight in `units`: `kg` or `lb`. */
export const weightUnitLabel = (units: DisplayUnits): string => (units === 'imperial' ? 'lb' : 'kg');

/** A number for display: at most `decimals` places, trailing zeros dropped (e.g. 47.24, 120). */
export const roundForDisplay = (value: number, decimals = 2): string => String(Number(value.toFixed(decimals)));

/** `value` as DisplayUnits when it is one, else `metric` (an absent or unknown preference). */
export const displayUnitsOf = (value: unknown): DisplayUnits => (value === 'imperial' ? 'imperial' : 'metric');

/** Square metres in one square foot (0.3048² exactly). */
export const M2_PER_SQUARE_FOOT = 0.09290304;

/**
 * What a number in a form measures: a length (cm ↔ in), a weight (kg ↔ lb) or a load per floor
 * area (kg/m² ↔ lb/ft², e.g. a vehicle's floor_load_capacity).
 */
export type Measure = 'length' | 'weight' | 'area-load';

/** API units (cm, kg, kg/m²) in one imperial unit (in, lb, lb/ft²). */
const API_PER_IMPERIAL: Readonly<Record<Measure, number>> = {
  length: CM_PER_INCH,
  weight: KG_PER_POUND,
  'area-load': KG_PER_POUND / M2_PER_SQUARE_FOOT,
};
const LABELS: Readonly<Record<Measure, Record<DisplayUnits, string>>> = {
  length: { metric: 'cm', imperial: 'in' },
  weight: { metric: 'kg', imperial: 'lb' },
  'area-load': { metric: 'kg/m²', imperial: 'lb/ft²' },
};

/**
 * `value` with only floating-point noise dropped: kept to 15 significant digits (48 × 2.54 →
 * 121.92, not 121.92000000000002); within 1e-15 relative of the value.
 */
export const withoutFloatNoise = (value: number): number =>
  value === 0 || !Number.isFinite(value) ? value : Number(value.toPrecision(15));

/** A value of `measure` in the API's unit (cm, kg, kg/m²) shown in `units`, not rounded. */
export function measureToDisplay(value: number, measure: Measure, units: DisplayUnits): number {
  return units === 'imperial' ? value / API_PER_IMPERIAL[measure] : value;
}

/** A value of `measure` typed in `units`, in the API's unit (cm, kg, kg/m²); only float noise dropped. */
export function measureFromDisplay(value: number, measure: Measure, units: DisplayUnits): number {
  return units === 'imperial' ? withoutFloatNoise(value * API_PER_IMPERIAL[measure]) : value;
}

/** The label of `measure` in `units`: cm/in, kg/lb, kg/m²/lb/ft². */
export const measureUnitLabel = (measure: Measure, units: DisplayUnits): string => LABELS[measure][units];

/**
 * A stored value of `measure` (cm, kg, kg/m²) as text in `units`: metric as stored, imperial
 * converted and rounded to 2 decimals; '' when absent, other values as they are.
 */
export function formatMeasure(value: unknown, measure: Measure, units: DisplayUnits): string {
  if (typeof value === 'number')
    return units === 'metric' ? String(value) : roundForDisplay(measureToDisplay(value, measure, units));
  return valueText(value);
}
