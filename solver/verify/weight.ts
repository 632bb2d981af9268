/**
 * Rule `weight`: each placement carries its item's unit weight, and no vehicle carries more than
 * its payload unless Options.allow_overweight (spec Vehicle.max_weight, Item.weight).
 */
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { nearlyEqual, num, unitName } from './violation.js';

/** Payload slack, kg: sums of many float weights drift far below this. */
const PAYLOAD_TOLERANCE = 1e-6;

/** Checks placement.weight = item weight (relative 1e-6) and Σ weight ≤ max_weight + 1e-6 kg unless allowOverweight. */
export function checkWeight(vehicles: readonly LoadedVehicle[], allowOverweight: boolean): Violation[] {
  const violations: Violation[] = [];
  for (const vehicle of vehicles) {
    let total = 0;
    for (const { placement: p, item } of vehicle.units) {
      total += p.weight;
      if (item && !nearlyEqual(p.weight, item.weight)) {
        violations.push({
          rule: 'weight',
          vehicle: vehicle.position,
          item_id: p.item_id,
          instance: p.instance,
          message: `${unitName(p.item_id, p.instance)} in vehicle ${vehicle.position} weighs ${num(p.weight)} kg; item ${item.id} weighs ${num(item.weight)} kg per unit.`,
        });
      }
    }
    if (!allowOverweight && !(total <= vehicle.maxWeight + PAYLOAD_TOLERANCE)) {
      violations.push({
        rule: 'weight',
        vehicle: vehicle.position,
        message: `Vehicle ${vehicle.position} carries ${num(total)} kg; its max_weight is ${num(vehicle.maxWeight)} kg (${num(total - vehicle.maxWeight)} kg over) and overweight is not allowed.`,
      });
    }
  }
  return violations;
}
