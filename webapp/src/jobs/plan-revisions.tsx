/**
 * The plan of a succeeded job on the job page, with its revisions (plan editing, design §2):
 * - the revisions table (GET /v1/jobs/{id}/revisions, newest first, "Show more" by cursor; the
 *   original plan as revision 0): who saved each and when, its edits, units placed and weight
 *   (display units), "Open in 3D" (shows it in the embedded viewer) and its PDF;
 * - "Edit plan" (owner and members): the latest revision's signed viewer URL with `&edit=1` in
 *   the embedded viewer (plan-editor.ts), and a link opening that editor in a full window;
 * - the embedded viewer; its messages refresh the table (a revision saved) or open the new job
 *   (a re-plan started from the viewer);
 * - the "Re-plan from step K" form (replan-form.tsx).
 * A job whose plan is no longer kept shows the note of PlanLinks instead.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Job } from '../playground/pack-request.js';
import { when } from '../playground/format.js';
import { PlanLinks } from '../playground/job-details.js';
import { useSignedIn } from '../session.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { ListSection } from '../ui/list-section.js';
import { useDisplayUnits } from '../units/use-display-units.js';
import { canEditPlans, editorUrl, viewerNewsOf } from './plan-editor.js';
import { ReplanForm } from './replan-form.js';
import {
  authorName,
  latestRevision,
  planFigures,
  revisionName,
  revisionPhrase,
  revisionRows,
  weightText,
  type RevisionEntry,
} from './revision-list.js';
import { useRevisionResults, useRevisions } from './use-revisions.js';

/** What the embedded viewer shows: a revision, opened to look at or to edit, at `url`. */
interface Shown {
  revision: number;
  editing: boolean;
  url: string;
}

/** "3 edits of revision 1" (or "of the original plan"); "—" for the original plan itself. */
function changesText(entry: RevisionEntry): string {
  if (entry.revision === 0) return '—';
  const n = entry.operations_count;
  const edits = n === undefined ? 'Edits' : `${n} ${n === 1 ? 'edit' : 'edits'}`;
  return `${edits} of ${revisionPhrase(entry.base_revision ?? entry.revision - 1)}`;
}

