/**
 * One job (`/app/jobs/:id`): status (followed while it runs), cost, warnings,
 * result summary, the plan in the 3D viewer and the PDF, the loading list to download and the
 * share links to copy (JobDetails), and the job's actions:
 * - Cancel for a queued or running job (DELETE /v1/jobs/{id}, after a confirmation: charged the
 *   per-job fee plus the compute used);
 * - Re-run: the job's request (GET /v1/jobs/{id}?include=request) estimated (POST /v1/estimate),
 *   confirmed with at most its price, then posted again (POST /v1/pack, one Idempotency-Key per
 *   confirm; reference "Re-run of job_…" unless the job has the planner's own), then the new
 *   job's page (jobs/charged-start.tsx);
 * - where the job comes from: its parent job (a Re-run or Re-plan) or its project (jobs/job-origin.tsx);
 * - Duplicate into the playground: the request as the playground's draft
 *   (`navigate('/playground', { state: { draft } })`);
 * - the plan with its revisions, the editor and "Re-plan from step K" (jobs/plan-revisions.tsx) for a
 *   succeeded job;
 * - Revoke shared links (owner, after a confirmation): every viewer and PDF link handed out so
 *   far stops opening (POST /app/api/jobs/{id}/revoke-links); the page shows the new links.
 * Another organization's job answers 404 and shows as not found.
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { call } from '../api.js';
import { useChargedStart } from '../jobs/charged-start.js';
import { jobRequestOf, rerunRequestOf } from '../jobs/job-request.js';
import { JobOrigin } from '../jobs/job-origin.js';
import { postJob } from '../jobs/replan.js';
import { PlanRevisions } from '../jobs/plan-revisions.js';
import { JobDetails } from '../playground/job-details.js';
import { isFinal, type Job, type PackRequest } from '../playground/pack-request.js';
import { useJob } from '../playground/use-job.js';
import { useSignedIn } from '../session.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Page } from '../ui/page.js';
import '../playground/playground.css';

/** The job page. */
export function JobPage() {
  const id = useParams()['id'] ?? '';
  const navigate = useNavigate();
  const session = useSignedIn();
  const { job, failure, update } = useJob(id);
  const [asking, setAsking] = useState<'cancel' | 'revoke' | null>(null);
  const [working, setWorking] = useState(false);
  const [actionFailure, setActionFailure] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const path = `/v1/jobs/${encodeURIComponent(id)}`;
  const charged = useChargedStart<PackRequest>();

  /** Runs one action at a time, showing its failure. */
  async function act(action: () => Promise<void>) {
    setAsking(null);
    setActionFailure(null);
    setNotice(null);
    setWorking(true);
    try {
      await action();
    } catch (err) {
      setActionFailure(err);
    } finally {
      setWorking(false);
    }
  }

  const cancel = () => act(async () => update(await call<Job>('DELETE', path)));
  const rerun = () =>
    charged.ask({
      title: 'Run this job again?',
      confirmLabel: 'Re-run',
      prepare: () => rerunRequestOf(id),
      start: postJob,
      started: (job) => void navigate(`/jobs/${encodeURIComponent(job.id)}`),
    });
  const duplicate = () => act(async () => navigate('/playground', { state: { draft: await jobRequestOf(id) } }));
  const revoke = () =>
    act(async () => {
      update(await call<Job>('POST', `/app/api/jobs/${encodeURIComponent(id)}/revoke-links`));
      setNotice('The links shared so far no longer open. The links shown now are new.');
    });

  const ended = job !== null && isFinal(job.status);
  const shared = job !== null && job.status === 'succeeded' && (job.pdf_url !== '' || job.viewer_url !== '');
  return (
    <Page
      title={`Job ${id}`}
      actions={
        job ? (
          <>
            {!ended ? (
              <button type="button" className="danger" disabled={working} onClick={() => setAsking('cancel')}>
                Cancel job
              </button>
            ) : null}
            <button type="button" className="secondary" disabled={working || charged.busy} onClick={() => void rerun()}>
              Re-run
            </button>
            <button type="button" className="secondary" disabled={working} onClick={duplicate}>
              Duplicate into the playground
            </button>
            {shared && session.user.role === 'owner' ? (
              <button type="button" className="danger" disabled={working} onClick={() => setAsking('revoke')}>
                Revoke shared links
              </button>
            ) : null}
          </>
        ) : null
      }
    >
      <p>
        <Link to="/jobs">All jobs</Link>
      </p>
      <ErrorBanner error={failure} />
      <ErrorBanner error={actionFailure} />
      <ErrorBanner error={charged.failure} />
      {job && (job.reference || job.project_id) ? (
        <p className="job-origin">
          {job.reference ? (
            <>
              Reference: <q data-field="reference">{job.reference}</q>{' '}
            </>
          ) : null}
          <JobOrigin job={job} />
        </p>
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {job ? (
        <JobDetails
          job={job}
          plan={job.status === 'succeeded' ? <PlanRevisions key={job.id} job={job} /> : undefined}
        />
      ) : failure ? null : (
        <p role="status">Loading…</p>
      )}
      {charged.dialog}
      <ConfirmDialog
        open={asking === 'cancel'}
        title="Cancel this job?"
        confirmLabel="Cancel job"
        onConfirm={cancel}
        onCancel={() => setAsking(null)}
      >
        <p>The job stops now. It is charged the per-job fee plus the compute used so far.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'revoke'}
        title="Revoke the shared links of this job?"
        confirmLabel="Revoke shared links"
        onConfirm={revoke}
        onCancel={() => setAsking(null)}
      >
        <p>
          Every 3D viewer and PDF link of this job handed out so far stops opening, for everyone. The job gets new links
          you can share again.
        </p>
      </ConfirmDialog>
    </Page>
  );
}
