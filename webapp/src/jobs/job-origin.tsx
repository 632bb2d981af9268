/**
 * Where a job comes from, as the job page and the jobs list show it (job provenance): the parent
 * job of a Re-run or a Re-plan, read from the reference the web app gave it (provenance.ts), or
 * the project of a project's Pack (the job's `project_id`, spec POST /v1/projects/{id}/pack),
 * linking to that project's jobs. Nothing for a job made otherwise.
 */
import { Link } from 'react-router';
import type { Job } from '../playground/pack-request.js';
import { parentOf } from './provenance.js';

/** The origin of `job` as a sentence with a link (`short`: the jobs list's cell, without the lead words). */
export function JobOrigin({ job, short = false }: { job: Pick<Job, 'reference' | 'project_id'>; short?: boolean }) {
  const parent = parentOf(job.reference);
  if (parent) {
    const link = (
      <Link to={`/jobs/${encodeURIComponent(parent.jobId)}`}>
        <code>{parent.jobId}</code>
      </Link>
    );
    const what = parent.kind === 'rerun' ? 'Re-run of' : 'Re-plan of';
    const tail = parent.kind === 'replan' ? ` from step ${parent.step} of vehicle ${parent.vehicle}` : '';
    return (
      <span data-field="origin">
        {short ? '' : 'Made by the web app: '}
        {what} {link}
        {short ? '' : tail}
      </span>
    );
  }
  if (job.project_id) {
    const link = (
      <Link to={`/jobs?project_id=${encodeURIComponent(job.project_id)}`}>
        <code>{job.project_id}</code>
      </Link>
    );
    return (
      <span data-field="origin">
        {short ? 'Project ' : 'Packed from project '}
        {link}
      </span>
    );
  }
  return null;
}
