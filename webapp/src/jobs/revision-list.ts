/**
 * A job's plan revisions as the job page lists them (plan editing, design §2):
 * GET /v1/jobs/{id}/revisions answers `{data: [{revision, created_at, created_by, base_revision,
 * operations_count}], next_cursor}` newest first, and GET /v1/jobs/{id}/result?revision=N the
 * Result of revision N (0 = the job's own plan, with its own signed `viewer_url` and `pdf_url`).
 * Pure: the rows, their names and figures; the calls are in use-revisions.ts.
 */
import type { Job, PlanRevision, PlanRevisionList, Result } from '../playground/pack-request.js';
import { roundForDisplay, weightToDisplay, weightUnitLabel, type DisplayUnits } from '../units/measure.js';

/**
 * One row of the revisions table: an entry of GET /v1/jobs/{id}/revisions (PlanRevision), or the
 * original plan (revision 0), which the list does not carry: no author, no base.
 */
export type RevisionEntry = Omit<PlanRevision, 'created_by' | 'base_revision' | 'operations_count'> & {
  created_by: PlanRevision['created_by'] | null;
  base_revision: number | null;
  operations_count?: number;
};

/** One page of GET /v1/jobs/{id}/revisions: entries newest first and the next page's cursor ('' on the last). */
export type RevisionPage = Omit<PlanRevisionList, 'next_cursor'> & { next_cursor: string | null };

/** Revisions asked for per page. */
export const REVISIONS_PER_PAGE = 20;

/** The path of one page of job `jobId`'s revisions (`cursor` '' or null: the first page). */
export function revisionsPath(jobId: string, cursor: string | null, limit = REVISIONS_PER_PAGE): string {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor) q.set('cursor', cursor);
  return `/v1/jobs/${encodeURIComponent(jobId)}/revisions?${q.toString()}`;
}

/** The path of the Result of revision `revision` of job `jobId` (0: the job's own plan). */
export function revisionResultPath(jobId: string, revision: number): string {
  return `/v1/jobs/${encodeURIComponent(jobId)}/result?revision=${revision}`;
}

/**
 * The rows of the revisions table: the entries listed so far, newest first, each revision once
 * (a page read again after a save may repeat one), and, once the last page is in (`complete`),
 * the "Original plan" row (revision 0) when the service did not list it: made by the packing
 * when `job` finished (no author).
 */
export function revisionRows(entries: readonly RevisionEntry[], complete: boolean, job: Job): RevisionEntry[] {
  const byRevision = new Map<number, RevisionEntry>();
  for (const e of entries) if (!byRevision.has(e.revision)) byRevision.set(e.revision, e);
  if (complete && !byRevision.has(0))
    byRevision.set(0, {
      revision: 0,
      created_at: job.finished_at ?? job.created_at,
      created_by: null,
      base_revision: null,
      operations_count: 0,
    });
  return [...byRevision.values()].sort((a, b) => b.revision - a.revision);
}

/** "Original plan" for revision 0, else "Revision N". */
export function revisionName(revision: number): string {
  return revision === 0 ? 'Original plan' : `Revision ${revision}`;
}

/** "the original plan" or "revision N", inside a sentence or a control's name. */
export function revisionPhrase(revision: number): string {
  return revision === 0 ? 'the original plan' : `revision ${revision}`;
}

/** The latest revision among `rows` (0 when none is listed). */
export function latestRevision(rows: readonly RevisionEntry[]): number {
  return rows.reduce((latest, r) => Math.max(latest, r.revision), 0);
}

/** What the table shows of a revision's plan: units placed of those requested, and the weight loaded in kg. */
export interface PlanFigures {
  placed: number;
  requested: number;
  weightKg: number;
}

/** The figures of a Result: units in its vehicles, those plus the unplaced ones, and the kg loaded. */
export function planFigures(result: Pick<Result, 'vehicles' | 'unplaced'>): PlanFigures {
  const placed = result.vehicles.reduce((n, v) => n + v.placements.length, 0);
  return {
    placed,
    requested: placed + result.unplaced.length,
    weightKg: result.vehicles.reduce((kg, v) => kg + v.total_weight, 0),
  };
}

/** A weight in kg as the organization reads it: "1250 kg", or "2755.78 lb" in imperial display units. */
export function weightText(kg: number, units: DisplayUnits): string {
  const shown = units === 'metric' ? roundForDisplay(kg) : roundForDisplay(weightToDisplay(kg, units));
  return `${shown} ${weightUnitLabel(units)}`;
}

/** The name of a revision's author as the table shows it ("—" when not told). */
export function authorName(entry: RevisionEntry): string {
  return entry.created_by?.name ?? '—';
}
