/**
 * Rule `vehicles`: the plan's vehicles are copies of model vehicles, listed in order, counted
 * within the job's limits (spec Result → ResultVehicle; Options.packing_mode).
 */
import type { PackModel, Plan } from '../../domain/pack/plan.js';
import { vehiclesById } from './placed-unit.js';
import type { Violation } from './violation.js';
import { num } from './violation.js';

/**
 * Checks: vehicle_id names a model vehicle; name, type, length, width, height, max_weight equal
 * the definition; index = position (0..n-1); copy is an integer ≥ 1, unique per definition;
 * auto_added === (copy > quantity), and only in `auto` mode (in `fleet_only` no copy beyond
 * quantity); at most model.maxVehicles vehicles; none is empty (spec: empty vehicles are left out).
 */
export function checkVehicles(model: PackModel, plan: Plan): Violation[] {
  const violations: Violation[] = [];
  const definitions = vehiclesById(model);
  const copiesSeen = new Map<string, Set<number>>();
  const report = (vehicle: number, message: string): void => {
    violations.push({ rule: 'vehicles', vehicle, message });
  };

  if (plan.vehicles.length > model.maxVehicles) {
    report(
      plan.vehicles.length - 1,
      `The plan uses ${plan.vehicles.length} vehicles; the job allows at most ${model.maxVehicles}.`,
    );
  }

  plan.vehicles.forEach((planned, position) => {
    const label = `Vehicle ${position} (${planned.vehicle_id} copy ${planned.copy})`;
    if (planned.index !== position)
      report(
        position,
        `${label} has index ${planned.index}; vehicles must be numbered 0..n-1 in order, so it should be ${position}.`,
      );
    if (planned.placements.length === 0)
      report(position, `${label} carries no units; empty vehicles must be left out of the plan.`);

    if (!Number.isInteger(planned.copy) || planned.copy < 1) {
      report(position, `${label} has copy ${planned.copy}; copies are integers from 1.`);
    } else {
      const seen = copiesSeen.get(planned.vehicle_id) ?? new Set<number>();
      if (seen.has(planned.copy))
        report(position, `${label}: copy ${planned.copy} of vehicle ${planned.vehicle_id} is used twice.`);
      seen.add(planned.copy);
      copiesSeen.set(planned.vehicle_id, seen);
    }

    const definition = definitions.get(planned.vehicle_id);
    if (!definition) {
      report(position, `${label} names vehicle_id ${planned.vehicle_id}, which the request does not define.`);
      return;
    }
    const fields: [string, unknown, unknown][] = [
      ['name', planned.name, definition.name],
      ['type', planned.type, definition.type],
      ['length', planned.length, definition.length],
      ['width', planned.width, definition.width],
      ['height', planned.height, definition.height],
      ['max_weight', planned.max_weight, definition.maxWeight],
    ];
    for (const [field, actual, expected] of fields) {
      if (actual !== expected) {
        const show = (v: unknown): string => (typeof v === 'number' ? num(v) : JSON.stringify(v));
        report(position, `${label} has ${field} ${show(actual)}; the definition says ${show(expected)}.`);
      }
    }

    const beyondFleet = planned.copy > definition.quantity;
    if (planned.auto_added !== beyondFleet) {
      report(
        position,
        `${label} has auto_added ${planned.auto_added}, but copy ${planned.copy} is ${beyondFleet ? 'beyond' : 'within'} the listed quantity ${definition.quantity}.`,
      );
    }
    if (model.packingMode === 'fleet_only' && beyondFleet) {
      report(
        position,
        `${label} is copy ${planned.copy} of ${definition.quantity} listed; fleet_only mode may use only listed vehicles.`,
      );
    }
    if (model.packingMode === 'fleet_only' && planned.auto_added) {
      report(position, `${label} is auto_added, but the packing mode is fleet_only.`);
    }
  });
  return violations;
}
