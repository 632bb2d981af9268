/**
 * A job's request, read back to run it again or open it in the playground:
 * GET /v1/jobs/{id}?include=request (our extension) gives the PackRequest as sent (for a project
 * pack, the project's request), null once retention deleted it.
 */
import { ApiFailure, call, newIdempotencyKey } from '../api.js';
import type { Job, PackRequest } from '../playground/pack-request.js';
import { rerunReference, withReference } from '../../../domain/job/provenance.js';

/** The PackRequest of job `id`. Throws ApiFailure: the service's, or `result_expired` (status 410) once retention deleted the request. */
export async function jobRequestOf(id: string): Promise<PackRequest> {
  const job = await call<Job & { request?: PackRequest | null }>(
    'GET',
    `/v1/jobs/${encodeURIComponent(id)}?include=request`,
  );
  if (!job.request)
    throw new ApiFailure(
      410,
      'result_expired',
      `the request of job ${id} was deleted after retention; it cannot be run again`,
    );
  return job.request;
}

/**
 * The body of a re-run of job `id`: its request as sent, with the reference "Re-run of job_…"
 * unless it carries the planner's own (provenance.ts). Throws like jobRequestOf.
 */
export async function rerunRequestOf(id: string): Promise<PackRequest> {
  return withReference(await jobRequestOf(id), rerunReference(id));
}

/**
 * Runs job `id`'s request again: POST /v1/pack with the body of rerunRequestOf and a fresh
 * Idempotency-Key (one per click; a retry of the same click would reuse it); resolves with the
 * new job (queued or running).
 */
export async function rerunJob(id: string, idempotencyKey = newIdempotencyKey()): Promise<Job> {
  return call<Job>('POST', '/v1/pack', await rerunRequestOf(id), { 'Idempotency-Key': idempotencyKey });
}
