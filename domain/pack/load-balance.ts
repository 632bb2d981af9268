/**
 * Remarks on a badly balanced load, for every organization, read from the
 * weight distribution along the length (weight-distribution.ts); the axle loads stay an
 * axle-access feature. Pure. Thresholds:
 * - centre of gravity more than COG_OFFSET_LIMIT (15 %) of the cargo length from the middle,
 *   when the load weighs at least MIN_LOAD_SHARE (25 %) of the payload (a tonne behind the cab
 *   of a 9 t truck is normal: the axles have the room for it);
 * - a metre of length carrying more than PEAK_LIMIT (2 ×) the payload spread evenly over the
 *   length (max_weight / length): a concentrated load the chassis may not be rated for.
 */
import type { WeightDistribution } from './weight-distribution.js';

/** Largest distance of the centre of gravity from the middle, as a fraction of the cargo length. */
export const COG_OFFSET_LIMIT = 0.15;
/** Load weight, as a fraction of the payload, below which the centre of gravity is not remarked on. */
export const MIN_LOAD_SHARE = 0.25;
/** Largest kg per metre, as a multiple of the payload spread evenly over the length. */
export const PEAK_LIMIT = 2;

/** One remark: what is wrong and a sentence for the crew (lengths in m, weights in kg). */
export interface BalanceRemark {
  kind: 'cog_offset' | 'peak_load';
  message: string;
}

/** The vehicle facts the remarks need: inner length (cm) and payload (kg). */
export interface BalanceVehicle {
  length: number;
  maxWeight: number;
}

const m = (cm: number): string => (Math.round(cm) / 100).toFixed(2).replace(/\.?0+$/, '');
const kg = (v: number): string =>
  Math.round(v)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** kg per metre of the payload spread evenly over the length (0 without a payload). */
export function evenKgPerMetre(v: BalanceVehicle): number {
  return v.maxWeight > 0 && v.length > 0 ? v.maxWeight / (v.length / 100) : 0;
}

/**
 * The remarks on distribution `d` of a vehicle `v` (empty when the load is balanced): the centre
 * of gravity too far from the middle, and the stretch of sections over the peak limit with its
 * heaviest kg per metre. Thresholds as in the module comment.
 */
export function balanceRemarks(d: WeightDistribution, v: BalanceVehicle): BalanceRemark[] {
  const out: BalanceRemark[] = [];
  if (
    d.cogOffset !== null &&
    d.totalKg >= MIN_LOAD_SHARE * v.maxWeight &&
    Math.abs(d.cogOffset) > COG_OFFSET_LIMIT * v.length
  ) {
    const share = Math.round((Math.abs(d.cogOffset) / v.length) * 100);
    const ahead = d.cogOffset < 0;
    out.push({
      kind: 'cog_offset',
      message:
        `Centre of gravity ${m(Math.abs(d.cogOffset))} m ${ahead ? 'ahead of' : 'behind'} the middle (${share} % of the length; ` +
        `limit ${Math.round(COG_OFFSET_LIMIT * 100)} %): move weight toward the ${ahead ? 'door' : 'front wall'}.`,
    });
  }
  const even = evenKgPerMetre(v);
  if (even > 0) {
    const over = d.sections.filter((s) => s.kgPerMetre > PEAK_LIMIT * even);
    if (over.length > 0) {
      const from = over[0]!.from,
        to = over[over.length - 1]!.to;
      out.push({
        kind: 'peak_load',
        message:
          `Up to ${kg(d.peakKgPerMetre)} kg/m between ${m(from)} and ${m(to)} m: ${(d.peakKgPerMetre / even).toFixed(1)} × the payload ` +
          `spread evenly (${kg(even)} kg/m; limit ${PEAK_LIMIT} ×). Check the vehicle's load distribution chart.`,
      });
    }
  }
  return out;
}
