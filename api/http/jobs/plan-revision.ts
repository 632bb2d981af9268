/**
 * Wire views of plan revisions (plan editing; POST and GET /v1/jobs/{id}/revisions, GET
 * /v1/jobs/{id}/result?revision=N): the revision summary `PlanRevision`, a revision's Result
 * (its rebuilt plan with links that open it) and the `revision` query parameter.
 */
import type { Request } from 'express';
import { revisionPlan } from '../../../application/plan-revisions.js';
import type { UseCasePorts } from '../../../application/ports.js';
import type { RevisionSummary } from '../../../domain/job/revision.js';
import type { JobDocument } from '../../../projections/jobs/job-document.js';
import type { LinkSettings } from '../context.js';
import { ApiError } from '../errors.js';
import { jobPlanUrls } from '../plan-links/plan-links.js';
import type { ParameterDoc } from '../route-docs.js';
import { jobFrame, resultOfPlan } from './job-view.js';

/** Largest revision number `?revision=` accepts (9 digits, as signed links carry it). */
const MAX_REVISION = 999_999_999;

/**
 * `?revision=` (GET /v1/jobs/{id}/result, GET /v1/jobs/{id}/loading_list): the plan revision to
 * answer, 0 (the job's own plan) when absent. Throws 422 validation_failed for anything but a
 * whole number 0–999,999,999.
 */
export function revisionParam(raw: unknown): number {
  if (raw === undefined) return 0;
  if (typeof raw === 'string' && /^[0-9]{1,9}$/.test(raw) && Number(raw) <= MAX_REVISION) return Number(raw);
  throw new ApiError('validation_failed', 'the query is invalid', [
    {
      path: 'revision',
      code: 'invalid_value',
      message: `revision must be a whole number (0 for the job's own plan), got ${JSON.stringify(raw)}`,
    },
  ]);
}

/** OpenAPI doc of the `revision` query parameter. */
export const REVISION_PARAMETER: ParameterDoc = {
  name: 'revision',
  in: 'query',
  description:
    "Plan revision (POST /v1/jobs/{id}/revisions): 0 or absent is the job's own plan; an unknown revision answers 404 `not_found`",
  schema: { type: 'integer', minimum: 0, maximum: MAX_REVISION },
};

/** The wire shape of a revision (component PlanRevision): number, base, when, by whom, how many operations. */
export function revisionView(summary: RevisionSummary): Record<string, unknown> {
  return {
    revision: summary.revision,
    created_at: summary.createdAt,
    created_by: summary.createdBy,
    base_revision: summary.baseRevision,
    operations_count: summary.operationsCount,
  };
}

/**
 * Spec Result of plan revision `revision` (≥ 1) of `job` (succeeded, inside retention): the plan
 * rebuilt from the revision's layout, rendered like the job's own, with `pdf_url` and
 * `viewer_url` that open this revision. Throws 404 not_found for a revision the job does not
 * have, 410 result_expired when its bodies are gone.
 */
export async function revisionResultView(
  ctx: UseCasePorts & LinkSettings,
  req: Request,
  job: JobDocument,
  revision: number,
): Promise<Record<string, unknown>> {
  const { plan } = await revisionPlan(ctx.store, job.id, revision);
  return resultOfPlan(plan, jobFrame(job, jobPlanUrls(ctx, req, job, undefined, undefined, revision)));
}
