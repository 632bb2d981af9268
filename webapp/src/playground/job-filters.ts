/**
 * The filters of the jobs page and the GET /v1/jobs query they make (our
 * list filters, api/http/routes/job-list.ts: `status` as a comma list, `q` in the id or reference,
 * `reference` exact, `created_after`/`created_before` RFC 3339 exclusive, `created_by=me`,
 * `project_id`, with `limit` and `cursor`). `source` (`api`/`playground`) is asked of the API too
 * and also applied to the rows shown (sourceMatches), so the page is right whether or not the
 * service filters by it. The page keeps the filters in its own address (shareable links); times
 * there are the `datetime-local` field's local time, turned into UTC for the API. Pure.
 */
import type { Job, JobStatus } from './pack-request.js';

/** Every job status, in lifecycle order. */
export const JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'succeeded', 'failed', 'canceled'];

/** What the jobs page filters by; '' / [] = not filtered. Times: `YYYY-MM-DDTHH:mm` local. */
export interface JobFilters {
  statuses: JobStatus[];
  source: '' | 'api' | 'playground';
  q: string;
  reference: string;
  createdAfter: string;
  createdBefore: string;
  mine: boolean;
  projectId: string;
}

/** No filter at all. */
export const NO_FILTERS: JobFilters = {
  statuses: [],
  source: '',
  q: '',
  reference: '',
  createdAfter: '',
  createdBefore: '',
  mine: false,
  projectId: '',
};

const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** The filters in a page address's query (`?status=failed,canceled&source=playground&mine=1`); unknown values dropped. */
export function filtersOfSearch(search: URLSearchParams): JobFilters {
  const statuses = (search.get('status') ?? '')
    .split(',')
    .filter((s): s is JobStatus => (JOB_STATUSES as readonly string[]).includes(s));
  const source = search.get('source');
  const time = (name: string) => {
    const v = search.get(name) ?? '';
    return LOCAL_TIME.test(v) ? v : '';
  };
  return {
    statuses,
    source: source === 'api' || source === 'playground' ? source : '',
    q: search.get('q') ?? '',
    reference: search.get('reference') ?? '',
    createdAfter: time('created_after'),
    createdBefore: time('created_before'),
    mine: search.get('mine') === '1',
    projectId: search.get('project_id') ?? '',
  };
}

/** The page address query of `f` (the inverse of filtersOfSearch); empty filters left out. */
export function searchOfFilters(f: JobFilters): URLSearchParams {
  const s = new URLSearchParams();
  if (f.statuses.length > 0) s.set('status', f.statuses.join(','));
  if (f.source) s.set('source', f.source);
  if (f.q.trim()) s.set('q', f.q.trim());
  if (f.reference.trim()) s.set('reference', f.reference.trim());
  if (f.createdAfter) s.set('created_after', f.createdAfter);
  if (f.createdBefore) s.set('created_before', f.createdBefore);
  if (f.mine) s.set('mine', '1');
  if (f.projectId.trim()) s.set('project_id', f.projectId.trim());
  return s;
}

/** A `datetime-local` value (local time) as RFC 3339 UTC; `offsetMinutes` is Date#getTimezoneOffset of that time (tests pass it). */
export function utcOfLocal(local: string, offsetMinutes?: number): string {
  const [date, clock] = local.split('T') as [string, string];
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi, s = 0] = clock.split(':').map(Number) as [number, number, number?];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const offset = offsetMinutes ?? new Date(y, mo - 1, d, h, mi, s).getTimezoneOffset();
  return new Date(asUtc + offset * 60_000).toISOString();
}

/** GET /v1/jobs path and query for one page of `f` from `cursor` (null: the first page). */
export function jobListUrl(f: JobFilters, cursor: string | null, limit: number, offsetMinutes?: number): string {
  const s = new URLSearchParams({ limit: String(limit) });
  if (cursor) s.set('cursor', cursor);
  if (f.statuses.length > 0) s.set('status', f.statuses.join(','));
  if (f.source) s.set('source', f.source);
  if (f.q.trim()) s.set('q', f.q.trim());
  if (f.reference.trim()) s.set('reference', f.reference.trim());
  if (f.createdAfter) s.set('created_after', utcOfLocal(f.createdAfter, offsetMinutes));
  if (f.createdBefore) s.set('created_before', utcOfLocal(f.createdBefore, offsetMinutes));
  if (f.mine) s.set('created_by', 'me');
  if (f.projectId.trim()) s.set('project_id', f.projectId.trim());
  return `/v1/jobs?${s.toString()}`;
}

/** True when `job` passes the `source` filter (jobs stored before sources existed count as `api`). */
export function sourceMatches(job: Partial<Pick<Job, 'source'>>, f: Pick<JobFilters, 'source'>): boolean {
  return f.source === '' || (job.source ?? 'api') === f.source;
}
