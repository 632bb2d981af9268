/**
 * Rules `axle_load` and `cog_range` (spec ResultVehicle.axle_loads, AxleLoad, Vehicle axle fields,
 * Options.enforce_axle), recomputed from the placements by plain statics:
 * - axle positions (`axle_positions`): the cargo rests on a rigid bed on equally stiff axles, so
 *   the axle loads R_i = u + θ·a_i carry the cargo weight W and its moment M about the cargo
 *   front: Σ R_i = W, Σ R_i·a_i = M (one axle takes W; axles at one point share it equally).
 * - semi-trailer: moments about the trailer's rear axle give the kingpin load K, then moments
 *   about the tractor's front axle give the middle axle; front = tractor + K − middle,
 *   rear = cargo + empty trailer − K.
 * `axle_loads` must be present exactly on vehicles with an axle model (axle access), list the
 * axles in order with these loads (to the gram), their positions and maxima, and `ok` = load ≤ max
 * (or no max).
 * With enforce_axle, no axle may be above its maximum and the cargo's centre of gravity must lie
 * within cog_range_x of the middle of the length and cog_range_y of the middle of the width.
 */
import type { AxleModel } from '../../domain/pack/plan.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { LENGTH_TOLERANCE, RELATIVE_TOLERANCE, num } from './violation.js';

/** An axle as the rules expect it: position cm from the cargo front, load and max kg. */
export interface ExpectedAxle {
  position: number;
  load: number;
  max: number;
}

/** The axle loads of cargo weighing `w` kg with moment `m` kg·cm about the cargo front. */
export function expectedAxles(axles: AxleModel, w: number, m: number): ExpectedAxle[] {
  if (axles.kind === 'axles') {
    const a = axles.positions;
    const n = a.length;
    const max = (i: number): number => axles.maxLoads[i] ?? 0;
    if (n === 0) return [];
    const sa = a.reduce((s, x) => s + x, 0);
    const saa = a.reduce((s, x) => s + x * x, 0);
    const det = n * saa - sa * sa;
    if (n === 1 || Math.abs(det) < 1e-9) return a.map((p, i) => ({ position: p, load: w / n, max: max(i) }));
    const u = (w * saa - sa * m) / det;
    const theta = (n * m - sa * w) / det;
    return a.map((p, i) => ({ position: p, load: u + theta * p, max: max(i) }));
  }
  if (axles.kind === 'semi_trailer') {
    const kingpin = axles.trailerStartToKingpin;
    const rear = kingpin + axles.kingpinToRearAxle;
    const front = kingpin - axles.frontAxleToKingpin;
    // Cargo moment about the rear axle: Σ weight · (rear − x) = w · rear − m.
    const k = (w * rear - m + axles.emptyTrailerWeight * axles.trailerCogToRearAxle) / axles.kingpinToRearAxle;
    const middle =
      (axles.tractorWeight * axles.frontAxleToTractorCog + k * axles.frontAxleToKingpin) / axles.frontAxleToMiddleAxle;
    return [
      { position: front, load: axles.tractorWeight + k - middle, max: 0 },
      { position: front + axles.frontAxleToMiddleAxle, load: middle, max: axles.maxMiddleAxleWeight },
      { position: rear, load: w + axles.emptyTrailerWeight - k, max: axles.maxRearAxleWeight },
    ];
  }
  return [];
}

/** Half a gram, kg: the rounding of reported axle loads. */
const GRAM = 0.0005;

const within = (load: number, max: number): boolean => max <= 0 || load <= max + RELATIVE_TOLERANCE * Math.max(1, max);

/** Checks the axle loads and, with `enforce`, the axle maxima and CoG ranges of one vehicle. */
export function checkAxles(vehicle: LoadedVehicle, enforce: boolean): Violation[] {
  const out: Violation[] = [];
  const at = vehicle.position;
  const axles = vehicle.definition?.axles ?? null;
  const reported = vehicle.planned.axle_loads;
  const fail = (rule: Violation['rule'], message: string): void => {
    out.push({ rule, vehicle: at, message });
  };
  let w = 0,
    mx = 0,
    mz = 0;
  for (const u of vehicle.units) {
    const kg = u.placement.weight;
    w += kg;
    mx += (kg * (u.x0 + u.x1)) / 2;
    mz += (kg * (u.z0 + u.z1)) / 2;
  }
  if (!axles || axles.kind === 'none') {
    if (reported !== undefined)
      fail('axle_load', `Vehicle ${at} lists axle_loads but has no axle model (axle data with axle access).`);
  } else {
    const expected = expectedAxles(axles, w, mx);
    if (!reported) {
      fail('axle_load', `Vehicle ${at} has axle data but no axle_loads.`);
    } else if (reported.length !== expected.length) {
      fail(
        'axle_load',
        `Vehicle ${at} lists ${reported.length} axle loads; its axle model has ${expected.length} axles.`,
      );
    } else {
      expected.forEach((e, i) => {
        const r = reported[i]!;
        const name = `Axle ${i + 1}`;
        if (r.name !== name)
          fail('axle_load', `Vehicle ${at}: axle ${i + 1} is named "${r.name}"; expected "${name}".`);
        if (Math.abs(r.position - e.position) > LENGTH_TOLERANCE)
          fail(
            'axle_load',
            `Vehicle ${at}: ${name} is at ${num(r.position)} cm; the axle model puts it at ${num(e.position)} cm.`,
          );
        // Loads are reported to the gram.
        if (Math.abs(r.load - e.load) > GRAM + RELATIVE_TOLERANCE * Math.max(1, Math.abs(e.load)))
          fail(
            'axle_load',
            `Vehicle ${at}: ${name} load is ${num(r.load)} kg; its cargo puts ${num(e.load)} kg on it.`,
          );
        if (r.max !== e.max)
          fail('axle_load', `Vehicle ${at}: ${name} max is ${num(r.max)} kg; the vehicle says ${num(e.max)} kg.`);
        const borderline = e.max > 0 && Math.abs(e.load - e.max) <= GRAM + RELATIVE_TOLERANCE * e.max;
        if (!borderline && r.ok !== within(e.load, e.max))
          fail('axle_load', `Vehicle ${at}: ${name} ok is ${r.ok} for ${num(e.load)} of ${num(e.max)} kg.`);
        if (enforce && !within(e.load, e.max))
          fail(
            'axle_load',
            `Vehicle ${at}: ${name} carries ${num(e.load)} kg, above its maximum ${num(e.max)} kg (enforce_axle).`,
          );
      });
    }
  }
  if (enforce && axles && w > 0) {
    const cx = mx / w,
      cz = mz / w;
    const offX = Math.abs(cx - vehicle.length / 2),
      offZ = Math.abs(cz - vehicle.width / 2);
    if (axles.cogRangeX !== null && offX > axles.cogRangeX + 1e-6) {
      fail(
        'cog_range',
        `Vehicle ${at}: the cargo's centre of gravity is ${num(Number(offX.toFixed(3)))} cm from the middle of the length; cog_range_x allows ${num(axles.cogRangeX)} cm.`,
      );
    }
    if (axles.cogRangeY !== null && offZ > axles.cogRangeY + 1e-6) {
      fail(
        'cog_range',
        `Vehicle ${at}: the cargo's centre of gravity is ${num(Number(offZ.toFixed(3)))} cm from the middle of the width; cog_range_y allows ${num(axles.cogRangeY)} cm.`,
      );
    }
  }
  return out;
}