/** The plan of `job` (succeeded) with its revisions, the editor and the re-plan form. */
export function PlanRevisions({ job }: { job: Job }) {
  const session = useSignedIn();
  const units = useDisplayUnits();
  const navigate = useNavigate();
  const list = useRevisions(job.id);
  const { results, failures, resultOf } = useRevisionResults(job.id, job.viewer_url);
  const [shown, setShown] = useState<Shown>({ revision: 0, editing: false, url: job.viewer_url });
  const [failure, setFailure] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const frame = useRef<HTMLIFrameElement>(null);
  const { reload } = list;

  // New links (the owner revoked the shared ones): the original plan again, at its new link.
  useEffect(() => setShown({ revision: 0, editing: false, url: job.viewer_url }), [job.viewer_url]);

  const rows = useMemo(
    () => (list.entries ? revisionRows(list.entries, !list.nextCursor, job) : null),
    [list.entries, list.nextCursor, job],
  );
  const listed = useMemo(() => (rows ?? []).map((r) => r.revision), [rows]);
  const listedKey = listed.join(',');

  // The Result of every listed revision, one read after the other: its figures and links.
  useEffect(() => {
    let live = true;
    void (async () => {
      for (const revision of listedKey ? listedKey.split(',').map(Number) : []) {
        if (!live) return;
        await resultOf(revision).catch(() => undefined);
      }
    })();
    return () => {
      live = false;
    };
  }, [listedKey, resultOf]);

  // The embedded viewer's news: a saved revision refreshes the table; a re-plan opens its job.
  useEffect(() => {
    function onMessage(event: MessageEvent) {
      const news = viewerNewsOf(event, {
        origin: window.location.origin,
        frame: frame.current?.contentWindow ?? null,
        jobId: job.id,
      });
      if (news === null) return;
      if (news.kind === 'revision-saved') {
        setShown((s) => ({ ...s, revision: news.revision }));
        setStatus(`${revisionName(news.revision)} saved.`);
        reload();
      } else void navigate(`/jobs/${encodeURIComponent(news.jobId)}`);
    }
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [job.id, reload, navigate]);

  // Back from the editor in a full window: the table may have a new revision.
  useEffect(() => {
    if (!shown.editing) return;
    window.addEventListener('focus', reload);
    return () => window.removeEventListener('focus', reload);
  }, [shown.editing, reload]);

  if (!job.pdf_url && !job.viewer_url) return <PlanLinks job={job} />;

  /** The signed links of `revision`: from its Result, the job's own for the original plan until then. */
  const linksOf = (revision: number): { viewer: string; pdf: string } | null => {
    const result = results.get(revision);
    if (result) return { viewer: result.viewer_url, pdf: result.pdf_url };
    return revision === 0 ? { viewer: job.viewer_url, pdf: job.pdf_url } : null;
  };

  /** Shows `revision` in the embedded viewer (`editing`: in edit mode). */
  async function show(revision: number, editing: boolean) {
    setFailure(null);
    try {
      const viewer = linksOf(revision)?.viewer ?? (await resultOf(revision)).viewer_url;
      setShown({ revision, editing, url: editing ? editorUrl(viewer) : viewer });
      setStatus(`${revisionName(revision)} ${editing ? 'is open for editing' : 'is shown'} in the 3D viewer.`);
      frame.current?.scrollIntoView({ block: 'nearest' });
    } catch (err) {
      setFailure(err);
    }
  }

  const latest = rows ? latestRevision(rows) : 0;
  const mayEdit = canEditPlans(session.user.role) && job.viewer_url !== '';
  const shownLinks = linksOf(shown.revision);

  return (
    <div className="plan-revisions">
      <ListSection
        id="revisions-heading"
        title="Plan revisions"
        error={list.failure}
        rows={rows}
        columns={['Revision', 'Saved by', 'Saved', 'Changes', 'Units placed', 'Weight', 'Plan']}
        row={(r) => {
          const result = results.get(r.revision);
          const figures = result ? planFigures(result) : null;
          const links = linksOf(r.revision);
          const name = revisionName(r.revision);
          const isShown = r.revision === shown.revision;
          return (
            <tr key={r.revision} data-revision={r.revision} aria-current={isShown ? 'true' : undefined}>
              <th scope="row">
                {name}
                {isShown ? <span className="badge"> in the viewer</span> : null}
              </th>
              <td data-field="created_by">{authorName(r)}</td>
              <td>{when(r.created_at)}</td>
              <td>{changesText(r)}</td>
              <td className="num">{figures ? `${figures.placed} of ${figures.requested}` : '…'}</td>
              <td className="num">{figures ? weightText(figures.weightKg, units) : '…'}</td>
              <td className="actions">
                <button
                  type="button"
                  className="link"
                  aria-label={`Open in 3D: ${revisionPhrase(r.revision)}`}
                  onClick={() => void show(r.revision, false)}
                >
                  Open in 3D
                </button>{' '}
                {links?.pdf ? (
                  <a
                    href={links.pdf}
                    target="_blank"
                    rel="noopener"
                    aria-label={`PDF of ${revisionPhrase(r.revision)}`}
                  >
                    PDF
                  </a>
                ) : failures.has(r.revision) && !result ? (
                  <span className="pg-muted">PDF not available</span>
                ) : null}
              </td>
            </tr>
          );
        }}
      >
        {list.nextCursor ? (
          <button type="button" className="secondary" disabled={list.loading} onClick={list.showMore}>
            Show more revisions
          </button>
        ) : null}
        {mayEdit ? (
          <p>
            <button
              type="button"
              disabled={rows === null && !list.failure}
              aria-describedby="edit-plan-hint"
              onClick={() => void show(latest, true)}
            >
              Edit plan
            </button>{' '}
            <span id="edit-plan-hint" className="pg-muted">
              Opens the latest revision in the 3D viewer&apos;s editor; every change is checked, and saving makes a new
              revision.
            </span>
          </p>
        ) : null}
      </ListSection>
      <ErrorBanner error={failure} />
      <p className="visually-hidden" role="status">
        {status}
      </p>
      <ReplanForm jobId={job.id} revisions={listed} shownRevision={shown.revision} resultOf={resultOf} />
      <section aria-labelledby="plan-view-heading" className="pg-plan">
        <h2 id="plan-view-heading">
          3D plan: {revisionName(shown.revision)}
          {shown.editing ? ' (editing)' : ''}
        </h2>
        <p>
          <a href={shown.url} target="_blank" rel="noopener" className="pg-button">
            {shown.editing ? 'Open the editor in a full window' : 'Open the plan in the 3D viewer'}
          </a>{' '}
          {shownLinks?.pdf ? (
            <a href={shownLinks.pdf} target="_blank" rel="noopener" className="pg-button">
              Plan as PDF
            </a>
          ) : null}
        </p>
        {shown.url ? (
          <iframe
            ref={frame}
            className="pg-viewer"
            title={`3D plan of ${job.id}, ${revisionPhrase(shown.revision)}`}
            src={shown.url}
          />
        ) : null}
      </section>
    </div>
  );
}
