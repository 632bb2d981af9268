/**
 * GET /v1/jobs (spec Endpoints: JobList with cursor paging, newest first). Filters (spec: "not
 * shown", our choice, docs/api-decisions.md): `status` (one or a comma-separated list), `reference` (exact),
 * `created_after` / `created_before` (RFC 3339, exclusive), `project_id`, `source` (`api` or
 * `playground`: jobs run from the web app), plus the list
 * parameters `limit`, `cursor`, `q` (in the reference or the id) and `created_by` (`me` or
 * `usr_…`: the member whose key created the job). Jobs are listed without `result`.
 */
import { Router } from 'express';
import type { JobStatus } from '../../../domain/job/job.js';
import { matchesFilter } from '../../../domain/ports/read-query.js';
import type { ReadFilter, Where } from '../../../domain/ports/read-store.js';
import { JOBS, type JobDocument } from '../../../projections/jobs/job-document.js';
import { authenticate, callerOf } from '../auth/auth.js';
import { jobView } from '../jobs/job-view.js';
import { ref } from '../openapi/components.js';
import { listPage, parseListQuery, textSearch, DEFAULT_LIMIT, MAX_LIMIT, type ListQuery } from '../paging.js';
import { ROUTER_OPTIONS, type JsonSchema, type RouteModule } from '../route-docs.js';
import { jsonAnswer, sendJsonAnswer } from '../json-answer.js';
import { JobListAnswers, pageSpan } from '../jobs/job-list-answers.js';
import { baseUrl } from '../plan-links/plan-links.js';
import type { RouteContext } from '../context.js';

const STATUSES: readonly JobStatus[] = ['queued', 'running', 'succeeded', 'failed', 'canceled'];
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const PROJECT_ID = /^prj_[a-z0-9]+$/;
const MAX_REFERENCE = 128;

/** The filters of GET /v1/jobs besides the list parameters; null = not filtered. */
export interface JobFilters {
  statuses: ReadonlySet<JobStatus> | null;
  reference: string | null;
  /** Epoch ms, exclusive bounds. */
  createdAfter: number | null;
  createdBefore: number | null;
  projectId: string | null;
  /** `api` or `playground` (the web app's jobs). */
  source: 'api' | 'playground' | null;
}

type Detail = { path: string; code: string; message: string };

/** Every value of a query parameter (repeated parameters arrive as arrays). */
function values(query: Record<string, unknown>, name: string): string[] | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).map(String);
}

function time(query: Record<string, unknown>, name: string, details: Detail[]): number | null {
  const raw = values(query, name)?.[0];
  if (raw === undefined) return null;
  const ms = RFC_3339.test(raw) ? Date.parse(raw.replace(' ', 'T')) : Number.NaN;
  if (Number.isNaN(ms)) {
    details.push({
      path: name,
      code: 'invalid_value',
      message: `${name} must be an RFC 3339 time such as 2026-11-01T00:00:00Z, got ${JSON.stringify(raw)}`,
    });
    return null;
  }
  return ms;
}

/** Parses the filters; problems are pushed onto `details` (path = parameter name). */
export function parseJobFilters(query: Record<string, unknown>, details: Detail[]): JobFilters {
  let statuses: Set<JobStatus> | null = null;
  const rawStatus = values(query, 'status');
  if (rawStatus !== undefined) {
    const parts = rawStatus.flatMap((s) => s.split(',')).map((s) => s.trim());
    const unknown = parts.filter((s) => !(STATUSES as readonly string[]).includes(s));
    if (unknown.length > 0) {
      details.push({
        path: 'status',
        code: 'invalid_value',
        message: `status must be one or more of ${STATUSES.join(', ')} (comma-separated), got ${JSON.stringify(unknown.join(','))}`,
      });
    } else statuses = new Set(parts as JobStatus[]);
  }
  const reference = values(query, 'reference')?.[0] ?? null;
  if (reference !== null && reference.length > MAX_REFERENCE) {
    details.push({
      path: 'reference',
      code: 'out_of_range',
      message: `reference must be at most ${MAX_REFERENCE} characters, got ${reference.length}`,
    });
  }
  const projectId = values(query, 'project_id')?.[0] ?? null;
  if (projectId !== null && !PROJECT_ID.test(projectId)) {
    details.push({
      path: 'project_id',
      code: 'invalid_value',
      message: `project_id must be a prj_… id, got ${JSON.stringify(projectId)}`,
    });
  }
  const rawSource = values(query, 'source')?.[0] ?? null;
  let source: JobFilters['source'] = null;
  if (rawSource === 'api' || rawSource === 'playground') source = rawSource;
  else if (rawSource !== null)
    details.push({
      path: 'source',
      code: 'invalid_value',
      message: `source must be api or playground, got ${JSON.stringify(rawSource)}`,
    });
  return {
    statuses,
    reference,
    createdAfter: time(query, 'created_after', details),
    createdBefore: time(query, 'created_before', details),
    projectId,
    source,
  };
}

// The latest instant Date#toISOString writes with a four-digit year: job times never pass it.
const LAST_ISO_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The filters as read-store conditions on the job document. Times become exclusive bounds on
 * `createdAt`, compared as strings: both sides are Date#toISOString's fixed UTC format, so the
 * string order is the time order (a bound past year 9999 is handled apart, its format differs).
 */
export function jobFilterConditions(f: JobFilters): Where<JobDocument> {
  const createdAt: { gt?: string; lt?: string } = {};
  if (f.createdAfter !== null) createdAt.gt = new Date(Math.min(f.createdAfter, LAST_ISO_MS)).toISOString();
  if (f.createdBefore !== null && f.createdBefore <= LAST_ISO_MS)
    createdAt.lt = new Date(f.createdBefore).toISOString();
  return {
    ...(f.statuses !== null ? { status: { in: [...f.statuses] } } : {}),
    ...(f.reference !== null ? { reference: f.reference } : {}),
    ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
    ...(f.projectId !== null ? { projectId: f.projectId } : {}),
    ...(f.source !== null ? { source: f.source } : {}),
  };
}

