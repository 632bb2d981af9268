/**
 * Axle loads as the search needs them: every axle's load is linear in the cargo weight W (kg)
 * and its moment M = Σ weight · centre x (kg·cm, x from the front of the cargo area), so a
 * vehicle's axles become lines `load = base + perKg · W + perKgCm · M`, cheap to test for each
 * candidate block. Models (domain/pack/plan.ts AxleModel):
 * - `axles`: rigid bed on n equally stiff axles at a_i: R_i = W/n + (M − ā·W)(a_i − ā)/Σ(a_j − ā)²
 *   (the lever rule for two axles; all on one axle for one); cargo only.
 * - `semi_trailer`: trailer on kingpin and rear axle, tractor on front and middle axle; the
 *   kingpin load passes to the tractor; tractor and empty trailer weights included.
 */
import type { AxleModel, VehicleModel } from '../../domain/pack/plan.js';

/** One axle as a line in (W, M); `max` kg, 0 = none; `position` cm from the cargo front. */
export interface AxleLine {
  name: string;
  position: number;
  max: number;
  base: number;
  perKg: number;
  perKgCm: number;
}

/** The axles of `axles` as lines, in the order the result lists them (Axle 1, Axle 2, …). */
export function axleLines(axles: AxleModel): AxleLine[] {
  if (axles.kind === 'axles') {
    const n = axles.positions.length;
    if (n === 0) return [];
    const mean = axles.positions.reduce((s, a) => s + a, 0) / n;
    const spread = axles.positions.reduce((s, a) => s + (a - mean) ** 2, 0);
    return axles.positions.map((a, i) => {
      // Axles all at one point share the load equally (the verifier's statics use the same cut-off).
      const perKgCm = n * spread > 1e-9 ? (a - mean) / spread : 0;
      return {
        name: `Axle ${i + 1}`,
        position: a,
        max: axles.maxLoads[i] ?? 0,
        base: 0,
        perKg: 1 / n - mean * perKgCm,
        perKgCm,
      };
    });
  }
  if (axles.kind === 'semi_trailer') {
    const m = axles;
    const kingpin = m.trailerStartToKingpin;
    const rear = kingpin + m.kingpinToRearAxle;
    // Kingpin load K from moments about the trailer's rear axle.
    const k = {
      base: (m.emptyTrailerWeight * m.trailerCogToRearAxle) / m.kingpinToRearAxle,
      perKg: rear / m.kingpinToRearAxle,
      perKgCm: -1 / m.kingpinToRearAxle,
    };
    // Tractor: moments about its front axle give the middle axle; the front takes the rest.
    const share = m.frontAxleToKingpin / m.frontAxleToMiddleAxle;
    const middle = {
      base: (m.tractorWeight * m.frontAxleToTractorCog) / m.frontAxleToMiddleAxle + k.base * share,
      perKg: k.perKg * share,
      perKgCm: k.perKgCm * share,
    };
    const frontAxle = kingpin - m.frontAxleToKingpin;
    return [
      {
        name: 'Axle 1',
        position: frontAxle,
        max: 0,
        base: m.tractorWeight + k.base - middle.base,
        perKg: k.perKg - middle.perKg,
        perKgCm: k.perKgCm - middle.perKgCm,
      },
      { name: 'Axle 2', position: frontAxle + m.frontAxleToMiddleAxle, max: m.maxMiddleAxleWeight, ...middle },
      {
        name: 'Axle 3',
        position: rear,
        max: m.maxRearAxleWeight,
        base: m.emptyTrailerWeight - k.base,
        perKg: 1 - k.perKg,
        perKgCm: -k.perKgCm,
      },
    ];
  }
  return [];
}

/** Load on `line` for cargo weight `w` kg and moment `m` kg·cm. */
export function axleLoad(line: AxleLine, w: number, m: number): number {
  return line.base + line.perKg * w + line.perKgCm * m;
}

/** True when no axle with a maximum is above it (within 1e-9 relative). */
export function axlesWithin(lines: readonly AxleLine[], w: number, m: number): boolean {
  return lines.every((l) => l.max <= 0 || axleLoad(l, w, m) <= l.max * (1 + 1e-9) + 1e-9);
}

/**
 * True when some move dx (cm along x) of the whole load within [lo, hi] keeps every axle with a
 * maximum within it: each load is linear in dx (load + perKgCm · w · dx).
 */
export function axlesWithinMovable(lines: readonly AxleLine[], w: number, m: number, lo: number, hi: number): boolean {
  for (const l of lines) {
    if (l.max <= 0) continue;
    const room = l.max * (1 + 1e-9) + 1e-9 - axleLoad(l, w, m);
    const slope = l.perKgCm * w;
    if (Math.abs(slope) < 1e-12) {
      if (room < 0) return false;
    } else if (slope > 0) hi = Math.min(hi, room / slope);
    else lo = Math.max(lo, room / slope);
    if (lo > hi + 1e-9) return false;
  }
  return true;
}

/** The lines the search must respect for `vehicle` (none unless axles are enforced). */
export function enforcedAxleLines(enforce: boolean, vehicle: VehicleModel): AxleLine[] {
  return enforce && vehicle.axles ? axleLines(vehicle.axles).filter((l) => l.max > 0) : [];
}
