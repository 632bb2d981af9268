/**
 * Rule `steps`: a crew can load each vehicle in ascending step order (spec Placement.step:
 * 1-based loading step within the vehicle; DESIGN §5: nothing is loaded before what holds it up).
 */
import type { Contact } from './contact.js';
import type { LoadedVehicle } from './placed-unit.js';
import type { Violation } from './violation.js';
import { unitName } from './violation.js';

/**
 * Checks one vehicle: its steps are exactly 1..n (n = number of units, each once), and every
 * unit's step is greater than the step of each unit it rests on.
 */
export function checkSteps(vehicle: LoadedVehicle, below: readonly Contact[][]): Violation[] {
  const violations: Violation[] = [];
  const n = vehicle.units.length;
  const owners = new Map<number, string[]>();
  for (const { placement: p } of vehicle.units) {
    const name = unitName(p.item_id, p.instance);
    if (!Number.isInteger(p.step) || p.step < 1 || p.step > n) {
      violations.push({
        rule: 'steps',
        vehicle: vehicle.position,
        item_id: p.item_id,
        instance: p.instance,
        message: `${name} in vehicle ${vehicle.position} has step ${p.step}; the vehicle's ${n} units must have steps 1..${n}.`,
      });
      continue;
    }
    const list = owners.get(p.step) ?? [];
    list.push(name);
    owners.set(p.step, list);
  }
  const missing: number[] = [];
  for (let step = 1; step <= n; step++) {
    const list = owners.get(step);
    if (!list) missing.push(step);
    else if (list.length > 1)
      violations.push({
        rule: 'steps',
        vehicle: vehicle.position,
        message: `Step ${step} of vehicle ${vehicle.position} is given to ${list.length} units (${list.join(', ')}); each step belongs to one unit.`,
      });
  }
  if (missing.length > 0) {
    violations.push({
      rule: 'steps',
      vehicle: vehicle.position,
      message: `Vehicle ${vehicle.position} has no unit at step${missing.length === 1 ? '' : 's'} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ` and ${missing.length - 10} more` : ''}; steps must be 1..${n}.`,
    });
  }

  for (const contacts of below) {
    for (const c of contacts) {
      const upper = vehicle.units[c.upper]!.placement;
      const lower = vehicle.units[c.lower]!.placement;
      if (upper.step > lower.step) continue;
      violations.push({
        rule: 'steps',
        vehicle: vehicle.position,
        item_id: upper.item_id,
        instance: upper.instance,
        message: `${unitName(upper.item_id, upper.instance)} (step ${upper.step}) rests on ${unitName(lower.item_id, lower.instance)} (step ${lower.step}) in vehicle ${vehicle.position}; it must be loaded after what holds it up.`,
      });
    }
  }
  return violations;
}
