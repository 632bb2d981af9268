/**
 * "Pack" on a project row: the free estimate of the request the project packs (GET
 * /v1/projects/{id}, built as the service builds it: domain/project/pack-request.ts, then
 * POST /v1/estimate), a confirmation with at most its price (charged-start.tsx), then
 * POST /v1/projects/{id}/pack with an Idempotency-Key per confirm and the new job's page (the
 * job carries the project as `project_id`). A project already being packed (409 project_busy) says so beside the button
 * with a link to the running job when the list knows it.
 */
import { Link, useNavigate } from 'react-router';
import { ApiFailure, call } from '../api.js';
import type { Job } from '../playground/pack-request.js';
import type { ProjectContent } from '../../../domain/project/project.js';
import { projectPackRequest } from '../../../domain/project/pack-request.js';
import { useChargedStart } from './charged-start.js';

/** The request project `id` packs, as the service builds it from the project (GET /v1/projects/{id}). */
async function projectRequestOf(id: string): Promise<unknown> {
  return projectPackRequest(await call<ProjectContent>('GET', `/v1/projects/${encodeURIComponent(id)}`));
}

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
  const charged = useChargedStart<unknown>();
  const { busy } = charged;
  const failure =
    charged.failure === null
      ? null
      : charged.failure instanceof Error
        ? charged.failure
        : new Error('the pack did not start');

  const pack = () =>
    charged.ask({
      title: `Pack ${name}?`,
      confirmLabel: 'Pack',
      prepare: () => projectRequestOf(id),
      start: (_body, idempotencyKey) =>
        call<Job>('POST', `/v1/projects/${encodeURIComponent(id)}/pack`, undefined, {
          'Idempotency-Key': idempotencyKey,
        }),
      started: (job) => void navigate(`/jobs/${encodeURIComponent(job.id)}`),
    });

  const projectBusy = failure instanceof ApiFailure && failure.code === 'project_busy';
  return (
    <span className="pack-project">
      <button
        type="button"
        className="secondary"
        aria-label={`Pack ${name}`}
        disabled={busy}
        onClick={() => void pack()}
      >
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
      {charged.dialog}
    </span>
  );
}
