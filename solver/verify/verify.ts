/**
 * The independent plan verifier (DESIGN §5): checks a Plan against the PackModel it was made for,
 * written from the spec (Placement, ResultVehicle, UnplacedItem, Options, Item), not from the
 * search. Each rule lives in its own module; this one runs them all.
 */
import { STACKING_OFF, type PackModel, type Plan } from '../../domain/pack/plan.js';
import { checkAuxDeck } from './aux-deck.js';
import { checkAxles } from './axle.js';
import { checkBlockedAreas } from './blocked-area.js';
import { checkBounds } from './bounds.js';
import { contactsBelow } from './contact.js';
import { checkFigures } from './figures.js';
import { checkGroupRouting, groupPlaces } from './group-routing.js';
import { checkHeavyOnLight } from './heavy-on-light.js';
import { checkHazardous } from './hazardous.js';
import { checkInstances } from './instances.js';
import { checkLoadBearing } from './load-bearing.js';
import { checkOrientation } from './orientation.js';
import { checkOverlap } from './overlap.js';
import { checkPalletBase } from './pallet-base.js';
import { checkPinned } from './pinned.js';
import { loadedVehicles } from './placed-unit.js';
import { checkSlenderness } from './slenderness.js';
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
 * blocked_area, steps, axle_load / cog_range, group_routing, hazardous, aux_deck, then the safe
 * stacking rules pallets_on_cartons, heavy_on_light and max_slenderness (model.stacking; off for
 * models stored without it); then figures.
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
  const stacking = model.stacking ?? STACKING_OFF;
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
      ...checkPalletBase(vehicle, below, stacking),
      ...checkHeavyOnLight(vehicle, below, stacking),
      ...checkSlenderness(vehicle, below, stacking),
    );
  }
  violations.push(...checkFigures(vehicles));
  return violations;
}
