/**
 * The 3D viewer as the plan editor of the job page (plan editing): who may edit, the URL that
 * opens a revision in edit mode, and the messages the embedded viewer posts to the page.
 * The viewer offers editing when it finds a signed-in session; the page agrees with it by URL
 * (`&edit=1` on a revision's signed `viewer_url`) and by `postMessage`:
 * - `{type: 'plan-revision-saved', jobId, revision}`: a revision of this job was saved;
 * - `{type: 'replan-job-created', jobId}`: a re-plan started the new job `jobId`.
 * Pure.
 */
/** Roles that edit plans: the owner and members (a role added later does not, until it is named here). */
const EDITING_ROLES: ReadonlySet<string> = new Set(['owner', 'member']);

/** True when a person of `role` (the session's `user.role`, session.tsx) may edit plans (save revisions). */
export function canEditPlans(role: string): boolean {
  return EDITING_ROLES.has(role);
}

/**
 * The viewer URL of a revision opened for editing: its signed `viewer_url` with `edit=1` added
 * to the query (the signed part is kept as it is). A relative URL stays relative.
 */
export function editorUrl(viewerUrl: string): string {
  const cut = viewerUrl.indexOf('#');
  const url = cut < 0 ? viewerUrl : viewerUrl.slice(0, cut);
  const fragment = cut < 0 ? '' : viewerUrl.slice(cut);
  if (/[?&]edit=1(&|$)/.test(url)) return viewerUrl;
  // Appended as text: the signed query is not parsed and written again (its encoding stays as signed).
  const separator = !url.includes('?') ? '?' : /[?&]$/.test(url) ? '' : '&';
  return `${url}${separator}edit=1${fragment}`;
}

/** What the embedded viewer told the page. */
export type ViewerNews = { kind: 'revision-saved'; revision: number } | { kind: 'replan-created'; jobId: string };

/** A `message` event as the page receives it (the fields this module reads). */
export interface ViewerMessageEvent {
  origin: string;
  source: unknown;
  data: unknown;
}

/**
 * The news in `event` when it comes from the embedded viewer (`frame`: its window) of job
 * `jobId` on the page's own origin (`origin`); null for anything else (another frame or origin,
 * another job, an unknown type or malformed fields).
 */
export function viewerNewsOf(
  event: ViewerMessageEvent,
  expected: { origin: string; frame: unknown; jobId: string },
): ViewerNews | null {
  if (event.origin !== expected.origin || event.source === null || event.source !== expected.frame) return null;
  const data = event.data;
  if (typeof data !== 'object' || data === null) return null;
  const message = data as { type?: unknown; jobId?: unknown; revision?: unknown };
  if (message.type === 'plan-revision-saved') {
    if (message.jobId !== expected.jobId) return null;
    const revision = message.revision;
    return typeof revision === 'number' && Number.isInteger(revision) && revision > 0
      ? { kind: 'revision-saved', revision }
      : null;
  }
  if (message.type === 'replan-job-created') {
    const jobId = message.jobId;
    return typeof jobId === 'string' && /^job_[A-Za-z0-9_-]+$/.test(jobId) ? { kind: 'replan-created', jobId } : null;
  }
  return null;
}
