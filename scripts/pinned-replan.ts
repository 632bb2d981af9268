/**
 * The hand-worked re-plan case of pinned units (request Vehicle.loaded): solves a pack request,
 * pins the units of its plan up to a loading step (every unit of the result vehicles before
 * `--vehicle`, and the units of that vehicle with step ≤ `--step`: solver/edit/replan-request.ts,
 * "re-plan from step K"), solves the request again with them pinned, and prints for both plans
 * the fill, the units placed and the verifier's findings, and whether every pinned unit kept its
 * place and its loading step.
 * Deterministic: one search worker, `--work` block placements (default 20,000).
 *
 * Usage: npx tsx scripts/pinned-replan.ts examples/eur-pallets-13-6m-trailer.json --step 10 [--vehicle 0] [--work 20000]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../api/http/pack-request/check.js';
import type { PackModel, Plan } from '../domain/pack/plan.js';
import type { PackRequest } from '../domain/pack/request.js';
import { replanRequest } from '../solver/edit/replan-request.js';
import { search } from '../solver/search/search.js';
import { verifyPlan } from '../solver/verify/verify.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    step: { type: 'string', default: '10' },
    vehicle: { type: 'string', default: '0' },
    work: { type: 'string', default: '20000' },
  },
});
const file = positionals[0];
if (!file)
  throw new Error('usage: npx tsx scripts/pinned-replan.ts <pack request JSON> --step K [--vehicle V] [--work N]');
const step = Number(values.step),
  vehicle = Number(values.vehicle),
  work = Number(values.work);

/** The model of `request`, or throws with the API's answer. */
function modelOf(request: PackRequest): PackModel {
  const checked = checkPackRequest(request, SCRIPT_CHECK_CONTEXT);
  if (!checked.ok) throw new Error(`${checked.message} ${JSON.stringify(checked.details.slice(0, 5))}`);
  return { ...checked.model, workLimit: work, budgetMs: 600_000 };
}

function solve(model: PackModel): { plan: Plan; ms: number } {
  const start = Date.now();
  const plan = search({ model, worker: 0, stride: 1, deadline: start + 600_000, work }).plans[0]!.plan;
  return { plan, ms: Date.now() - start };
}

function figures(model: PackModel, plan: Plan): string {
  const placed = plan.vehicles.reduce((s, v) => s + v.items_placed, 0);
  const cargo = plan.vehicles.reduce((s, v) => s + v.length * v.width * v.height, 0);
  const used = plan.vehicles.reduce((s, v) => s + v.volume_utilization * v.length * v.width * v.height, 0);
  const fill = plan.vehicles.map((v) => `${(v.volume_utilization * 100).toFixed(2)} %`).join(', ');
  return `${plan.vehicles.length} vehicle(s), fill ${fill} (overall ${((used / cargo) * 100).toFixed(2)} %), ${placed} of ${placed + plan.unplaced.length} units placed, verifier: ${verifyPlan(model, plan).length} violation(s)`;
}

const request = JSON.parse(readFileSync(file, 'utf8')) as PackRequest;
const model = modelOf(request);
const first = solve(model);
console.log(`before (${first.ms} ms): ${figures(model, first.plan)}`);

// The pinned units: whole vehicles before `vehicle`, steps 1..step of `vehicle` (design §4).
const pinnedRequest = replanRequest(request, first.plan, vehicle, step);
const pins = pinnedRequest.vehicles.flatMap((v, i) =>
  (v.loaded ?? []).map((unit) => {
    const copy = unit.copy ?? 1;
    const before = first.plan.vehicles
      .find((pv) => pv.vehicle_id === model.vehicles[i]!.id && pv.copy === copy)!
      .placements.find((p) => p.item_id === unit.item_id && p.x === unit.x && p.y === unit.y && p.z === unit.z)!;
    return { vehicle_id: model.vehicles[i]!.id, copy, unit, step: before.step };
  }),
);
const pinnedModel = modelOf(pinnedRequest);
const second = solve(pinnedModel);
console.log(`pinned: ${pins.length} units (vehicles before ${vehicle}, steps 1..${step} of vehicle ${vehicle})`);
console.log(`after  (${second.ms} ms): ${figures(pinnedModel, second.plan)}`);

let moved = 0,
  sameStep = 0;
for (const pin of pins) {
  const v = second.plan.vehicles.find((pv) => pv.vehicle_id === pin.vehicle_id && pv.copy === pin.copy);
  const at = v?.placements.find(
    (p) =>
      p.item_id === pin.unit.item_id &&
      Math.abs(p.x - pin.unit.x) <= 1e-6 &&
      Math.abs(p.y - pin.unit.y) <= 1e-6 &&
      Math.abs(p.z - pin.unit.z) <= 1e-6 &&
      p.orientation === pin.unit.orientation,
  );
  if (!at) moved++;
  else if (at.step === pin.step) sameStep++;
}
console.log(
  `pinned units that moved: ${moved} of ${pins.length}; pinned units at the step they had: ${sameStep} of ${pins.length}`,
);
