/**
 * Admission of pinned units (our extension, request Vehicle.loaded): the plan of the pinned units
 * alone (solver/search/pinned-plan.ts) goes through the independent verifier (solver/verify), and
 * every rule it breaks there is a problem of the request, since every plan keeps those units.
 * With enforce_axle this includes the axle loads and the centre of gravity of the pinned units
 * alone (rules `axle_load`, `cog_range`): the search never moves pinned units and keeps every
 * load it builds around them within the limits, so it needs them within the limits to start
 * from (a stricter rule than the whole plan's: pinned units at the front alone may put the
 * centre of gravity out of range). Used by POST /v1/pack and POST /v1/estimate (check.ts).
 */
import type { ErrorDetail } from '../../../domain/pack/diagnostics.js';
import type { PackModel } from '../../../domain/pack/plan.js';
import { pinnedOnlyPlan } from '../../../solver/search/pinned-plan.js';
import { verifyPlan } from '../../../solver/verify/verify.js';

/**
 * The problems of `model`'s pinned units, one `invalid_value` detail per violation of the
 * verifier, at `vehicles[i].loaded[j]` of the unit it names (else `vehicles[i].loaded` of the
 * vehicle it names, else `vehicles`), its message the verifier's. Empty when there are no pinned
 * units or they break no rule.
 */
export function pinnedProblems(model: PackModel): ErrorDetail[] {
  if (!model.vehicles.some((v) => (v.loaded?.length ?? 0) > 0)) return [];
  // Where each pinned unit is in the request: by "item_id#instance" (instances 1..k in request order).
  const entries = new Map<string, string>();
  const nextInstance = model.items.map(() => 1);
  model.vehicles.forEach((v, i) =>
    (v.loaded ?? []).forEach((u, j) => {
      entries.set(`${model.items[u.item]!.id}#${nextInstance[u.item]!++}`, `vehicles[${i}].loaded[${j}]`);
    }),
  );
  const plan = pinnedOnlyPlan(model);
  return verifyPlan(model, plan).map((v): ErrorDetail => {
    const unit =
      v.item_id !== undefined && v.instance !== undefined ? entries.get(`${v.item_id}#${v.instance}`) : undefined;
    const vehicleId = v.vehicle !== undefined ? plan.vehicles[v.vehicle]?.vehicle_id : undefined;
    const definition = vehicleId !== undefined ? model.vehicles.findIndex((d) => d.id === vehicleId) : -1;
    const path = unit ?? (definition >= 0 ? `vehicles[${definition}].loaded` : 'vehicles');
    return {
      path,
      code: 'invalid_value',
      message: `the pinned units alone break the rule ${v.rule}: ${v.message}`,
    };
  });
}
