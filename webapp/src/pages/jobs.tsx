/**
 * The organization's jobs (`/app/jobs`): newest first with the list filters of
 * GET /v1/jobs (status, source, text in the id or reference, exact reference, created after /
 * before, mine, project) kept in the page's address, and cursor paging (Previous goes back through
 * the cursors seen). Each row links to the job's page and shows what the list item carries (spec
 * Job: `summary`): units placed of requested, vehicles used, fill (the summary's
 * `volume_utilization`, average over the vehicles used), cost, and where the job comes from
 * (its parent job or project, jobs/job-origin.tsx) beside its reference.
 */
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { call } from '../api.js';
import { JobOrigin } from '../jobs/job-origin.js';
import { parentOf } from '../../../domain/job/provenance.js';
import { credits, percent, when } from '../playground/format.js';
import { JobStatusBadge } from '../playground/job-details.js';
import {
  filtersOfSearch,
  JOB_STATUSES,
  jobListUrl,
  searchOfFilters,
  sourceMatches,
  type JobFilters,
} from '../playground/job-filters.js';
import type { JobList } from '../playground/pack-request.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Label } from '../ui/label.js';
import { Page } from '../ui/page.js';
import '../playground/playground.css';
import '../jobs/job-list.css';
import { Pager, useCursorPages } from '../ui/pager.js';

const PAGE_SIZE = 20;

/** The jobs list page. */
export function JobsPage() {
  const [search, setSearch] = useSearchParams();
  const applied = filtersOfSearch(search);
  const appliedKey = searchOfFilters(applied).toString();
  const [draft, setDraft] = useState<JobFilters>(applied);
  const pages = useCursorPages();
  const [page, setPage] = useState<JobList | null>(null);
  const [error, setError] = useState<unknown>(null);
  const ids = { q: useId(), reference: useId(), after: useId(), before: useId(), project: useId(), source: useId() };
  const cursor = pages.cursor;

  // The cursors belong to one set of filters: new filters start again at the first page, in the
  // same render, so no page is fetched with the old filters' cursor.
  const [pagedKey, setPagedKey] = useState(appliedKey);
  if (pagedKey !== appliedKey) {
    setPagedKey(appliedKey);
    pages.reset();
  }
  useEffect(() => {
    setDraft(filtersOfSearch(new URLSearchParams(appliedKey)));
  }, [appliedKey]);

  useEffect(() => {
    let live = true;
    call<JobList>('GET', jobListUrl(filtersOfSearch(new URLSearchParams(appliedKey)), cursor, PAGE_SIZE))
      .then((p) => live && (setPage(p), setError(null)))
      .catch((err: unknown) => live && setError(err));
    return () => {
      live = false;
    };
  }, [appliedKey, cursor]);

  const rows = page?.data.filter((j) => sourceMatches(j, applied)) ?? [];
  const set = (patch: Partial<JobFilters>) => setDraft((d) => ({ ...d, ...patch }));

  return (
    <Page title="Jobs">
      <form
        className="pg-filters"
        role="search"
        aria-label="Filter jobs"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(searchOfFilters(draft));
        }}
      >
        <fieldset>
          <legend>Status</legend>
          {JOB_STATUSES.map((s) => (
            <label key={s}>
              <input
                type="checkbox"
                checked={draft.statuses.includes(s)}
                onChange={(e) =>
                  set({ statuses: e.target.checked ? [...draft.statuses, s] : draft.statuses.filter((x) => x !== s) })
                }
              />{' '}
              {s}
            </label>
          ))}
        </fieldset>
        <label htmlFor={ids.source}>
          Source
          <select
            id={ids.source}
            value={draft.source}
            onChange={(e) => set({ source: e.target.value as JobFilters['source'] })}
          >
            <option value="">any</option>
            <option value="playground">playground</option>
            <option value="api">api</option>
          </select>
        </label>
        <label htmlFor={ids.q}>
          Id or reference contains
          <input id={ids.q} type="search" value={draft.q} onChange={(e) => set({ q: e.target.value })} />
        </label>
        <label htmlFor={ids.reference}>
          Reference is
          <input
            id={ids.reference}
            value={draft.reference}
            maxLength={128}
            onChange={(e) => set({ reference: e.target.value })}
          />
        </label>
        <label htmlFor={ids.after}>
          Created after
          <input
            id={ids.after}
            type="datetime-local"
            value={draft.createdAfter}
            onChange={(e) => set({ createdAfter: e.target.value })}
          />
        </label>
        <label htmlFor={ids.before}>
          Created before
          <input
            id={ids.before}
            type="datetime-local"
            value={draft.createdBefore}
            onChange={(e) => set({ createdBefore: e.target.value })}
          />
        </label>
        <label htmlFor={ids.project}>
          Project id
          <input
            id={ids.project}
            value={draft.projectId}
            placeholder="prj_…"
            onChange={(e) => set({ projectId: e.target.value })}
          />
        </label>
        <label>
          <span>
            <input type="checkbox" checked={draft.mine} onChange={(e) => set({ mine: e.target.checked })} /> Only mine
          </span>
        </label>
        <div className="form-buttons">
          <button type="submit">Apply filters</button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setSearch(new URLSearchParams());
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <ErrorBanner error={error} />
      {page === null ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : rows.length === 0 ? (
        <p>
          {appliedKey
            ? 'No job matches these filters on this page.'
            : 'No jobs yet: run one in the Playground or through the API.'}
        </p>
      ) : (
        <div className="table-wrap">
          <table aria-label="Jobs" className="job-list">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Status</th>
                <th scope="col">Source</th>
                <th scope="col">Reference</th>
                <th scope="col">Created</th>
                <th scope="col" className="num">
                  Units placed
                </th>
                <th scope="col" className="num">
                  Vehicles
                </th>
                <th scope="col" className="num">
                  Fill
                </th>
                <th scope="col" className="num">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((j) => (
                <tr key={j.id} data-job-id={j.id}>
                  <td>
                    <Link to={`/jobs/${j.id}`}>
                      <code>{j.id}</code>
                    </Link>
                  </td>
                  <td>
                    <JobStatusBadge job={j} />
                  </td>
                  <td>{j.source ?? 'api'}</td>
                  <td data-field="reference">
                    <JobOrigin job={j} short /> {parentOf(j.reference) ? null : <Label text={j.reference ?? ''} />}
                  </td>
                  <td>{when(j.created_at)}</td>
                  <td className="num">
                    {j.summary.items_placed} / {j.summary.items_requested}
                  </td>
                  <td className="num">{j.summary.vehicles_used}</td>
                  <td className="num" data-field="fill">
                    {j.summary.vehicles_used > 0 ? percent(j.summary.volume_utilization) : '—'}
                  </td>
                  <td className="num">{credits(j.cost.credits)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager pages={pages} nextCursor={page?.next_cursor} />
    </Page>
  );
}
