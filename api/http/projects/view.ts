/**
 * The Project record (spec "Resources and their fields" → Project): the read model's document as
 * the API shows it, with the saved plan's Result and its signed PDF and viewer links while its job is retained.
 */
import type { Request } from 'express';
import { JOBS, type JobDocument } from '../../../projections/jobs/job-document.js';
import { PROJECTS, type ProjectDocument } from '../../../projections/projects/project-document.js';
import type { Caller } from '../auth/auth.js';
import { ApiError } from '../errors.js';
import { resultView } from '../jobs/job-view.js';
import { planUrls } from '../plan-links/plan-links.js';
import type { LinkSettings } from '../context.js';
import type { UseCasePorts } from '../../../application/ports.js';

/** The caller's project document, or 404 project_not_found (another organization's ids look absent). */
export async function ownProject(
  ctx: UseCasePorts & LinkSettings,
  caller: Caller,
  id: string,
): Promise<ProjectDocument> {
  const doc = await ctx.reads.collection<ProjectDocument>(PROJECTS).get(id);
  if (!doc || doc.orgId !== caller.orgId)
    throw new ApiError('project_not_found', `no project ${id} in this organization`);
  return doc;
}

/** The Project record; `withPlan` reads the saved plan (GET one), lists leave it out. */
export async function projectView(
  ctx: UseCasePorts & LinkSettings,
  req: Request,
  doc: ProjectDocument,
  withPlan: boolean,
): Promise<Record<string, unknown>> {
  const saved = doc.plan;
  const live = saved !== null && ctx.clock() < saved.expiresAt;
  const view: Record<string, unknown> = {
    id: doc.id,
    object: 'project',
    name: doc.name,
    vehicles: doc.vehicles,
    items: doc.items,
    groups: doc.groups,
    options: doc.options,
  };
  // The plan's job: its links are signed with the job's link generation (revocable links).
  const job = live ? await ctx.reads.collection<JobDocument>(JOBS).get(saved.jobId) : undefined;
  if (withPlan) view['plan'] = job ? await resultView(ctx, req, job) : null;
  return {
    ...view,
    plan_job_id: saved?.jobId ?? null,
    plan_summary: saved?.summary ?? null,
    plan_saved_at: saved?.savedAt ?? null,
    ...planUrls(ctx, req, saved?.jobId ?? '', saved?.expiresAt ?? '', live, job?.linkGeneration ?? 0),
    packing: doc.packingJobId,
    created_at: doc.createdAt,
    updated_at: doc.updatedAt,
    created_by: doc.createdBy,
    updated_by: doc.updatedBy,
  };
}
