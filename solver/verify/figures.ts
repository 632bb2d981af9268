/**
 * Rule `figures`: each vehicle's summary numbers match its placements (spec ResultVehicle:
 * items_placed, total_weight, volume_utilization, weight_utilization, center_of_gravity).
 */
import type { Point } from '../../domain/pack/plan.js';
import { nestDepth, nestsInto } from './nesting.js';
import type { LoadedVehicle, PlacedUnit } from './placed-unit.js';
import type { Violation } from './violation.js';
import { nearlyEqual, num } from './violation.js';

/** Centre-of-gravity tolerance per axis, cm. */
const COG_TOLERANCE = 1e-3;

/** The figures a vehicle's placements imply (cargo space and payload from LoadedVehicle). */
export interface VehicleFigures {
  items_placed: number;
  /** kg, Σ placement.weight. */
  total_weight: number;
  /** Σ placed box volume / cargo volume, 0–1; a nested unit counts only the part above the unit it sinks into. */
  volume_utilization: number;
  /** total_weight / max_weight; may exceed 1 with allow_overweight. */
  weight_utilization: number;
  /** Weight-weighted mean of the placed boxes' centres, cm; null when total_weight is 0 (then undefined). */
  center_of_gravity: Point | null;
}

/** Computes the figures of one vehicle from its placements. */
export function vehicleFigures(vehicle: LoadedVehicle): VehicleFigures {
  let weight = 0;
  let volume = 0;
  const moment = { x: 0, y: 0, z: 0 };
  // A nested unit adds only what sticks out of the unit it sinks into (nesting.ts); candidates
  // are the units of the same item, compared with nestsInto's tolerance.
  const byItem = new Map<string, PlacedUnit[]>();
  for (const u of vehicle.units) {
    if (nestDepth(u) <= 0) continue;
    const list = byItem.get(u.placement.item_id);
    if (list) list.push(u);
    else byItem.set(u.placement.item_id, [u]);
  }
  for (const unit of vehicle.units) {
    const p = unit.placement;
    weight += p.weight;
    const depth = nestDepth(unit);
    const nested = depth > 0 && (byItem.get(p.item_id) ?? []).some((lower) => lower !== unit && nestsInto(unit, lower));
    volume += p.length * p.width * (nested ? p.height - depth : p.height);
    moment.x += p.weight * (p.x + p.length / 2);
    moment.y += p.weight * (p.y + p.height / 2);
    moment.z += p.weight * (p.z + p.width / 2);
  }
  return {
    items_placed: vehicle.units.length,
    total_weight: weight,
    volume_utilization: volume / (vehicle.length * vehicle.width * vehicle.height),
    weight_utilization: weight / vehicle.maxWeight,
    center_of_gravity: weight > 0 ? { x: moment.x / weight, y: moment.y / weight, z: moment.z / weight } : null,
  };
}

/**
 * Checks each vehicle: items_placed exact; total_weight, volume_utilization and
 * weight_utilization within relative 1e-6 (of max(1, |expected|)); center_of_gravity within
 * 1e-3 cm per axis (only finite when nothing weighs anything or a placement is not finite: `bounds` reports that). Figures are not rounded by the spec.
 */
export function checkFigures(vehicles: readonly LoadedVehicle[]): Violation[] {
  const violations: Violation[] = [];
  for (const vehicle of vehicles) {
    const planned = vehicle.planned;
    const expected = vehicleFigures(vehicle);
    const report = (message: string): void => {
      violations.push({
        rule: 'figures',
        vehicle: vehicle.position,
        message: `Vehicle ${vehicle.position}: ${message}`,
      });
    };
    if (planned.items_placed !== expected.items_placed)
      report(`items_placed is ${planned.items_placed} but it holds ${expected.items_placed} placements.`);
    const ratios = [
      ['total_weight', planned.total_weight, expected.total_weight, 'the sum of its placement weights (kg)'],
      ['volume_utilization', planned.volume_utilization, expected.volume_utilization, 'placed volume / cargo volume'],
      ['weight_utilization', planned.weight_utilization, expected.weight_utilization, 'total weight / max_weight'],
    ] as const;
    for (const [field, actual, want, meaning] of ratios) {
      if (Number.isFinite(want) && !nearlyEqual(actual, want))
        report(`${field} is ${num(actual)}; ${meaning} is ${num(want)}.`);
    }
    const cog = planned.center_of_gravity;
    const want = expected.center_of_gravity;
    const axes = ['x', 'y', 'z'] as const;
    if (!cog || !axes.every((a) => typeof cog[a] === 'number' && Number.isFinite(cog[a]))) {
      report(`center_of_gravity ${JSON.stringify(cog)} is not a point of finite numbers.`);
    } else if (
      want &&
      axes.every((a) => Number.isFinite(want[a])) &&
      axes.some((a) => !(Math.abs(cog[a] - want[a]) <= COG_TOLERANCE))
    ) {
      report(
        `center_of_gravity is (${num(cog.x)}, ${num(cog.y)}, ${num(cog.z)}) cm; the weighted centre of its units is (${num(want.x)}, ${num(want.y)}, ${num(want.z)}) cm.`,
      );
    }
  }
  return violations;
}
