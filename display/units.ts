/**
 * The organization's display units (OrganizationDocument.displayUnits, projections/organizations)
 * for the web app, the 3D viewer and the PDF: the API always speaks centimetres and kilograms; a
 * person reads lengths and weights in the organization's preference. `metric` shows cm and kg;
 * `imperial` shows inches and pounds. Conversions are exact to the definitions
 * (1 in = 2.54 cm, 1 lb = 0.45359237 kg). Pure, no DOM: shared by all three.
 */

/** An organization's display preference; `metric` unless the owner chose otherwise. */
export type DisplayUnits = 'metric' | 'imperial';

/** Centimetres in one inch. */
export const CM_PER_INCH = 2.54;
/** Kilograms in one pound. */
export const KG_PER_POUND = 0.45359237;

/** A length in cm shown in `units` (cm or in), not rounded. */
export const lengthToDisplay = (cm: number, units: DisplayUnits): number => (units === 'imperial' ? cm / CM_PER_INCH : cm);
/** A length typed in `units` (cm or in), in cm for the API, not rounded. */
export const lengthFromDisplay = (value: number, units: DisplayUnits): number => (units === 'imperial' ? value * CM_PER_INCH : value);
/** A weight in kg shown in `units` (kg or lb), not rounded. */
export const weightToDisplay = (kg: number, units: DisplayUnits): number => (units === 'imperial' ? kg / KG_PER_POUND : kg);
/** A weight typed in `units` (kg or lb), in kg for the API, not rounded. */
export const weightFromDisplay = (value: number, units: DisplayUnits): number => (units === 'imperial' ? value * KG_PER_POUND : value);

/** The label of a length in `units`: `cm` or `in`. */
export const lengthUnitLabel = (units: DisplayUnits): string => (units === 'imperial' ? 'in' : 'cm');
/** The label of a weight in `units`: `kg` or `lb`. */
export const weightUnitLabel = (units: DisplayUnits): string => (units === 'imperial' ? 'lb' : 'kg');

/** A number for display: at most `decimals` places, trailing zeros dropped (e.g. 47.24, 120). */
export const roundForDisplay = (value: number, decimals = 2): string => String(Number(value.toFixed(decimals)));

/** `value` as DisplayUnits when it is one, else `metric` (an absent or unknown preference). */
export const displayUnitsOf = (value: unknown): DisplayUnits => (value === 'imperial' ? 'imperial' : 'metric');
