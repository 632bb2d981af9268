/** GET /v1/jobs/{id} and GET /v1/jobs/{id}/result (spec Endpoints; Result access by state). */
import { Router } from 'express';
import type { JobDocument } from '../../../projections/jobs/job-document.js';
import { readJob } from '../../../projections/read-model-cache.js';
import { handleCommand } from '../../../domain/decider/handle.js';
import { jobDecider } from '../../../domain/job/decide.js';
import { jobStream } from '../../../domain/job/streams.js';
import { readJobBody } from '../../../domain/job/body.js';
import { actorOf } from '../auth/actor.js';
import { authenticate, callerOf } from '../auth/auth.js';
import { setCreditsHeader } from '../jobs/credits-header.js';
import { ApiError } from '../errors.js';
import { jobView, resultView } from '../jobs/job-view.js';
import { retained } from '../plan-links/plan-links.js';
import { waitForJobEnd } from '../jobs/job-wait.js';
import { waitParam } from '../query.js';
import { sendJson, sendJsonAnswer } from '../json-answer.js';
import { jobAnswer } from '../jobs/job-answer.js';
import { REVISION_PARAMETER, revisionParam, revisionResultView } from '../jobs/plan-revision.js';
import { ROUTER_OPTIONS, type ParameterDoc, type RouteModule } from '../route-docs.js';
import { ref } from '../openapi/components.js';
import type { RouteContext } from '../context.js';

/**
 * The caller's job (through the process's read-model cache when it has one: shared, read-only),
 * or 404 job_not_found (another organization's ids are invisible).
 */
export async function ownJob(ctx: RouteContext, orgId: string, jobId: string): Promise<JobDocument> {
  const job = await readJob(ctx, jobId);
  if (!job || job.orgId !== orgId) throw new ApiError('job_not_found', `no job ${jobId} in this organization`);
  return job;
}

/**
 * Throws the spec's 409/410 when `job` has no result to read now (queued, running, failed,
 * canceled, past retention): what GET /v1/jobs/{id}/result answers, and every route of the
 * job's plan (its revisions too).
 */
export function checkResultReadable(ctx: Pick<RouteContext, 'clock'>, job: JobDocument): void {
  if (job.status === 'queued' || job.status === 'running')
    throw new ApiError('job_not_finished', `job ${job.id} is still ${job.status}`);
  if (job.status === 'failed')
    throw new ApiError('job_failed', `job ${job.id} failed (${job.error?.code ?? 'unknown'}); read job.error`);
  if (job.status === 'canceled') throw new ApiError('job_canceled', `job ${job.id} was canceled; it has no result`);
  if (!retained(job, ctx.clock()))
    throw new ApiError('result_expired', `the result of job ${job.id} was deleted at ${job.expiresAt}`);
}

/**
 * The Result of a job (of its plan revision `revision`, 0: its own plan), or the spec's 409/410
 * for its state; 404 not_found for a revision it does not have.
 */
export async function resultOrError(
  ctx: RouteContext,
  req: Parameters<typeof resultView>[1],
  job: JobDocument,
  revision = 0,
): Promise<Record<string, unknown>> {
  checkResultReadable(ctx, job);
  if (revision > 0) return revisionResultView(ctx, req, job, revision);
  const result = await resultView(ctx, req, job);
  if (!result) throw new ApiError('result_expired', `the result of job ${job.id} is no longer stored`);
  return result;
}

/** What `?include=` may inline on GET /v1/jobs/{id}: `result`, `request` (our extension), or both comma-separated. */
const INCLUDES = ['result', 'request'] as const;
type Include = (typeof INCLUDES)[number];

const NO_INCLUDE: ReadonlySet<Include> = new Set();

/** `?include=` as a set (empty when absent). Throws 422 validation_failed for any other value. */
function includeParam(raw: unknown): ReadonlySet<Include> {
  if (raw === undefined) return NO_INCLUDE;
  const parts = typeof raw === 'string' ? raw.split(',') : [];
  if (parts.length === 0 || parts.some((p) => !(INCLUDES as readonly string[]).includes(p))) {
    throw new ApiError('validation_failed', 'the query is invalid', [
      {
        path: 'include',
        code: 'invalid_value',
        message: `include must be "result", "request" or "result,request", got ${JSON.stringify(raw)}`,
      },
    ]);
  }
  return new Set(parts as Include[]);
}

