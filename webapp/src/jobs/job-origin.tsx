/**
 * Where a job comes from, as the job page and the jobs list show it (job provenance): the parent
 * job of a Re-run or a Re-plan, read from the reference the web app gave it (provenance.ts), or
 * the project of a project's Pack (the job's `project_id`, spec POST /v1/projects/{id}/pack),
 * linking to that project's jobs; the job page names the project (GET /v1/projects/{id}, once;
 * the id alone when it cannot be read, e.g. deleted). Nothing for a job made otherwise.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { call } from '../api.js';
import type { Job } from '../playground/pack-request.js';
import { Label } from '../ui/label.js';
import { parentOf } from '../../../domain/job/provenance.js';

/** The name of project `id` (GET /v1/projects/{id}); null until read or when it cannot be read. */
function useProjectName(id: string | null): string | null {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    if (!id) return;
    let live = true;
    call<{ name: string }>('GET', `/v1/projects/${encodeURIComponent(id)}`).then(
      (p) => live && setName(p.name),
      () => live && setName(null),
    );
    return () => {
      live = false;
    };
  }, [id]);
  return name;
}

/** "Packed from project Depot run (prj_…)", the id linking to the project's jobs. */
function ProjectOrigin({ projectId }: { projectId: string }) {
  const name = useProjectName(projectId);
  return (
    <span data-field="origin">
      Packed from project {name !== null ? <Label text={name} /> : null}{' '}
      <Link to={`/jobs?project_id=${encodeURIComponent(projectId)}`}>
        <code>{projectId}</code>
      </Link>
    </span>
  );
}

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
  if (job.project_id && !short) return <ProjectOrigin projectId={job.project_id} />;
  if (job.project_id) {
    const link = (
      <Link to={`/jobs?project_id=${encodeURIComponent(job.project_id)}`}>
        <code>{job.project_id}</code>
      </Link>
    );
    return <span data-field="origin">Project {link}</span>;
  }
  return null;
}
