/**
 * The playground (`/app/playground`): build a request from saved vehicles (every saved and preset
 * vehicle, searchable) and templates with quantities, import items from a CSV or .xlsx file,
 * correct them in the item table, or edit/paste the JSON: the table, the pickers and the JSON are
 * one request, each edit shows in the others (playground/request-edits.ts). Choose whether
 * vehicles are added automatically (spec Options.packing_mode); see the free estimate as it
 * changes (POST /v1/estimate) with where its vehicle bound comes from; run it (POST /v1/pack, a
 * `playground` job billed like any other; the worst-case price is shown before); watch its
 * progress; read the result, open the plan in the 3D viewer and the PDF; save the request as a
 * project (POST /v1/projects). A request handed over in the router's location state
 * (`{draft: <PackRequest>}`, the job page's "Duplicate into the playground") is loaded, then the
 * state is cleared so that a reload does not load it again. Nothing typed is lost: the request
 * being built is kept per member in the browser (playground/draft-store.ts) and restored on the
 * next visit, a reload included, with *Start over* to drop it.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { call, newIdempotencyKey } from '../api.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Page } from '../ui/page.js';
import { useSignedIn } from '../session.js';
import { useDisplayUnits } from '../units/use-display-units.js';
import { AutoVehiclesOption } from '../playground/auto-vehicles-option.js';
import { browserStorage, forgetDraft, keepDraft, keptDraft, type KeptDraft } from '../playground/draft-store.js';
import { describeEstimateDetail, missingForEstimate } from '../playground/estimate-problems.js';
import { credits } from '../playground/format.js';
import { ItemImportField } from '../playground/item-import-field.js';
import { ItemTable } from '../playground/item-table.js';
import { savedLookupOf, type SavedRecords } from '../playground/cargo-summary.js';
import { JobDetails } from '../playground/job-details.js';
import { isFinal, type Job } from '../playground/pack-request.js';
import { parseRequestText, projectOf } from '../playground/request-builder.js';
import {
  chosenTemplates,
  chosenVehicles,
  draftOf,
  EMPTY_REQUEST,
  itemsOf,
  listedVehicleCount,
  packingModeOf,
  readRequest,
  referenceOf,
  replaceableItemCount,
  requestText,
  vehiclesOf,
  deliveryStopsOf,
  groupRoutingOf,
  withDeliveryOrder,
  withGroupRouting,
  withImportedItems,
  withItems,
  withPackingMode,
  withReference,
  withTemplateQuantity,
  withVehicleQuantity,
  type RequestObject,
} from '../playground/request-edits.js';
import { SavedChoice } from '../playground/saved-choice.js';
import { useSavedRecords, type SavedList } from '../playground/use-saved-records.js';
import { StopsControl } from '../playground/stops-control.js';
import { useEstimate } from '../playground/use-estimate.js';
import { useJob } from '../playground/use-job.js';
import { useVehicleTerms } from '../playground/use-vehicle-terms.js';
import { vehicleBoundText } from '../playground/vehicle-bound.js';
import '../playground/playground.css';

/** The editor's text and the last request the table could read, for a starting request. */
function startWith(request: RequestObject): { text: string; good: RequestObject } {
  return startWithText(requestText(request));
}

/** The same for the editor's text as it was kept (it may not parse: the table then starts empty). */
function startWithText(text: string): { text: string; good: RequestObject } {
  const read = readRequest(text);
  return { text, good: 'request' in read ? read.request : EMPTY_REQUEST };
}

/** The JSON editor's text of the empty request: a draft that is this is not kept. */
const EMPTY_TEXT = requestText(EMPTY_REQUEST);

