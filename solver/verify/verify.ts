/**
 * The independent plan verifier (DESIGN §5): checks a Plan against the PackModel it was made for,
 * written from the spec (Placement, ResultVehicle, UnplacedItem, Options, Item), not from the
 * search. Each rule lives in its own module; this one runs them all.
 */
import type { PackModel, Plan } from '../../domain/pack/plan.js';
import { checkAuxDeck } from './aux-deck.js';
import { checkAxles } from './axle.js';
import { checkBlockedAreas } from './blocked-area.js';
import { checkBounds } from './bounds.js';
import { contactsBelow } from './contact.js';
import { checkFigures } from './figures.js';
import { checkGroupRouting, groupPlaces } from './group-routing.js';
import { checkHazardous } from './hazardous.js';
import { checkInstances } from './instances.js';
import { checkLoadBearing } from './load-bearing.js';
import { checkOrientation } from './orientation.js';
import { checkOverlap } from './overlap.js';
import { checkPinned } from './pinned.js';
import { loadedVehicles } from './placed-unit.js';
import { checkStackItems } from './stack-items.js';
import { checkStacking } from './stacking.js';
import { checkSteps } from './steps.js';
import { checkSupport } from './support.js';
import type { Violation } from './violation.js';
import { checkVehicles } from './vehicles.js';
import { checkWeight } from './weight.js';

export type { VerifyRule, Violation } from './violation.js';

/**
 * Checks a plan against its model; returns every violation found (empty = the plan is valid),
 * grouped by rule in the order: vehicles, instances, bounds, overlap, orientation, weight, pinned, then
 * per vehicle support, stacking, stack_items, stack_weight / floor_load / stack_density,
 * blocked_area, steps, axle_load / cog_range, group_routing, hazardous, aux_deck; then figures.
 * Lengths cm, weights kg; geometric tolerance 1e-6 cm. Throws nothing for any plan shape the
 * types allow; tens of ms for 2000 units (test/solver/verify/performance.test.ts).
 */
export function verifyPlan(model: PackModel, plan: Plan): Violation[] {
  const vehicles = loadedVehicles(model, plan);
  const violations: Violation[] = [
    ...checkVehicles(model, plan),
    ...checkInstances(model, plan),
    ...checkBounds(vehicles),
    ...checkOverlap(vehicles),
    ...checkOrientation(vehicles),
    ...checkWeight(vehicles, model.allowOverweight),
    ...checkPinned(model, plan),
  ];
  const places = groupPlaces(model);
  for (const vehicle of vehicles) {
    const below = contactsBelow(vehicle.units, vehicle.deckHeight);
    violations.push(
      ...checkSupport(vehicle, below),
      ...checkStacking(vehicle, below),
      ...checkStackItems(vehicle, below, model.maxStackItems),
      ...checkLoadBearing(vehicle, below, model.maxStackDensity),
      ...checkBlockedAreas(vehicle),
      ...checkSteps(vehicle, below),
      ...checkAxles(vehicle, model.enforceAxle),
      ...checkGroupRouting(vehicle, below, model, places),
      ...checkHazardous(vehicle),
      ...checkAuxDeck(vehicle),
    );
  }
  violations.push(...checkFigures(vehicles));
  return violations;
}
