/**
 * The axle data of one vehicle as the solver uses it (domain/pack/plan.ts AxleModel), from the
 * spec's Vehicle axle fields, which count only for organizations with axle access.
 * The semi-trailer model needs all ten of its fields (spec Options.enforce_axle: "on vehicles
 * carrying all ten axle-model fields"); with them it is used in place of axle_positions.
 */
import type { AxleModel } from '../plan.js';

/** The ten fields of the semi-trailer axle model (spec Vehicle table). */
export const SEMI_TRAILER_FIELDS = [
  'tractor_weight',
  'empty_trailer_weight',
  'front_axle_to_middle_axle',
  'front_axle_to_tractor_cog',
  'front_axle_to_kingpin',
  'kingpin_to_rear_axle',
  'trailer_cog_to_rear_axle',
  'trailer_start_to_kingpin',
  'max_middle_axle_weight',
  'max_rear_axle_weight',
] as const;

/** Every axle field of the spec's Vehicle table (enabled per organization). */
export const AXLE_FIELDS = [
  'axle_positions',
  'axle_max_loads',
  'cog_range_x',
  'cog_range_y',
  ...SEMI_TRAILER_FIELDS,
] as const;

type Fields = Readonly<Record<string, unknown>>;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const numbers = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => num(x) !== null) : []);

/** The semi-trailer fields a vehicle lacks when it has some but not all of them (else []). */
export function missingSemiTrailerFields(f: Fields): string[] {
  const missing = SEMI_TRAILER_FIELDS.filter((k) => num(f[k]) === null);
  return missing.length === SEMI_TRAILER_FIELDS.length ? [] : missing;
}

/**
 * The axle model of a vehicle's resolved fields (saved vehicle with the request's overrides), or
 * null without axle access or axle data. Validation (resolve.ts) has already checked ranges;
 * distances the semi-trailer model divides by must be positive, else it is not used.
 */
export function axleModelOf(f: Fields, axleAccess: boolean): AxleModel | null {
  if (!axleAccess || !AXLE_FIELDS.some((k) => f[k] !== undefined)) return null;
  const cog = { cogRangeX: num(f.cog_range_x), cogRangeY: num(f.cog_range_y) };
  const v = Object.fromEntries(SEMI_TRAILER_FIELDS.map((k) => [k, num(f[k])]));
  if (
    SEMI_TRAILER_FIELDS.every((k) => v[k] !== null) &&
    v.front_axle_to_middle_axle! > 0 &&
    v.kingpin_to_rear_axle! > 0
  ) {
    return {
      kind: 'semi_trailer',
      tractorWeight: v.tractor_weight!,
      emptyTrailerWeight: v.empty_trailer_weight!,
      frontAxleToMiddleAxle: v.front_axle_to_middle_axle!,
      frontAxleToTractorCog: v.front_axle_to_tractor_cog!,
      frontAxleToKingpin: v.front_axle_to_kingpin!,
      kingpinToRearAxle: v.kingpin_to_rear_axle!,
      trailerCogToRearAxle: v.trailer_cog_to_rear_axle!,
      trailerStartToKingpin: v.trailer_start_to_kingpin!,
      maxMiddleAxleWeight: v.max_middle_axle_weight!,
      maxRearAxleWeight: v.max_rear_axle_weight!,
      ...cog,
    };
  }
  const positions = numbers(f.axle_positions);
  if (positions.length > 0)
    return { kind: 'axles', positions, maxLoads: positions.map((_, i) => numbers(f.axle_max_loads)[i] ?? 0), ...cog };
  return { kind: 'none', ...cog };
}

/** True when the model has something enforce_axle checks: an axle maximum or a CoG range. */
export function enforceable(axles: AxleModel): boolean {
  if (axles.cogRangeX !== null || axles.cogRangeY !== null) return true;
  if (axles.kind === 'axles') return axles.maxLoads.some((m) => m > 0);
  return axles.kind === 'semi_trailer' && (axles.maxMiddleAxleWeight > 0 || axles.maxRearAxleWeight > 0);
}
