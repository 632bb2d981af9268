/**
 * Plan revisions of a succeeded job (plan editing, our extension):
 * - POST /v1/jobs/{id}/revisions `{base_revision, operations}` (scope pack:write; a web app session
 *   of an owner or member works, with its CSRF token): the operations applied to the latest
 *   revision and checked by the verifier; 201 with the new revision and its Result, 409 `conflict`
 *   when `base_revision` is not the latest (also when another save on it won), 422
 *   `validation_failed` with one detail per problem (nothing stored). Free: no credits.
 * - GET /v1/jobs/{id}/revisions (scope jobs:read): the revisions, newest first, paged.
 * Both answer the errors of GET /v1/jobs/{id}/result for the job's state. The use case is
 * application/plan-revisions.ts, the decision domain/job/revision.ts.
 */
import { Router } from 'express';
import { revisePlan, revisionsOf } from '../../../application/plan-revisions.js';
import type { EditOperation } from '../../../solver/edit/operations.js';
import { actorOf } from '../auth/actor.js';
import { authenticate, callerOf } from '../auth/auth.js';
import { jsonBody } from '../body.js';
import type { RouteContext } from '../context.js';
import { ApiError } from '../errors.js';
import { jobFrame, resultOfPlan } from '../jobs/job-view.js';
import { revisionView } from '../jobs/plan-revision.js';
import { REVISION_SCHEMAS, revisionInputProblems } from '../jobs/revision-shape.js';
import { ref } from '../openapi/components.js';
import { encodeCursor, parseListQuery } from '../paging.js';
import { jobPlanUrls } from '../plan-links/plan-links.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import { LIST_PARAMETERS, refuseProblems, requireObject } from '../saved-record.js';
import { checkResultReadable, ownJob } from './jobs.js';

/** The revision after which a page starts (from the cursor's id), or 422 validation_failed. */
function cursorRevision(after: { id: string } | null): number {
  if (after === null) return Number.POSITIVE_INFINITY;
  if (/^[1-9][0-9]{0,8}$/.test(after.id)) return Number(after.id);
  throw new ApiError('validation_failed', 'the query is invalid', [
    {
      path: 'cursor',
      code: 'invalid_value',
      message: 'cursor is not one this service issued; pass next_cursor unchanged',
    },
  ]);
}

export function revisionsRouter(ctx: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);

  router.post('/v1/jobs/:id/revisions', authenticate(ctx, 'pack:write'), async (req, res) => {
    const caller = callerOf(res);
    const body = requireObject(jsonBody(req));
    refuseProblems(revisionInputProblems(body), 'revision');
    const job = await ownJob(ctx, caller.orgId, String(req.params['id']));
    checkResultReadable(ctx, job);
    const { summary, plan } = await revisePlan(ctx, {
      jobId: job.id,
      actor: actorOf(caller),
      baseRevision: body['base_revision'] as number,
      operations: body['operations'] as EditOperation[],
    });
    const urls = jobPlanUrls(ctx, req, job, undefined, undefined, summary.revision);
    res.status(201).json({ ...revisionView(summary), result: resultOfPlan(plan, jobFrame(job, urls)) });
  });

  router.get('/v1/jobs/:id/revisions', authenticate(ctx, 'jobs:read'), async (req, res) => {
    const caller = callerOf(res);
    const query = parseListQuery(req.query, caller);
    const before = cursorRevision(query.after);
    const job = await ownJob(ctx, caller.orgId, String(req.params['id']));
    checkResultReadable(ctx, job);
    const { revisions } = await revisionsOf(ctx.store, job.id);
    const newestFirst = revisions
      .filter((r) => r.revision < before && (query.createdBy === null || r.createdBy.id === query.createdBy))
      .reverse();
    const data = newestFirst.slice(0, query.limit);
    const last = data[data.length - 1];
    const more = newestFirst.length > query.limit && last !== undefined;
    res.json({
      data: data.map(revisionView),
      next_cursor: more ? encodeCursor({ createdAt: last.createdAt, id: String(last.revision) }) : '',
    });
  });

  return router;
}

const jobId = {
  name: 'id',
  in: 'path' as const,
  required: true,
  description: 'Job id (`job_…`)',
  schema: { type: 'string' },
};

const STATE_ERRORS = ['job_not_found', 'job_not_finished', 'job_failed', 'job_canceled', 'result_expired'] as const;

/** Route module: router, OpenAPI docs and the revision schemas. */
export const revisionsRoutes: RouteModule = {
  router: revisionsRouter,
  schemas: REVISION_SCHEMAS,
  docs: [
    {
      method: 'post',
      path: '/v1/jobs/{id}/revisions',
      operationId: 'createPlanRevision',
      summary: "Save a revision of a job's plan (edit it)",
      description:
        "Our extension. Applies `operations` in order to revision `base_revision` of the succeeded job's plan (0: the job's own; `vehicle` indices are those of that revision's Result), rebuilds the plan (sizes, weights, loading steps, figures, axle loads) and checks it with the same independent verifier every solver plan passes. " +
        'Valid: 201 with revision `base_revision + 1` and its Result (its own `pdf_url` and `viewer_url`; read it again with GET /v1/jobs/{id}/result?revision=N). ' +
        '`base_revision` not the latest revision: 409 `conflict` (also when another save on the same revision was stored first): reload the latest and edit that. ' +
        "Not valid: 422 `validation_failed`, nothing stored, one detail per problem: `path` `operations[i]` for the operation that caused it (the last one that moved one of the units the problem names), else `result`; `code` `invalid_operation` (an operation names a unit, vehicle or orientation that cannot be used) or the verifier's rule (`overlap`, `bounds`, `support`, `weight`, …); `message` the verifier's, with the figures. " +
        "Free (no credits). The web app's session of an owner or member may save (with its CSRF token).",
      tags: ['Jobs'],
      scopes: ['pack:write'],
      parameters: [jobId],
      requestBody: {
        description: 'The revision edited and the operations',
        schema: ref('PlanRevisionInput'),
        required: true,
      },
      responses: { '201': { description: 'The revision saved, with its Result', schema: ref('PlanRevisionCreated') } },
      errors: [...STATE_ERRORS, 'conflict', 'validation_failed', 'invalid_json', 'payload_too_large'],
    },
    {
      method: 'get',
      path: '/v1/jobs/{id}/revisions',
      operationId: 'listPlanRevisions',
      summary: "List the revisions of a job's plan",
      description:
        "Our extension. The saved revisions of the job's plan, newest first (revision 0, the job's own plan, is not listed): number, base, when, by whom and how many operations. Read one's Result with GET /v1/jobs/{id}/result?revision=N. Errors of GET /v1/jobs/{id}/result for the job's state.",
      tags: ['Jobs'],
      scopes: ['jobs:read'],
      parameters: [jobId, ...LIST_PARAMETERS.filter((p) => p.name !== 'q')],
      responses: { '200': { description: 'A page of revisions', schema: ref('PlanRevisionList') } },
      errors: [...STATE_ERRORS, 'validation_failed'],
    },
  ],
};
