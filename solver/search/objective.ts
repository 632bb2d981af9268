/**
 * The search objective, lexicographic:
 *  1. placed cargo per priority level, highest priority first (one more cm³ of a higher
 *     priority beats any amount of lower ones), measured as placed volume: counting units
 *     instead favours leaving the large units behind (BR1: about 1.2 points of fill lower);
 *  2. fewer vehicles;
 *  3. more placed units;
 *  4. higher volume utilization of the loaded vehicles (placed volume / their total volume);
 *  5. better balance: smaller weight-weighted distance of each vehicle's centre of gravity from
 *     its floor centre, relative to the vehicle size.
 */
import type { JobContext } from './job-context.js';
import type { Construction } from './fleet-load.js';
import { blockCentre, blockUnits } from './block.js';
import type { Score } from './score.js';

/** Scores a construction. */
export function scoreOf(ctx: JobContext, c: Construction): Score {
  const prios = [...new Set(ctx.model.items.map((it) => it.priority))].sort((a, b) => b - a);
  const volumeByPriority = prios.map(() => 0);
  let placed = 0;
  let placedVol = 0,
    vehVol = 0,
    imbalance = 0;
  for (const v of c.vehicles) {
    vehVol += v.vehicle.length * v.vehicle.width * v.vehicle.height;
    let w = 0,
      mx = 0,
      mz = 0;
    for (const b of v.blocks) {
      const n = blockUnits(b);
      const it = ctx.model.items[b.item]!;
      const bv = n * b.size.l * b.size.w * b.size.h;
      volumeByPriority[prios.indexOf(it.priority)]! += bv;
      placed += n;
      placedVol += bv;
      const bw = n * it.weight;
      w += bw;
      const c = blockCentre(b);
      mx += bw * c.x;
      mz += bw * c.z;
    }
    if (w > 0) {
      imbalance +=
        Math.abs(mx / w - v.vehicle.length / 2) / v.vehicle.length +
        Math.abs(mz / w - v.vehicle.width / 2) / v.vehicle.width;
    }
  }
  return {
    volumeByPriority,
    placed,
    vehicles: c.vehicles.length,
    utilization: vehVol > 0 ? placedVol / vehVol : 0,
    imbalance,
  };
}

/**
 * Lower bound on the vehicles any plan placing every unit needs: the fewest vehicles (listed
 * copies, plus in auto mode copies of the largest definition up to maxVehicles) whose volume and,
 * unless overweight is allowed, payload reach the units' total volume and weight; never fewer
 * than the copies with pinned units.
 */
export function vehicleLowerBound(ctx: JobContext): number {
  const { model } = ctx;
  let vol = 0,
    wt = 0;
  for (const it of model.items) {
    vol += it.quantity * it.length * it.width * it.height;
    wt += it.quantity * it.weight;
  }
  const caps: { v: number; w: number }[] = [];
  for (const v of model.vehicles)
    for (let i = 0; i < v.quantity; i++) caps.push({ v: v.length * v.width * v.height, w: v.maxWeight });
  if (model.packingMode === 'auto' && model.vehicles.length > 0) {
    const bigV = Math.max(...model.vehicles.map((v) => v.length * v.width * v.height));
    const bigW = Math.max(...model.vehicles.map((v) => v.maxWeight));
    while (caps.length < model.maxVehicles) caps.push({ v: bigV, w: bigW });
  }
  const need = (vals: number[], total: number): number => {
    vals.sort((a, b) => b - a);
    let s = 0;
    for (let k = 0; k < vals.length; k++) {
      s += vals[k]!;
      if (s >= total - 1e-9) return k + 1;
    }
    return vals.length + 1;
  };
  const byVol = need(
    caps.map((c) => c.v),
    vol,
  );
  const byWeight = model.allowOverweight
    ? 1
    : need(
        caps.map((c) => c.w),
        wt,
      );
  // Every copy with pinned units is in every plan.
  return Math.max(1, byVol, byWeight, ctx.pinned.length);
}
