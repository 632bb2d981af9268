/**
 * Units of length and weight as people write them in spreadsheet headers ("Length (in)",
 * "Weight lbs"): each name, in lower case, with the quantity it measures and its size in the
 * API's units (cm for lengths, kg for weights), exact to the definitions (1 in = 2.54 cm,
 * 1 ft = 30.48 cm, 1 lb = 0.45359237 kg, 1 oz = 1/16 lb, 1 t = 1000 kg).
 */
import { CM_PER_FOOT, CM_PER_INCH, KG_PER_POUND, withoutFloatNoise } from './measure.js';

/** What a unit measures: a length (API unit cm) or a weight (API unit kg). */
export type Quantity = 'length' | 'weight';

/** A unit: its short symbol, what it measures and how many cm or kg one of it is. */
export interface Unit {
  symbol: string;
  quantity: Quantity;
  /** cm per unit for lengths, kg per unit for weights. */
  factor: number;
  /** Its name in messages ("inches"). */
  name: string;
}

const length = (symbol: string, name: string, factor: number): Unit => ({ symbol, quantity: 'length', factor, name });
const weight = (symbol: string, name: string, factor: number): Unit => ({ symbol, quantity: 'weight', factor, name });

const MM = length('mm', 'millimetres', 0.1);
const CM = length('cm', 'centimetres', 1);
const M = length('m', 'metres', 100);
const IN = length('in', 'inches', CM_PER_INCH);
const FT = length('ft', 'feet', CM_PER_FOOT);
const G = weight('g', 'grams', 0.001);
const KG = weight('kg', 'kilograms', 1);
const T = weight('t', 'tonnes', 1000);
const LB = weight('lb', 'pounds', KG_PER_POUND);
const OZ = weight('oz', 'ounces', KG_PER_POUND / 16);

/** The API's units: cm and kg. */
export const API_UNIT: Readonly<Record<Quantity, Unit>> = { length: CM, weight: KG };
/** The units of the imperial display preference: inches and pounds. */
export const IMPERIAL_UNIT: Readonly<Record<Quantity, Unit>> = { length: IN, weight: LB };

/** Every unit a header may name, by quantity, in the order messages list them. */
export const UNITS_OF: Readonly<Record<Quantity, readonly Unit[]>> = {
  length: [MM, CM, M, IN, FT],
  weight: [G, KG, T, LB, OZ],
};

const NAMES: ReadonlyMap<string, Unit> = new Map<string, Unit>([
  ...['mm', 'millimetre', 'millimetres', 'millimeter', 'millimeters'].map((n) => [n, MM] as const),
  ...['cm', 'centimetre', 'centimetres', 'centimeter', 'centimeters', 'cms'].map((n) => [n, CM] as const),
  ...['m', 'metre', 'metres', 'meter', 'meters'].map((n) => [n, M] as const),
  ...['in', 'inch', 'inches', '"', 'ins'].map((n) => [n, IN] as const),
  ...['ft', 'foot', 'feet', "'"].map((n) => [n, FT] as const),
  ...['g', 'gram', 'grams', 'gramme', 'grammes'].map((n) => [n, G] as const),
  ...['kg', 'kgs', 'kilo', 'kilos', 'kilogram', 'kilograms', 'kilogramme', 'kilogrammes'].map((n) => [n, KG] as const),
  ...['t', 'tonne', 'tonnes', 'metric ton', 'metric tons'].map((n) => [n, T] as const),
  ...['lb', 'lbs', 'pound', 'pounds', '#'].map((n) => [n, LB] as const),
  ...['oz', 'ounce', 'ounces'].map((n) => [n, OZ] as const),
]);

/** Names that mean more than one unit: refused with the reason rather than guessed. */
const AMBIGUOUS: ReadonlyMap<string, string> = new Map([
  ['ton', 'a ton is 1000 kg (t), 907 kg (US) or 1016 kg (UK)'],
  ['tons', 'a ton is 1000 kg (t), 907 kg (US) or 1016 kg (UK)'],
]);

/**
 * The unit a name stands for (any case, spaces and a trailing dot ignored: "Inches", "lbs.",
 * "KG"); undefined for a name that is no unit of length or weight, or is ambiguous (see
 * ambiguityOf).
 */
export function unitNamed(name: string): Unit | undefined {
  return NAMES.get(normalUnitName(name));
}

/** Why a unit name is refused although people use it ("ton"), or undefined. */
export function ambiguityOf(name: string): string | undefined {
  return AMBIGUOUS.get(normalUnitName(name));
}

/** Whether `name` is a unit name at all (known or ambiguous). */
export const isUnitName = (name: string): boolean => unitNamed(name) !== undefined || ambiguityOf(name) !== undefined;

const normalUnitName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '').replace(/\s+/g, ' ');

/**
 * `value` written in `unit` in the API's unit (cm or kg): value × factor, kept to 15 significant
 * digits, which drops only floating-point noise (48 in → 121.92 cm, not 121.92000000000002);
 * the result is within 1e-15 relative of the exact product.
 */
export function toApiUnit(value: number, unit: Unit): number {
  return unit.factor === 1 ? value : withoutFloatNoise(value * unit.factor);
}