/** True when `job` passes every filter (the conditions of `jobFilterConditions`, run in memory). */
export function matchesJobFilters(job: JobDocument, f: JobFilters): boolean {
  return matchesFilter(job, { where: jobFilterConditions(f) });
}

/**
 * The read-store filter of GET /v1/jobs: the organization's jobs passing `f`, created by
 * `list.createdBy` when set, with `list.q` in the reference or the id (any case).
 */
export function jobListFilter(
  orgId: string,
  f: JobFilters,
  list: Pick<ListQuery, 'q' | 'createdBy'>,
): ReadFilter<JobDocument> {
  return {
    where: { orgId, ...jobFilterConditions(f), ...(list.createdBy !== null ? { memberId: list.createdBy } : {}) },
    ...textSearch<JobDocument>(list.q, ['reference', 'id']),
  };
}

/**
 * GET /v1/jobs: one keyset page of the caller's organization's jobs from the read store. With the
 * process's read-model cache, pages are kept as answers while the organization's jobs do not
 * change (api/http/jobs/job-list-answers.ts).
 */
export function jobListRouter(ctx: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);
  const kept = new JobListAnswers();

  router.get('/v1/jobs', authenticate(ctx, 'jobs:read'), async (req, res) => {
    const caller = callerOf(res);
    const query = req.query as Record<string, unknown>;
    const details: Detail[] = [];
    const filters = parseJobFilters(query, details);
    const list = parseListQuery(query, caller, details);
    const filter = jobListFilter(caller.orgId, filters, list);
    const cache = ctx.readCache;
    // The page's key: everything it is made of but the jobs and the clock (the filter names the organization).
    const key = cache && JSON.stringify([baseUrl(ctx, req), filter, list.limit, list.after]);
    const version = cache?.jobsVersion(caller.orgId) ?? 0;
    if (key !== undefined) {
      const answer = kept.get(key, version, ctx.clock());
      if (answer) return sendJsonAnswer(res, answer);
    }
    const jobs = ctx.reads.collection<JobDocument>(JOBS);
    const { data, next_cursor } = await listPage(jobs, filter, list);
    const now = ctx.clock();
    const answer = jsonAnswer({ data: data.map((j) => jobView(ctx, req, j, now)), next_cursor });
    const span = key !== undefined && cache!.jobsVersion(caller.orgId) === version ? pageSpan(data, now) : null;
    if (span) kept.keep(key!, version, span, answer);
    sendJsonAnswer(res, answer);
  });

  return router;
}

const jobList: JsonSchema = {
  title: 'JobList',
  description: 'A page of jobs, newest first (by created_at, then id). Jobs are listed without `result`.',
  type: 'object',
  required: ['data', 'next_cursor'],
  properties: {
    data: { type: 'array', items: ref('Job'), description: 'The jobs of this page' },
    next_cursor: { type: 'string', description: 'Pass as `?cursor=` for the next page; empty on the last page' },
  },
};

const q = (name: string, description: string, schema: JsonSchema) => ({
  name,
  in: 'query' as const,
  description,
  schema,
});

/** Route module: router, OpenAPI docs and the JobList schema. */
export const jobListRoutes: RouteModule = {
  router: jobListRouter,
  schemas: { JobList: jobList },
  docs: [
    {
      method: 'get',
      path: '/v1/jobs',
      operationId: 'listJobs',
      summary: 'List jobs',
      description:
        "The organization's jobs, newest first, with cursor paging. Filters combine (AND). A bad parameter answers 422 `validation_failed` with the parameter's name as `details[].path`.",
      tags: ['Jobs'],
      scopes: ['jobs:read'],
      parameters: [
        q('limit', `Page size, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT})`, {
          type: 'integer',
          minimum: 1,
          maximum: MAX_LIMIT,
          default: DEFAULT_LIMIT,
        }),
        q('cursor', 'The `next_cursor` of the previous page, unchanged', { type: 'string' }),
        q('q', 'Case-insensitive text found in the job id or its reference (at most 200 characters)', {
          type: 'string',
          maxLength: 200,
        }),
        q(
          'created_by',
          "`me` (the member of the calling key) or a member id `usr_…`: jobs created with that member's keys",
          { type: 'string', pattern: '^(me|usr_[a-z0-9]+)$' },
        ),
        q('status', 'One status or a comma-separated list: queued, running, succeeded, failed, canceled', {
          type: 'string',
          pattern: '^(queued|running|succeeded|failed|canceled)(,(queued|running|succeeded|failed|canceled))*$',
        }),
        q('reference', 'Exact `reference` of the job', { type: 'string', maxLength: MAX_REFERENCE }),
        q('created_after', 'Only jobs created after this time (RFC 3339, exclusive)', {
          type: 'string',
          format: 'date-time',
        }),
        q('created_before', 'Only jobs created before this time (RFC 3339, exclusive)', {
          type: 'string',
          format: 'date-time',
        }),
        q('source', "Only jobs run through the API (`api`) or from the web app's playground (`playground`)", {
          type: 'string',
          enum: ['api', 'playground'],
        }),
        q('project_id', 'Only jobs of this project (`prj_…`, created by POST /v1/projects/{id}/pack)', {
          type: 'string',
          pattern: '^prj_[a-z0-9]+$',
        }),
      ],
      responses: { '200': { description: 'A page of jobs', schema: ref('JobList') } },
      errors: ['validation_failed'],
    },
  ],
};