/** The playground page. */
export function PlaygroundPage() {
  const jsonId = useId();
  const referenceId = useId();
  const projectNameId = useId();
  const location = useLocation();
  const navigate = useNavigate();
  const units = useDisplayUnits();
  const terms = useVehicleTerms();
  const session = useSignedIn();
  const owner = useMemo(
    () => ({ organizationId: session.organization.id, userId: session.user.id }),
    [session.organization.id, session.user.id],
  );
  // The member's kept draft, unless a job's request is handed over (it replaces the draft).
  const [restored, setRestored] = useState<KeptDraft | null>(() => {
    if (draftOf(location.state) !== null) return null;
    const kept = keptDraft(browserStorage(), owner);
    return kept !== null && kept.text !== EMPTY_TEXT ? kept : null;
  });
  const [start] = useState(() => {
    const handedOver = draftOf(location.state);
    if (handedOver !== null) return startWith(handedOver);
    return restored !== null ? startWithText(restored.text) : startWith(EMPTY_REQUEST);
  });
  // The JSON editor's text is the request; `good` is the last text the table and pickers could read.
  const [text, setText] = useState(start.text);
  const [good, setGood] = useState<RequestObject>(start.good);
  // The saved vehicles and templates, read once: the pickers list them, the cargo totals size with them.
  const vehicleList = useSavedRecords('/v1/vehicles');
  const templateList = useSavedRecords('/v1/templates');
  const saved = useMemo<SavedRecords>(() => {
    // A list that could not be read sizes nothing (its picker's banner says why).
    const lookup = (list: SavedList) =>
      list.records !== null ? savedLookupOf(list.records) : list.failure !== null ? savedLookupOf([]) : null;
    return { vehicles: lookup(vehicleList), templates: lookup(templateList) };
  }, [vehicleList, templateList]);
  const [fromDraft, setFromDraft] = useState(() => draftOf(location.state) !== null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [runFailure, setRunFailure] = useState<unknown>(null);
  const [running, setRunning] = useState(false);
  const [projectName, setProjectName] = useState('');
  const [project, setProject] = useState<{ id: string; name: string } | null>(null);
  const [projectFailure, setProjectFailure] = useState<unknown>(null);

  // A draft in the location state (also one arriving while the page is open) is loaded once,
  // then the state is cleared: a reload starts from the draft no more.
  useEffect(() => {
    const draft = draftOf(location.state);
    if (draft === null) return;
    const next = startWith(draft);
    setText(next.text);
    setGood(next.good);
    setFromDraft(true);
    setRestored(null);
    void navigate('.', { replace: true, state: null });
  }, [location.state, navigate]);

  // Every change is kept for this member; where the browser refuses, leaving the tab asks first.
  const [keptInBrowser, setKeptInBrowser] = useState(true);
  useEffect(() => {
    setKeptInBrowser(keepDraft(browserStorage(), owner, text, text === EMPTY_TEXT));
  }, [owner, text]);
  useEffect(() => {
    if (keptInBrowser || text === EMPTY_TEXT) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [keptInBrowser, text]);

  /** Drops the kept draft and starts from the empty request. */
  function startOver() {
    forgetDraft(browserStorage(), owner);
    const empty = startWith(EMPTY_REQUEST);
    setText(empty.text);
    setGood(empty.good);
    setRestored(null);
    setFromDraft(false);
    setJobId(null);
    setProject(null);
  }

  /** Applies one control's change to the last readable request and writes the JSON from it. */
  function update(change: (request: RequestObject) => RequestObject) {
    const next = change(good);
    setGood(next);
    setText(requestText(next));
  }

  /** The JSON editor's change: the table and pickers follow when the text can be read. */
  function editText(value: string) {
    setText(value);
    const read = readRequest(value);
    if ('request' in read) setGood(read.request);
  }

  const runKey = useRef<string | null>(null);
  useEffect(() => {
    runKey.current = null;
  }, [text]);
  const parsed = useMemo(() => parseRequestText(text), [text]);
  const request = 'request' in parsed ? parsed.request : null;
  const tableProblem = useMemo(() => {
    const read = readRequest(text);
    return 'problem' in read ? read.problem : null;
  }, [text]);
  const mode = packingModeOf(good);
  const { estimate, failure: estimateFailure, pending, current } = useEstimate(request);
  // Only the estimate of the request as it is now prices a run (an older one stays, greyed).
  const runnable = current && estimate?.valid === true;
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
      const name =
        projectName.trim() ||
        (request as { reference?: string } | null)?.reference ||
        `Playground ${new Date().toLocaleString()}`;
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
        Build a packing request, see its free estimate, run it as a job (billed like any job) and open the plan. Jobs
        run here are listed under <Link to="/jobs?source=playground">Jobs</Link>.
      </p>

      {fromDraft && (
        <p role="status" className="pg-ok" data-field="draft-loaded">
          Loaded a copy of a job's request: change it and run it as a new job.
        </p>
      )}
      {restored && (
        <p role="status" className="pg-ok" data-field="draft-restored">
          Restored the request you were building (last changed{' '}
          <time dateTime={restored.savedAt}>{new Date(restored.savedAt).toLocaleString()}</time>).{' '}
          <button type="button" onClick={startOver}>
            Start over
          </button>
        </p>
      )}
      {!keptInBrowser && text !== EMPTY_TEXT && (
        <p role="alert" className="pg-failure" data-field="draft-not-kept">
          This browser does not keep the request (storage is disabled or full): it stays while you move between pages of
          the web app, but a reload or closing the tab loses it. Save it as a project to keep it.
        </p>
      )}

      <SavedChoice
        list={vehicleList}
        title="Vehicles"
        noun="vehicles"
        chosen={chosenVehicles(good)}
        onQuantity={(id, n) => update((r) => withVehicleQuantity(r, id, n))}
      />
      <AutoVehiclesOption mode={mode} terms={terms} onChange={(m) => update((r) => withPackingMode(r, m))} />
      <SavedChoice
        list={templateList}
        title="Cargo templates"
        noun="templates"
        chosen={chosenTemplates(good)}
        onQuantity={(id, n) => update((r) => withTemplateQuantity(r, id, n))}
      />

      <ItemImportField
        existing={replaceableItemCount(good)}
        onImport={(items, join) => update((r) => withImportedItems(r, items, join))}
      />

      <ItemTable
        items={itemsOf(good)}
        vehicles={vehiclesOf(good)}
        saved={saved}
        units={units}
        onChange={(items) => update((r) => withItems(r, items))}
      />

      <StopsControl
        stops={deliveryStopsOf(good)}
        routing={groupRoutingOf(good)}
        onRouting={(m) => update((r) => withGroupRouting(r, m))}
        onOrder={(names) => update((r) => withDeliveryOrder(r, names))}
      />

      <p>
        <label htmlFor={referenceId}>Reference (optional)</label>{' '}
        <input
          id={referenceId}
          value={referenceOf(good)}
          maxLength={128}
          onChange={(e) => update((r) => withReference(r, e.target.value))}
        />
      </p>

      <div className="pg-json">
        <label htmlFor={jsonId}>Request (JSON: edit or paste a whole request here)</label>
        <textarea
          id={jsonId}
          className="json"
          spellCheck={false}
          value={text}
          onChange={(e) => editText(e.target.value)}
          aria-describedby={`${jsonId}-sync`}
        />
        <p id={`${jsonId}-sync`} className="pg-muted">
          The pickers, the item table and this JSON are one request: a change in one shows in the others. Fields the
          table does not show stay as they are.
        </p>
        {'problem' in parsed ? (
          <p role="alert" className="pg-failure" data-field="json-problem">
            {parsed.problem}. The item table and the pickers still show the last valid request; changing them rewrites
            the JSON from that request.
          </p>
        ) : (
          tableProblem && (
            <p role="alert" className="pg-failure" data-field="json-problem">
              The table cannot show this request ({tableProblem}): it still shows the last valid request; changing it
              rewrites the JSON from that request.
            </p>
          )
        )}
      </div>

      <section aria-label="Estimate" className="pg-estimate" aria-busy={!current} data-current={current}>
        <h2>Estimate {(pending || !current) && <span className="pg-muted">(updating…)</span>}</h2>
        <ErrorBanner error={estimateFailure} />
        {estimate && (
          <div className={current ? undefined : 'pg-stale'}>
            {!current && <p className="pg-muted">Of the request before its last change:</p>}
            {estimate.valid ? (
              <p data-valid="true">
                The request is valid. <span data-field="units">{estimate.items} units</span>,{' '}
                <span data-field="max-vehicles">
                  {vehicleBoundText({
                    maxVehicles: estimate.max_vehicles,
                    listed: listedVehicleCount(good),
                    mode,
                    limit: terms?.maxVehicles ?? null,
                  })}
                </span>
                , up to {estimate.estimated_seconds} s of compute.
              </p>
            ) : (
              <p data-valid="false" data-field="missing">
                {missingForEstimate(listedVehicleCount(good), itemsOf(good).length) ?? 'The request cannot run yet:'}
              </p>
            )}
            {estimate.errors.length > 0 && (
              <ul className="pg-problems" aria-label="Problems in the request">
                {estimate.errors.map((d, i) => (
                  <li key={i}>{describeEstimateDetail(d, itemsOf(good))}</li>
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
            {estimate.valid ? (
              <p data-field="estimated-cost">
                Estimated cost: {credits(estimate.estimated_cost.min_credits)} (fewest vehicles, no compute) to{' '}
                {credits(estimate.estimated_cost.max_credits)} (
                {estimate.max_vehicles === 1 ? '1 vehicle' : `${estimate.max_vehicles} vehicles`} loaded and the whole
                compute budget); running reserves {credits(estimate.estimated_cost.max_credits)} until the job ends.
                Available: {credits(estimate.balance.available_credits)}.
              </p>
            ) : (
              // The estimate of a request that cannot run prices it at 0 to 0 credits: no range to show.
              <p data-field="estimated-cost">
                No cost until the request can run. Available: {credits(estimate.balance.available_credits)}.
              </p>
            )}
          </div>
        )}
        <button type="button" disabled={!runnable || running || busy} onClick={run}>
          {running
            ? 'Starting…'
            : runnable && estimate
              ? `Run (at most ${credits(estimate.estimated_cost.max_credits)})`
              : 'Run'}
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
          <input
            id={projectNameId}
            value={projectName}
            maxLength={255}
            placeholder="Defaults to the reference"
            onChange={(e) => setProjectName(e.target.value)}
          />{' '}
          <button type="button" onClick={saveProject}>
            Save as project
          </button>
          <ErrorBanner error={projectFailure} />
          {project && (
            <p role="status" className="pg-ok" data-project-id={project.id}>
              Saved as project <strong>{project.name}</strong> (<code>{project.id}</code>).{' '}
              <Link to={`/projects?q=${encodeURIComponent(project.id)}`}>Open the projects</Link>
            </p>
          )}
        </section>
      )}
    </Page>
  );
}