export function jobsRouter(ctx: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);

  router.get('/v1/jobs/:id', authenticate(ctx, 'jobs:read'), async (req, res) => {
    const { orgId } = callerOf(res);
    const id = String(req.params['id']);
    const waitMs = waitParam(req.query['wait']);
    const include = includeParam(req.query['include']);
    const owned = await ownJob(ctx, orgId, id);
    const job = waitMs > 0 ? (await waitForJobEnd(ctx, id, waitMs, owned))! : owned;
    const now = ctx.clock();
    // The plain Job: its answer is kept with the (cached, unchanged) document.
    if (include.size === 0) return sendJsonAnswer(res, jobAnswer(ctx, req, job, now));
    const body = jobView(ctx, req, job, now);
    if (include.has('result') && job.status === 'succeeded' && retained(job, now)) {
      body['result'] = await resultView(ctx, req, job);
    }
    if (include.has('request')) {
      body['request'] = retained(job, now)
        ? ((await readJobBody(ctx.store, job.id, 'request')).request?.request ?? null)
        : null;
    }
    sendJson(res, body);
  });

  router.get('/v1/jobs/:id/result', authenticate(ctx, 'jobs:read'), async (req, res) => {
    const revision = revisionParam(req.query['revision']);
    const job = await ownJob(ctx, callerOf(res).orgId, String(req.params['id']));
    res.json(await resultOrError(ctx, req, job, revision));
  });

  /**
   * Cancels a queued or running job (spec States: → canceled, charged the per-job fee plus the
   * compute used so far). Answers 200 with the canceled Job once its charge is settled;
   * 409 job_already_finished when it had ended.
   */
  router.delete('/v1/jobs/:id', authenticate(ctx, 'pack:write'), async (req, res) => {
    const caller = callerOf(res);
    const job = await ownJob(ctx, caller.orgId, String(req.params['id']));
    const now = ctx.clock();
    // Compute used: from when a solver really started (a job can hold its slot while waiting for one).
    const computeMs = job.computeStartedAt ? Math.max(0, Date.parse(now) - Date.parse(job.computeStartedAt)) : 0;
    const { position } = await handleCommand(ctx.store, jobStream(job.id), jobDecider, {
      type: 'CancelJob',
      data: { jobId: job.id, computeMs },
      metadata: { now, actor: actorOf(caller) },
    });
    await ctx.projections.waitFor(position);
    const ended = (await waitForJobEnd(ctx, job.id, 5000))!;
    await setCreditsHeader(ctx, res, job.orgId);
    res.json(jobView(ctx, req, ended));
  });

  return router;
}

/** Route module: router and OpenAPI docs. */
const jobId: ParameterDoc = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'Job id (`job_…`)',
  schema: { type: 'string' },
};

export const jobsRoutes: RouteModule = {
  router: jobsRouter,
  docs: [
    {
      method: 'get',
      path: '/v1/jobs/{id}',
      operationId: 'getJob',
      summary: 'Get a job',
      description:
        "The job with its status, progress, summary and cost. `?wait=` waits up to that many seconds for the job to end; `?include=result` inlines the result of a succeeded job. `?include=request` (our extension; combine as `result,request`) adds `request`: the PackRequest the job was created with, as sent (for a project pack, the project's request), or null after retention — the web app re-runs a job and opens it in the playground from it.",
      tags: ['Jobs'],
      scopes: ['jobs:read'],
      parameters: [
        jobId,
        {
          name: 'wait',
          in: 'query',
          description: 'Seconds to wait for the job to end (0–60, default 0)',
          schema: { type: 'number', minimum: 0, maximum: 60 },
        },
        {
          name: 'include',
          in: 'query',
          description:
            '`result` inlines the result of a succeeded job within retention; `request` adds the PackRequest of the job (our extension); `result,request` both',
          schema: { type: 'string', enum: ['result', 'request', 'result,request', 'request,result'] },
        },
      ],
      responses: { '200': { description: 'The job', schema: ref('Job') } },
      errors: ['job_not_found', 'validation_failed'],
    },
    {
      method: 'get',
      path: '/v1/jobs/{id}/result',
      operationId: 'getJobResult',
      summary: 'Get the result of a succeeded job',
      description:
        "Placements, loading steps and the PDF link. Queued/running: 409 `job_not_finished`; failed: 409 `job_failed`; canceled: 409 `job_canceled`; after retention: 410 `result_expired`. `?revision=N` (our extension): the Result of plan revision N (POST /v1/jobs/{id}/revisions), rebuilt from its layout, with a `pdf_url` and `viewer_url` of its own; 0 or absent is the job's own plan, an unknown revision 404 `not_found`.",
      tags: ['Jobs'],
      scopes: ['jobs:read'],
      parameters: [jobId, REVISION_PARAMETER],
      responses: { '200': { description: 'The result', schema: ref('Result') } },
      errors: [
        'job_not_found',
        'job_not_finished',
        'job_failed',
        'job_canceled',
        'result_expired',
        'not_found',
        'validation_failed',
      ],
    },
    {
      method: 'delete',
      path: '/v1/jobs/{id}',
      operationId: 'cancelJob',
      summary: 'Cancel a queued or running job',
      description:
        'Cancels the job (status `canceled`, error code `canceled`) and answers the canceled job once its charge is settled: the per-job fee plus the compute used. A job that had ended answers 409 `job_already_finished`.',
      tags: ['Jobs'],
      scopes: ['pack:write'],
      parameters: [jobId],
      responses: { '200': { description: 'The canceled job with its final charge', schema: ref('Job') } },
      errors: ['job_not_found', 'job_already_finished'],
    },
  ],
};
