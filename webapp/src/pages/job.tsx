/**
 * One job (`/app/jobs/:id`, issue 11 item 5): status (followed while it runs), cost, warnings,
 * result summary, the plan in the 3D viewer and the PDF, and Cancel for a queued or running job
 * (DELETE /v1/jobs/{id}, after a confirmation: charged the per-job fee plus the compute used).
 * Another organization's job answers 404 and shows as not found.
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { call } from '../api.js';
import { JobDetails } from '../playground/job-details.js';
import { isFinal, type Job } from '../playground/pack-request.js';
import { useJob } from '../playground/use-job.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Page } from '../ui/page.js';
import '../playground/playground.css';

/** The job page. */
export function JobPage() {
  const id = useParams()['id'] ?? '';
  const { job, failure, update } = useJob(id);
  const [asking, setAsking] = useState(false);
  const [cancelFailure, setCancelFailure] = useState<unknown>(null);

  async function cancel() {
    setAsking(false);
    setCancelFailure(null);
    try {
      update(await call<Job>('DELETE', `/v1/jobs/${encodeURIComponent(id)}`));
    } catch (err) {
      setCancelFailure(err);
    }
  }

  return (
    <Page
      title={`Job ${id}`}
      actions={
        job && !isFinal(job.status) ? (
          <button type="button" className="danger" onClick={() => setAsking(true)}>
            Cancel job
          </button>
        ) : null
      }
    >
      <p>
        <Link to="/jobs">All jobs</Link>
      </p>
      <ErrorBanner error={failure} />
      <ErrorBanner error={cancelFailure} />
      {job ? <JobDetails job={job} /> : failure ? null : <p role="status">Loading…</p>}
      <ConfirmDialog open={asking} title="Cancel this job?" confirmLabel="Cancel job" onConfirm={cancel} onCancel={() => setAsking(false)}>
        <p>The job stops now. It is charged the per-job fee plus the compute used so far.</p>
      </ConfirmDialog>
    </Page>
  );
}
