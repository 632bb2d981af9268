/**
 * Where to go after signing in (issue 11): the `?next=` path when it is a page of the app, else
 * /playground. Only router paths (`/jobs/job_1?x=1`) are taken, never another origin (`//evil`,
 * `https://…`) nor the sign-in page itself. Pure; tested in test/webapp/next-path.test.ts.
 */

/** The page to open after sign-in: `next` when safe, else '/playground'. */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return '/playground';
  const path = next.startsWith('/app/') ? next.slice(4) : next;
  if (path === '/sign-in' || path.startsWith('/sign-in?') || path.startsWith('/invitations/')) return '/playground';
  return path;
}
