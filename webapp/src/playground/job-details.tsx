/**
 * One job as the playground and the job page show it (spec Job, JobSummary, JobCost, JobError,
 * Warning; items 4–5): status and progress while it runs, then the result summary, the
 * cost and its breakdown, warnings, the error of a failed or canceled job, the plan in the 3D
 * viewer (an iframe of the job's signed `viewer_url`, and a link opening it whole) and the PDF;
 * for a succeeded job the loading list to download (CSV, Excel) and the share links to copy. The
 * total weight is in the organization's display units.
 */
import type { ReactNode } from 'react';
import { CopyButton } from '../ui/copy-button.js';
import { isFinal, type Job } from './pack-request.js';
import { credits, percent, seconds, when } from './format.js';
import { Label } from '../ui/label.js';
import { roundForDisplay, weightToDisplay, weightUnitLabel } from '../units/measure.js';
import { useDisplayUnits } from '../units/use-display-units.js';

/** The status word with its colour class; `live`: a screen reader hears it change (one job followed, not list rows). */
export function JobStatusBadge({ job, live = false }: { job: Job; live?: boolean }) {
  return (
    <span
      className={`pg-status pg-status-${job.status}`}
      aria-live={live ? 'polite' : undefined}
      data-status={job.status}
    >
      {job.status}
    </span>
  );
}

/** Progress of a queued or running job: a bar of placed units out of those requested. */
export function JobProgress({ job }: { job: Job }) {
  if (isFinal(job.status)) return null;
  const total = Math.max(job.summary.items_requested, 1);
  return (
    <div className="pg-progress">
      <label>
        {job.status === 'queued'
          ? 'Waiting for a compute slot…'
          : `Packing: ${job.progress.stage}, ${job.progress.placed_items} units placed, ${job.progress.vehicles_done} vehicles done`}
        <progress
          max={total}
          value={job.status === 'queued' ? undefined : Math.min(job.progress.placed_items, total)}
        />
      </label>
    </div>
  );
}

/**
 * Everything about `job`; `title` heads the block (an h2). `plan` takes the place of the plan's
 * viewer and PDF (PlanLinks), e.g. the job page's plan with its revisions.
 */
export function JobDetails({ job, title, plan }: { job: Job; title?: string; plan?: ReactNode }) {
  const s = job.summary;
  const b = job.cost.breakdown;
  const units = useDisplayUnits();
  return (
    <section className="pg-job" aria-label={title ?? `Job ${job.id}`} data-job-id={job.id}>
      {title && <h2>{title}</h2>}
      <p>
        <code>{job.id}</code> <JobStatusBadge job={job} live />{' '}
        {job.source && <span className="pg-muted">source: {job.source}</span>}
        {job.reference ? (
          <span className="pg-muted">
            {' '}
            · reference: <Label text={job.reference} />
          </span>
        ) : null}
      </p>
      <JobProgress job={job} />
      {job.error && (
        <p role="alert" className="pg-failure">
          {job.error.message} <code>{job.error.code}</code>
        </p>
      )}
      <div className="pg-columns">
        <dl className="pg-facts" aria-label="Result summary">
          <dt>Units placed</dt>
          <dd data-field="items_placed">
            {s.items_placed} of {s.items_requested}
          </dd>
          <dt>Units not placed</dt>
          <dd data-field="items_unplaced">{s.items_unplaced}</dd>
          <dt>Vehicles used</dt>
          <dd data-field="vehicles_used">{s.vehicles_used}</dd>
          <dt>Total weight</dt>
          <dd data-field="total_weight">
            {units === 'metric' ? s.total_weight : roundForDisplay(weightToDisplay(s.total_weight, units))}{' '}
            {weightUnitLabel(units)}
          </dd>
          <dt>Volume used</dt>
          <dd>{percent(s.volume_utilization)}</dd>
          <dt>Queue / compute</dt>
          <dd>
            {seconds(s.queue_ms)} / {seconds(s.compute_ms)}
          </dd>
          <dt>Created</dt>
          <dd>{when(job.created_at)}</dd>
          <dt>Finished</dt>
          <dd>{when(job.finished_at)}</dd>
        </dl>
        <dl className="pg-facts" aria-label="Cost">
          <dt>Charged</dt>
          <dd data-field="credits">{isFinal(job.status) ? credits(job.cost.credits) : 'when the job ends'}</dd>
          <dt>Reserved</dt>
          <dd>{credits(job.cost.reserved_credits)}</dd>
          <dt>Per job</dt>
          <dd>{credits(b.base)}</dd>
          <dt>Vehicles</dt>
          <dd>{credits(b.vehicles)}</dd>
          <dt>Compute</dt>
          <dd>{credits(b.compute)}</dd>
          <dt>Large load</dt>
          <dd>{credits(b.large_load)}</dd>
          <dt>Rate card</dt>
          <dd>version {job.cost.rate_card_version}</dd>
        </dl>
      </div>
      <PlanExports job={job} />
      {job.warnings.length > 0 && (
        <>
          <h3>Warnings</h3>
          <ul className="pg-warnings">
            {job.warnings.map((w, i) => (
              <li key={i}>
                {w.message ?? JSON.stringify(w)} {w.code && <code>{w.code}</code>}
              </li>
            ))}
          </ul>
        </>
      )}
      {plan ?? <PlanLinks job={job} />}
    </section>
  );
}

/** The plan of a succeeded job: the viewer embedded and opened whole, and the PDF; a note once the links expired. */
export function PlanLinks({ job }: { job: Job }) {
  if (job.status !== 'succeeded') return null;
  if (!job.pdf_url && !job.viewer_url)
    return <p className="pg-muted">The plan is no longer kept (expired {when(job.expires_at)}).</p>;
  return (
    <div className="pg-plan">
      <p>
        {job.viewer_url && (
          <a href={job.viewer_url} target="_blank" rel="noopener" className="pg-button">
            Open the plan in the 3D viewer
          </a>
        )}{' '}
        {job.pdf_url && (
          <a href={job.pdf_url} target="_blank" rel="noopener" className="pg-button">
            Plan as PDF
          </a>
        )}
      </p>
      {job.viewer_url && <iframe className="pg-viewer" title={`3D plan of ${job.id}`} src={job.viewer_url} />}
    </div>
  );
}

/**
 * What leaves the service with a succeeded job's plan: the loading list as CSV or Excel
 * (GET /v1/jobs/{id}/loading_list, downloaded with the session cookie) and the signed viewer and
 * PDF links to copy and share (valid until the job's `expires_at`, or until the owner revokes them).
 */
export function PlanExports({ job }: { job: Job }) {
  if (job.status !== 'succeeded' || (!job.pdf_url && !job.viewer_url)) return null;
  const list = `/v1/jobs/${encodeURIComponent(job.id)}/loading_list`;
  return (
    <div className="pg-exports" aria-label="Export and share">
      <p>
        <a href={`${list}?format=csv`} download={`${job.id}-loading-list.csv`} className="pg-button">
          Loading list (CSV)
        </a>
        <a href={`${list}?format=xlsx`} download={`${job.id}-loading-list.xlsx`} className="pg-button">
          Loading list (Excel)
        </a>
      </p>
      <p>
        {job.viewer_url && <CopyButton text={job.viewer_url} label="Copy share link (3D viewer)" />}{' '}
        {job.pdf_url && <CopyButton text={job.pdf_url} label="Copy share link (PDF)" />}
      </p>
    </div>
  );
}
