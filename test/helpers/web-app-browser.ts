/**
 * The set-up the web app's browser walks share (test/browser/web-app-*.test.ts): a walk is skipped
 * with a note when Debian's chromium is missing; else it gets an in-process service, the web app
 * built (scripts/front-end-builds.ts) and one headless Chromium for all its subtests, closed after
 * the last. `signedInOwner` opens a new organization's owner, invitation accepted, in a new browser
 * context of a given viewport; `inViewport` is the on-screen check of the layout tests.
 */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { Test } from 'tap';
import { WEBAPP, ensureBuild } from '../../scripts/front-end-builds.js';
import { CHROMIUM, launchChromium } from './chromium.js';
import { inProcessService } from './in-process-service.js';
import { acceptInvitation } from './web-invitation.js';
import { orgWithOwnerInvitation } from './web-session.js';

/** The password the walks' members sign up with. */
export const WALK_PASSWORD = 'correct horse battery staple';

/** A web-app walk's service and browser. */
export interface WebAppWalk {
  readonly run: ReturnType<typeof inProcessService>;
  /** The walk's Chromium; throws before `t.before` has launched it. */
  readonly browser: () => Browser;
}

/**
 * Registers a browser walk of the web app on `t`, its service's data dir named after `name`:
 * null (and one skipped assertion saying why, `what` naming the walk) when chromium is not
 * installed; else the walk, its web app built and its Chromium launched before the first subtest.
 */
export function webAppWalk(t: Test, name: string, what: string): WebAppWalk | null {
  if (!existsSync(CHROMIUM)) {
    const reason = `no browser walk of ${what}: ${CHROMIUM} is not installed`;
    t.comment(reason);
    t.pass(`${what} in a browser`, { skip: reason });
    return null;
  }
  const run = inProcessService(t, name);
  let launched: Browser | undefined;
  t.before(async () => {
    t.not(await ensureBuild(WEBAPP, 'stale'), 'missing', 'the web app is built');
    launched = await launchChromium();
  });
  t.teardown(async () => {
    await launched?.close();
  });
  return {
    run,
    browser: () => {
      if (!launched) throw new Error('the walk’s browser is launched in t.before');
      return launched;
    },
  };
}

/** A signed-in owner's page, its context and the page errors seen on it. */
export interface SignedInPage {
  page: Page;
  context: BrowserContext;
  /** `page error: …` for every uncaught error in the page. */
  problems: string[];
}

/**
 * A new organization `org` whose owner (`email`, named `person`) accepts the invitation in a new
 * context of `viewport` (CSS px), signed in on the web app's home. The context closes when `t`
 * ends.
 */
export async function signedInOwner(
  t: Test,
  walk: WebAppWalk,
  options: { org: string; email: string; viewport: { width: number; height: number }; person?: string },
): Promise<SignedInPage> {
  const { token } = await orgWithOwnerInvitation(walk.run.service, options.org, options.email);
  const context = await walk.browser().newContext({ viewport: options.viewport, baseURL: walk.run.service.url });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await acceptInvitation(page, `/app/invitations/${token}`, options.person ?? 'Pat Planner', WALK_PASSWORD);
  return { page, context, problems };
}

/** Two boxes the same to the CSS px's hundredth. */
const sameBox = (a: Box, b: Box): boolean =>
  [a.x - b.x, a.y - b.y, a.width - b.width, a.height - b.height].every((d) => Math.abs(d) < 0.01);
type Box = { x: number; y: number; width: number; height: number };

/**
 * How the on-screen checks bring an element into view first: `into-view`, scrolled as Playwright
 * does (any scroll container, either axis); `page`, the page scrolled down to it, vertically
 * only (a box scrolled sideways into view would hide a layout that does not fit); `none`.
 */
export type ScrollTo = 'into-view' | 'page' | 'none';

/** Scrolls `locator` into view as `how` says. */
async function scrollTo(locator: Locator, how: ScrollTo): Promise<void> {
  if (how === 'into-view') await locator.scrollIntoViewIfNeeded();
  else if (how === 'page')
    await locator.evaluate((el) => {
      const top = (el as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top;
      (globalThis as unknown as { scrollBy(x: number, y: number): void }).scrollBy(0, top - 100);
    });
}

/**
 * Null when `locator`'s box lies wholly inside a `width` × `height` viewport (CSS px, half a px
 * of rounding allowed) once scrolled to as `how` says (default `into-view`), else where it is
 * (`not rendered`, `at x 10–250, y 900–940`); a box drawn invisible (a visually hidden header)
 * counts by its place. The page may still be moving (an answer
 * arriving re-lays it out above the element), so the element is scrolled to again until two reads
 * of its box a frame apart agree (at most 20 tries), and that box is judged.
 */
export async function offScreen(
  locator: Locator,
  width: number,
  height: number,
  how: ScrollTo = 'into-view',
): Promise<string | null> {
  let box: Box | null = null;
  for (let i = 0; i < 20; i++) {
    await scrollTo(locator, how);
    const before = await locator.boundingBox();
    await locator.page().evaluate('new Promise((done) => requestAnimationFrame(() => done(null)))');
    box = await locator.boundingBox();
    if (before !== null && box !== null && sameBox(before, box)) break;
  }
  if (box === null) return 'not rendered';
  const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5;
  return inside
    ? null
    : `at x ${box.x.toFixed(0)}–${(box.x + box.width).toFixed(0)}, y ${box.y.toFixed(0)}–${(box.y + box.height).toFixed(0)}`;
}

/** Whether `locator` is visible and wholly inside a `width` × `height` viewport once scrolled into view (offScreen). */
export async function inViewport(locator: Locator, width: number, height: number): Promise<boolean> {
  return (await offScreen(locator, width, height)) === null && (await locator.isVisible());
}
