/**
 * "Pack" on a project row: POST /v1/projects/{id}/pack with an Idempotency-Key per click, then the
 * new job's page. A project already being packed (409 project_busy) says so beside the button
 * with a link to the running job when the list knows it.
 */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiFailure, call, newIdempotencyKey } from '../api.js';
import type { Job } from '../playground/pack-request.js';

/** The button for project `id` named `name`; `packingJobId`: the job packing it now, if any. */
export function PackProjectButton({
  id,
  name,
  packingJobId,
}: {
  id: string;
  name: string;
  packingJobId: string | null;
}) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiFailure | Error | null>(null);

  async function pack() {
    setBusy(true);
    setFailure(null);
    try {
      const job = await call<Job>('POST', `/v1/projects/${encodeURIComponent(id)}/pack`, undefined, {
        'Idempotency-Key': newIdempotencyKey(),
      });
      void navigate(`/jobs/${encodeURIComponent(job.id)}`);
    } catch (err) {
      setFailure(err instanceof Error ? err : new Error(String(err)));
      setBusy(false);
    }
  }

  const projectBusy = failure instanceof ApiFailure && failure.code === 'project_busy';
  return (
    <span className="pack-project">
      <button type="button" className="secondary" aria-label={`Pack ${name}`} disabled={busy} onClick={pack}>
        {busy ? 'Packing…' : 'Pack'}
      </button>
      {failure && (
        <span role="alert" className="field-error">
          {projectBusy ? (
            <>
              This project is being packed now; try again when that job ends
              {packingJobId ? (
                <>
                  {' '}
                  (<Link to={`/jobs/${encodeURIComponent(packingJobId)}`}>see the job</Link>)
                </>
              ) : null}
              .
            </>
          ) : (
            <>
              {failure.message}
              {failure instanceof ApiFailure ? <code> ({failure.code})</code> : null}
            </>
          )}
        </span>
      )}
    </span>
  );
}
