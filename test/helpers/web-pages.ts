/**
 * Every page a person opens in the service's browser front ends, and how to tell one has
 * settled: the web app's pages (sign-in, an invitation, the playground, the jobs and a job, the
 * saved data, the owner's console), the API reference (/docs) and the standalone 3D viewer of a
 * finished job. Used by the accessibility test of every page (test/browser/axe-pages.test.ts)
 * and `npm run bench -- webapp` (scripts/bench-webapp.ts).
 */
import type { Page } from 'playwright-core';

/** A page to visit: a name for reports, its path (with query) and whether it needs the owner signed in. */
export interface WebPage {
  name: string;
  path: string;
  signedIn: boolean;
}

/** What the page list needs: a pending invitation's token, a finished job's id and its viewer URL's path. */
export interface PageFixtures {
  invitationToken: string;
  jobId: string;
  viewerPath: string;
}

/** Every page, signed-out ones first. `console webhooks` is skipped where the web app has no such route. */
export function webPages(f: PageFixtures): WebPage[] {
  const app = (name: string, path: string): WebPage => ({ name, path: `/app${path}`, signedIn: true });
  return [
    { name: 'sign-in', path: '/app/sign-in', signedIn: false },
    { name: 'invitation', path: `/app/invitations/${f.invitationToken}`, signedIn: false },
    app('playground', '/playground'),
    app('jobs', '/jobs'),
    app('job', `/jobs/${f.jobId}`),
    app('vehicles', '/vehicles'),
    app('templates', '/templates'),
    app('projects', '/projects'),
    app('console keys', '/console/keys'),
    app('console members', '/console/members'),
    app('console account', '/console/account'),
    app('console webhooks', '/console/webhooks'),
    { name: 'docs', path: '/docs', signedIn: false },
    { name: 'viewer', path: f.viewerPath, signedIn: false },
  ];
}

/** The path and query of a URL (a job's `viewer_url` names the service's public origin). */
export const pathOf = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/**
 * Opens `base + visit.path` in `page` and waits until it has settled: the viewer drew its first
 * frame (`body[data-ready]`, or `data-error`), /docs rendered the API's title, a web app page shows
 * its `<h1>` with no request in flight. Resolves false when the web app has no such page (it sent
 * the browser elsewhere, e.g. an unknown console page goes to the playground).
 */
export async function openWebPage(page: Page, base: string, visit: WebPage): Promise<boolean> {
  await page.goto(base + visit.path);
  if (visit.path.startsWith('/viewer')) {
    await page.waitForSelector('body[data-ready="1"], body[data-error]', { timeout: 60_000 });
  } else if (visit.path.startsWith('/docs')) {
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 60_000 });
  } else {
    await page.waitForLoadState('networkidle');
    await page.locator('h1').first().waitFor({ timeout: 30_000 });
    if (new URL(page.url()).pathname !== new URL(base + visit.path).pathname) return false;
  }
  await page.waitForLoadState('networkidle');
  return true;
}
