/**
 * "Re-plan from step K" on the job page (plan editing, design §4): the job's request with every
 * unit loaded up to step K of a vehicle pinned where it is (`vehicles[].loaded`, our extension),
 * built by solver/edit/replan-request.ts (the same function as the viewer's), and posted as a new
 * job (POST /v1/pack with an Idempotency-Key, billed like any job). The form's choices and reading
 * are pure; `replanJob` makes the calls.
 */
import { call, newIdempotencyKey } from '../api.js';
import type { Job, PackRequest, Result } from '../playground/pack-request.js';
import type { PackRequest as DomainPackRequest } from '../../../domain/pack/request.js';
import { replanRequest } from '../../../solver/edit/replan-request.js';
import { jobRequestOf } from './job-request.js';
import { replanReference, withReference } from '../../../domain/job/provenance.js';

/** One vehicle of the form's select: the result index as value, "1 · Van (copy 2)" as label, its units. */
export interface VehicleChoice {
  value: string;
  label: string;
  units: number;
}

/** The vehicles of `result` in loading order, as the re-plan form offers them. */
export function vehicleChoices(result: Pick<Result, 'vehicles'>): VehicleChoice[] {
  return result.vehicles.map((v, i) => ({
    value: String(i),
    label: `${i + 1} · ${v.name} (copy ${v.copy})`,
    units: v.placements.length,
  }));
}

/** The form as typed: the vehicle select's value and the step input's text. */
export interface ReplanFormInput {
  vehicle: string;
  step: string;
}

/** The form read: result vehicle index and step K, or the problems to show beside the fields. */
export type ReplanChoice =
  { ok: true; vehicle: number; step: number } | { ok: false; errors: { vehicle?: string; step?: string } };

/**
 * Reads the form against `result`: the vehicle must be one of its vehicles, the step a whole
 * number from 0 to that vehicle's units (0: keep only the vehicles before it).
 */
export function readReplanForm(result: Pick<Result, 'vehicles'>, input: ReplanFormInput): ReplanChoice {
  const errors: { vehicle?: string; step?: string } = {};
  const vehicle = /^\d+$/.test(input.vehicle) ? Number(input.vehicle) : NaN;
  const chosen = Number.isInteger(vehicle) ? result.vehicles[vehicle] : undefined;
  if (!chosen) errors.vehicle = 'Choose a vehicle of the plan.';
  const text = input.step.trim();
  const step = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(step)) errors.step = 'Give the step as a whole number.';
  else if (chosen && step > chosen.placements.length)
    errors.step = `This vehicle has ${chosen.placements.length} loading steps: give a step from 0 to ${chosen.placements.length}.`;
  if (errors.vehicle || errors.step || !chosen) return { ok: false, errors };
  return { ok: true, vehicle, step };
}

/**
 * The request of the re-plan: `request` (the job's PackRequest) with the units of `result`
 * loaded up to step `step` of result vehicle `vehicle` pinned (solver/edit/replan-request.ts).
 * Throws RangeError for a vehicle or step out of range and Error when a result vehicle names no
 * vehicle of the request.
 */
export function replanJobRequest(request: PackRequest, result: Result, vehicle: number, step: number): PackRequest {
  // The web app types only the fields it edits; the wire request is the domain's PackRequest.
  return replanRequest(request as unknown as DomainPackRequest, result, vehicle, step) as unknown as PackRequest;
}

/**
 * The body of the re-plan of job `jobId` from step `step` of vehicle `vehicle` of `result` (one
 * of its revisions): the job's request (GET /v1/jobs/{id}?include=request) with those units
 * pinned, and the reference "Re-plan of job_… from step K of vehicle N" unless the job carries
 * the planner's own (provenance.ts). Throws like jobRequestOf and replanJobRequest.
 */
export async function replanRequestOf(
  jobId: string,
  result: Result,
  vehicle: number,
  step: number,
): Promise<PackRequest> {
  const request = await jobRequestOf(jobId);
  return withReference(replanJobRequest(request, result, vehicle, step), replanReference(jobId, step, vehicle));
}

/** Posts `body` as a new job (POST /v1/pack with `idempotencyKey`, one per confirmed click); resolves with the job. */
export function postJob(body: PackRequest, idempotencyKey: string): Promise<Job> {
  return call<Job>('POST', '/v1/pack', body, { 'Idempotency-Key': idempotencyKey });
}

/**
 * Re-plans job `jobId` from step `step` of vehicle `vehicle` of `result` (one of its revisions):
 * the body of replanRequestOf posted (POST /v1/pack, `idempotencyKey` one per click). Resolves
 * with the new job. Throws ApiFailure (410 result_expired once the request was deleted; the
 * service's 4xx, e.g. 422 when it refuses a pinned unit, or 402 without the credits) or the
 * errors of replanJobRequest.
 */
export async function replanJob(
  jobId: string,
  result: Result,
  vehicle: number,
  step: number,
  idempotencyKey = newIdempotencyKey(),
): Promise<Job> {
  return postJob(await replanRequestOf(jobId, result, vehicle, step), idempotencyKey);
}
