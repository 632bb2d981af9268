/**
 * What the viewer tells the web app's job page that frames it (plan editing). The page
 * (webapp/src/jobs/plan-editor.ts viewerNewsOf) takes a `message` only from its own embedded
 * viewer frame, on its own origin, about its own job:
 * - `{type: 'plan-revision-saved', jobId, revision}` after a save: the page lists the new
 *   revision without a reload;
 * - `{type: 'replan-job-created', jobId}` after a re-plan started from the viewer: the page
 *   opens the new job (the job page does that itself, in the web app's own navigation).
 * Each goes to the parent window with the viewer's own origin as the target origin: the service
 * serves both, and a page of another site framing a viewer link is told nothing. Pure but for
 * the window passed in (tested from node with a stand-in).
 */

/** A message for the job page. */
export type JobPageNews =
  { type: 'plan-revision-saved'; jobId: string; revision: number } | { type: 'replan-job-created'; jobId: string };

/** What these functions read of a window (the browser's `window`, or a test's stand-in). */
export interface ViewerWindow {
  readonly parent: { postMessage(message: unknown, targetOrigin: string): void };
  readonly location: { readonly origin: string };
}

/** The message saying revision `revision` of job `jobId` was saved. */
export function revisionSaved(jobId: string, revision: number): JobPageNews {
  return { type: 'plan-revision-saved', jobId, revision };
}

/** The message saying a re-plan started the new job `jobId`. */
export function replanCreated(jobId: string): JobPageNews {
  return { type: 'replan-job-created', jobId };
}

/**
 * Posts `news` to the window framing `win`, for its origin only (`win`'s own). Returns false,
 * posting nothing, when `win` is not framed.
 */
export function tellJobPage(win: ViewerWindow, news: JobPageNews): boolean {
  if ((win.parent as unknown) === win) return false;
  win.parent.postMessage(news, win.location.origin);
  return true;
}

/** The web app's page of job `jobId` (webapp routes: `/app/jobs/:id`). */
export function jobPagePath(jobId: string): string {
  return `/app/jobs/${encodeURIComponent(jobId)}`;
}

/**
 * True when `parentPath` (the path of the same-origin page framing the viewer, null when there is
 * none) is the web app's page of job `jobId`: the page that lists its revisions and opens a
 * re-planned job when told (a playground page framing the viewer does neither).
 */
export function framedByJobPage(parentPath: string | null, jobId: string): boolean {
  if (parentPath === null) return false;
  const path = jobPagePath(jobId);
  return parentPath === path || parentPath === `${path}/`;
}
