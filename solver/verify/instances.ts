/**
 * Rule `instances`: every unit of every item appears exactly once in the plan, placed or
 * unplaced (spec Placement.instance: 1-based, unique across the whole plan; UnplacedItem).
 */
import type { PackModel, Plan, UnplacedReason } from '../../domain/pack/plan.js';
import { itemsById } from './placed-unit.js';
import type { Violation } from './violation.js';
import { unitName } from './violation.js';

/** The UnplacedReason values (domain/pack/plan.ts). */
export const UNPLACED_REASONS: readonly UnplacedReason[] = [
  'no_space',
  'weight_limit',
  'load_limit',
  'axle_limit',
  'vehicle_limit',
  'time_limit',
  'rule_pallets_on_cartons',
  'rule_heavy_on_light',
  'rule_max_slenderness',
];

/**
 * Checks: every placement and unplaced entry names a model item, an integer instance in
 * 1..quantity and the item's label; unplaced reasons are UnplacedReason values; each instance
 * 1..quantity of each item appears exactly once (missing ones are listed as ranges, one
 * violation per item).
 */
export function checkInstances(model: PackModel, plan: Plan): Violation[] {
  const violations: Violation[] = [];
  const items = itemsById(model);
  const seen = new Map<string, Map<number, string[]>>();

  const visit = (
    entry: { item_id: string; instance: number; label: string },
    where: string,
    vehicle: number | undefined,
  ): void => {
    const base = {
      rule: 'instances' as const,
      item_id: entry.item_id,
      instance: entry.instance,
      ...(vehicle === undefined ? {} : { vehicle }),
    };
    const name = unitName(entry.item_id, entry.instance);
    const item = items.get(entry.item_id);
    if (!item) {
      violations.push({
        ...base,
        message: `${name} (${where}) names item_id ${entry.item_id}, which the request does not define.`,
      });
      return;
    }
    if (!Number.isInteger(entry.instance) || entry.instance < 1 || entry.instance > item.quantity) {
      violations.push({
        ...base,
        message: `${name} (${where}): instance ${entry.instance} is outside 1..${item.quantity} of item ${item.id}.`,
      });
      return;
    }
    if (entry.label !== item.label) {
      violations.push({
        ...base,
        message: `${name} (${where}) has label ${JSON.stringify(entry.label)}; item ${item.id} is labelled ${JSON.stringify(item.label)}.`,
      });
    }
    const byInstance = seen.get(item.id) ?? new Map<number, string[]>();
    seen.set(item.id, byInstance);
    const places = byInstance.get(entry.instance) ?? [];
    places.push(where);
    byInstance.set(entry.instance, places);
  };

  plan.vehicles.forEach((vehicle, position) => {
    for (const p of vehicle.placements) visit(p, `vehicle ${position}`, position);
  });
  for (const u of plan.unplaced) {
    visit(u, 'unplaced', undefined);
    if (!UNPLACED_REASONS.includes(u.reason)) {
      violations.push({
        rule: 'instances',
        item_id: u.item_id,
        instance: u.instance,
        message: `Unplaced ${unitName(u.item_id, u.instance)} has reason ${JSON.stringify(u.reason)}; reasons are ${UNPLACED_REASONS.join(', ')}.`,
      });
    }
  }

  for (const item of items.values()) {
    const byInstance = seen.get(item.id);
    const missing: number[] = [];
    for (let instance = 1; instance <= item.quantity; instance++) {
      const places = byInstance?.get(instance);
      if (!places) missing.push(instance);
      else if (places.length > 1) {
        violations.push({
          rule: 'instances',
          item_id: item.id,
          instance,
          message: `${unitName(item.id, instance)} appears ${places.length} times (${places.join(', ')}); each unit must appear exactly once.`,
        });
      }
    }
    if (missing.length > 0) {
      violations.push({
        rule: 'instances',
        item_id: item.id,
        instance: missing[0]!,
        message: `Item ${item.id}: ${missing.length} of ${item.quantity} units appear neither placed nor unplaced (instances ${ranges(missing)}).`,
      });
    }
  }
  return violations;
}

/** Ascending integers as ranges: [1,2,3,7,9,10] → "1–3, 7, 9–10". */
function ranges(sorted: readonly number[]): string {
  const parts: string[] = [];
  let start = sorted[0]!;
  let prev = start;
  for (const n of [...sorted.slice(1), Number.NaN]) {
    if (n === prev + 1) {
      prev = n;
      continue;
    }
    parts.push(start === prev ? String(start) : `${start}–${prev}`);
    start = n;
    prev = n;
  }
  return parts.join(', ');
}
