/**
 * The playground (`/app/playground`, issue 11 item 4): build a request from saved vehicles and
 * templates with quantities, import items from a CSV or .xlsx file, or edit/paste the JSON; see
 * the free estimate as it changes (POST /v1/estimate); run it (POST /v1/pack, a `playground` job
 * billed like any other; the worst-case price is shown before); watch its progress; read the
 * result, open the plan in the 3D viewer and the PDF; save the request as a project
 * (POST /v1/projects).
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { call, newIdempotencyKey } from '../api.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Page } from '../ui/page.js';
import { credits } from '../playground/format.js';
import { ItemImportField } from '../playground/item-import-field.js';
import { JobDetails } from '../playground/job-details.js';
import { isFinal, type Job, type PackItem } from '../playground/pack-request.js';
import { parseRequestText, projectOf, requestOf, type Chosen } from '../playground/request-builder.js';
import { SavedChoice } from '../playground/saved-choice.js';
import { useEstimate } from '../playground/use-estimate.js';
import { useJob } from '../playground/use-job.js';
import '../playground/playground.css';

/** The playground page. */
export function PlaygroundPage() {
  const jsonId = useId();
  const referenceId = useId();
  const projectNameId = useId();
  const [vehicles, setVehicles] = useState<Chosen[]>([]);
  const [templates, setTemplates] = useState<Chosen[]>([]);
  const [imported, setImported] = useState<PackItem[]>([]);
  const [reference, setReference] = useState('');
  const [text, setText] = useState(() => JSON.stringify(requestOf({ vehicles: [], templates: [], imported: [], reference: '' }), null, 2));
  const [edited, setEdited] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const [runFailure, setRunFailure] = useState<unknown>(null);
  const [running, setRunning] = useState(false);
  const [projectName, setProjectName] = useState('');
  const [project, setProject] = useState<{ id: string; name: string } | null>(null);
  const [projectFailure, setProjectFailure] = useState<unknown>(null);

  // The builder writes the JSON; editing the JSON by hand takes over until the builder changes again.
  useEffect(() => {
    setText(JSON.stringify(requestOf({ vehicles, templates, imported, reference }), null, 2));
    setEdited(false);
  }, [vehicles, templates, imported, reference]);

  const runKey = useRef<string | null>(null);
  useEffect(() => {
    runKey.current = null;
  }, [text]);
  const parsed = useMemo(() => parseRequestText(text), [text]);
  const request = 'request' in parsed ? parsed.request : null;
  const { estimate, failure: estimateFailure, pending } = useEstimate(request);
  const { job } = useJob(jobId);

  async function run() {
    if (request === null) return;
    setRunning(true);
    setRunFailure(null);
    setProject(null);
    // One Idempotency-Key per run of this request: a retry after a lost answer gets the same job
    // and is charged once; a new run after a success (or an edit) gets a new key.
    runKey.current ??= newIdempotencyKey();
    try {
      const created = await call<Job>('POST', '/v1/pack', request, { 'Idempotency-Key': runKey.current });
      runKey.current = null;
      setJobId(created.id);
    } catch (err) {
      setRunFailure(err);
    } finally {
      setRunning(false);
    }
  }

  async function saveProject() {
    setProjectFailure(null);
    try {
      const name = projectName.trim() || (request as { reference?: string } | null)?.reference || `Playground ${new Date().toLocaleString()}`;
      const saved = await call<{ id: string; name: string }>('POST', '/v1/projects', projectOf(request, name));
      setProject(saved);
    } catch (err) {
      setProjectFailure(err);
    }
  }

  const busy = job !== null && !isFinal(job.status);
  return (
    <Page title="Playground">
      <p className="pg-muted">
        Build a packing request, see its free estimate, run it as a job (billed like any job) and open the plan. Jobs run here are listed under{' '}
        <Link to="/jobs?source=playground">Jobs</Link>.
      </p>

      <div className="pg-columns">
        <SavedChoice path="/v1/vehicles" title="Vehicles" chosen={vehicles} onChange={setVehicles} />
        <SavedChoice path="/v1/templates" title="Cargo templates" chosen={templates} onChange={setTemplates} />
      </div>

      <ItemImportField onItems={(items) => setImported(items)} />
      {imported.length > 0 && (
        <p>
          {imported.length === 1 ? '1 imported item' : `${imported.length} imported items`} in the request.{' '}
          <button type="button" className="secondary" onClick={() => setImported([])}>
            Remove the imported items
          </button>
        </p>
      )}

      <p>
        <label htmlFor={referenceId}>Reference (optional)</label> <input id={referenceId} value={reference} maxLength={128} onChange={(e) => setReference(e.target.value)} />
      </p>

      <div className="pg-json">
        <label htmlFor={jsonId}>Request (JSON: edit or paste a whole request here)</label>
        <textarea
          id={jsonId}
          className="json"
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setEdited(true);
          }}
        />
        {edited && <p className="pg-muted">Edited by hand: changing the choices above rewrites it.</p>}
        {'problem' in parsed && (
          <p role="alert" className="pg-failure">
            {parsed.problem}
          </p>
        )}
      </div>

      <section aria-label="Estimate" className="pg-estimate">
        <h2>Estimate {pending && <span className="pg-muted">(updating…)</span>}</h2>
        <ErrorBanner error={estimateFailure} />
        {estimate && (
          <>
            <p data-valid={String(estimate.valid)}>
              {estimate.valid ? 'The request is valid.' : 'The request cannot run yet:'} {estimate.items} units, up to {estimate.max_vehicles} vehicles, up to{' '}
              {estimate.estimated_seconds} s of compute.
            </p>
            {estimate.errors.length > 0 && (
              <ul className="pg-problems" aria-label="Problems in the request">
                {estimate.errors.map((d, i) => (
                  <li key={i}>
                    <code>{d.path}</code>: {d.message}
                  </li>
                ))}
              </ul>
            )}
            {estimate.warnings.length > 0 && (
              <ul className="pg-warnings">
                {estimate.warnings.map((w, i) => (
                  <li key={i}>{w.message ?? JSON.stringify(w)}</li>
                ))}
              </ul>
            )}
            <p data-field="estimated-cost">
              Estimated cost: {credits(estimate.estimated_cost.min_credits)} to {credits(estimate.estimated_cost.max_credits)}; running reserves{' '}
              {credits(estimate.estimated_cost.max_credits)} until the job ends. Available: {credits(estimate.balance.available_credits)}.
            </p>
          </>
        )}
        <button type="button" disabled={!estimate?.valid || running || busy} onClick={run}>
          {running ? 'Starting…' : estimate?.valid ? `Run (at most ${credits(estimate.estimated_cost.max_credits)})` : 'Run'}
        </button>
        <ErrorBanner error={runFailure} />
      </section>

      {job && (
        <>
          <JobDetails job={job} title="Job" />
          <p>
            <Link to={`/jobs/${job.id}`}>The job's page</Link>
          </p>
        </>
      )}

      {request !== null && (
        <section aria-label="Save as project" className="pg-save">
          <h2>Save as project</h2>
          <label htmlFor={projectNameId}>Project name</label>{' '}
          <input id={projectNameId} value={projectName} maxLength={255} placeholder="Defaults to the reference" onChange={(e) => setProjectName(e.target.value)} />{' '}
          <button type="button" onClick={saveProject}>
            Save as project
          </button>
          <ErrorBanner error={projectFailure} />
          {project && (
            <p role="status" className="pg-ok" data-project-id={project.id}>
              Saved as project <strong>{project.name}</strong> (<code>{project.id}</code>). <Link to={`/projects?q=${encodeURIComponent(project.id)}`}>Open the projects</Link>
            </p>
          )}
        </section>
      )}
    </Page>
  );
}
