/**
 * The owner revokes a job's shared links (the web app's own API, not in the OpenAPI document):
 * POST /app/api/jobs/:id/revoke-links → 200 with the Job and its new `pdf_url` / `viewer_url`;
 * every viewer and PDF link of the job issued before answers 404 not_found from now on
 * (application/link-revocation.ts). Owner only (403 forbidden for members), with the session's CSRF
 * token; 404 job_not_found for another organization's or an unknown job.
 */
import { Router } from 'express';
import { JOBS, type JobDocument } from '../../../projections/jobs/job-document.js';
import { ApiError } from '../../http/errors.js';
import { jobView } from '../../http/jobs/job-view.js';
import { revokeJobLinks } from '../../../application/link-revocation.js';
import { ROUTER_OPTIONS } from '../../http/route-docs.js';
import type { RouteContext } from '../../http/context.js';
import { requireOwner, requireWebSession, webCallerOf } from '../access.js';

/** Router of /app/api/jobs/:id/revoke-links. */
export function webAppJobLinksRouter(ctx: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);
  router.post('/app/api/jobs/:id/revoke-links', requireWebSession(ctx), requireOwner, async (req, res) => {
    const { org, member } = webCallerOf(res);
    const id = String(req.params['id']);
    const jobs = ctx.reads.collection<JobDocument>(JOBS);
    const job = await jobs.get(id);
    if (!job || job.orgId !== org.id) throw new ApiError('job_not_found', `no job ${id} in this organization`);
    const revoked = await revokeJobLinks(ctx.store, id, { id: member.id, name: member.name }, ctx.clock());
    await ctx.projections.waitFor(revoked.position);
    res.setHeader('Cache-Control', 'no-store');
    res.json(jobView(ctx, req, (await jobs.get(id)) ?? job));
  });
  return router;
}
