/**
 * Where a job made by the web app or the viewer comes from (job provenance): the `reference` (spec PackRequest
 * `reference`, max 128 characters, echoed on the job) that Re-run and Re-plan give the new job
 * when the source job has none of the planner's own, and the parent job read back from such a
 * reference for the jobs list and the job page. A project's Pack needs no reference: the service
 * stores the project on the job (`project_id`, POST /v1/projects/{id}/pack). Pure.
 */

/** Longest `reference` the service accepts (spec Validation rules, field-level length limits). */
export const REFERENCE_MAX_LENGTH = 128;

/** The job another job was made from, as its reference names it. */
export type Parent =
  { kind: 'rerun'; jobId: string } | { kind: 'replan'; jobId: string; step: number; vehicle: number };

const JOB_ID = 'job_[A-Za-z0-9_-]+';
const RERUN = new RegExp(`^Re-run of (${JOB_ID})$`);
const REPLAN = new RegExp(`^Re-plan of (${JOB_ID}) from step (\\d+) of vehicle (\\d+)$`);

/** The parent named by `reference` when it is one of the forms the web app writes; null otherwise. */
export function parentOf(reference: string | null | undefined): Parent | null {
  if (!reference) return null;
  const rerun = RERUN.exec(reference);
  if (rerun) return { kind: 'rerun', jobId: rerun[1]! };
  const replan = REPLAN.exec(reference);
  if (replan) return { kind: 'replan', jobId: replan[1]!, step: Number(replan[2]), vehicle: Number(replan[3]) };
  return null;
}

/**
 * The reference of a job made from a job whose reference was `source`: the planner's own
 * reference (an order or route number, which the jobs list's exact-reference filter finds) is
 * kept as it is; none, or one the web app wrote (a re-run of a re-run), gives `generated`.
 * The result is at most REFERENCE_MAX_LENGTH characters.
 */
export function referenceFor(source: string | null | undefined, generated: string): string {
  const chosen = source && parentOf(source) === null ? source : generated;
  return chosen.slice(0, REFERENCE_MAX_LENGTH);
}

/** "Re-run of job_…": the reference of a re-run of job `jobId`. */
export function rerunReference(jobId: string): string {
  return `Re-run of ${jobId}`;
}

/** "Re-plan of job_… from step K of vehicle N" (N: 1-based, as the re-plan form lists vehicles). */
export function replanReference(jobId: string, step: number, vehicleIndex: number): string {
  return `Re-plan of ${jobId} from step ${step} of vehicle ${vehicleIndex + 1}`;
}

/** `request` with the reference a job made from it carries (see referenceFor). */
export function withReference<T extends { reference?: string }>(request: T, generated: string): T {
  return { ...request, reference: referenceFor(request.reference, generated) };
}
