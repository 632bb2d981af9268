/**
 * The 3D viewer on tablets and phones, in a real browser (headless Chromium, WebGL by
 * SwiftShader) against the real service (in process): one solved job, then
 * - the web app's job page at 768 × 1024 (tablet) and 1366 × 768 (laptop): the embedded viewer's
 *   3D view is at least 60 % of the window's height, the iframe no taller than the window, the
 *   job's key figures on the first screen, and the 3D view follows a window resize; at 390 × 844
 *   (phone) the sizes are printed;
 * - the viewer page alone at 390 × 844 (phone, touch): nothing wider than the window, every
 *   panel toggle on screen and its drawer inside the window, a one-finger drag orbits, a pinch
 *   zooms, a two-finger drag pans, a tap picks a unit (and opens its details) while a two-finger
 *   tap picks nothing; held sideways (844 × 390) it still fits;
 * - axe-core: no serious or critical violation on the job page (each size) and on the phone viewer.
 * Screenshots go to test-artifacts/viewer-devices/; two of them are README pictures
 * (`docs/img/viewer-phone.png`, `docs/img/web-job-tablet.png`, see test/helpers/readme-pictures.ts).
 */
import t, { type Test } from 'tap';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, CDPSession, Frame, Page } from 'playwright-core';
import { VIEWER, WEBAPP, ensureBuild } from '../../scripts/front-end-builds.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { acceptedMember } from '../helpers/web-session.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { readmePictureDir } from '../helpers/readme-pictures.js';
import { axeCheck, type AxeFinding } from '../helpers/axe.js';

// What the callbacks run in the page touch: the root tsconfig has no DOM lib, so these shapes are
// declared here (types only; in the page the names are the browser's own).
interface CameraView {
  position: [number, number, number];
  target: [number, number, number];
  distance: number;
}
declare const window: {
  innerWidth: number;
  innerHeight: number;
  scrollTo(x: number, y: number): void;
  planViewer?: { camera(): CameraView; screenPoint(itemId: string, instance: number): { x: number; y: number } | null };
};
declare const document: {
  documentElement: { scrollWidth: number };
  body: { scrollWidth: number; dataset: Record<string, string | undefined> };
};
declare const requestAnimationFrame: (callback: () => void) => number;

const SHOTS = fileURLToPath(new URL('../../test-artifacts/viewer-devices/', import.meta.url));
const DOC_IMAGES = readmePictureDir();
mkdirSync(SHOTS, { recursive: true });
/** README pictures stay small (the same limit as the other browser tests). */
const PICTURE_LIMIT = 150 * 1024;

/** A box truck with two kinds of units, long names, and more weight than it may carry (so some stay unplaced). */
const BODY = {
  reference: 'PO-88213 Ningbo - Hamburg, household goods for the north warehouse',
  vehicles: [
    {
      id: 'box',
      type: 'truck',
      name: 'Box truck 7.2 m with tail lift',
      length: 720,
      width: 245,
      height: 260,
      max_weight: 3000,
    },
  ],
  items: [
    {
      id: 'pallet',
      label: 'Euro pallet of tinned tomatoes, shrink-wrapped',
      length: 120,
      width: 80,
      height: 120,
      weight: 380,
      quantity: 7,
      color: '#4e79a7',
    },
    {
      id: 'mirror',
      label: 'Bathroom mirror, glass - do not stack',
      length: 90,
      width: 10,
      height: 70,
      weight: 18,
      quantity: 6,
      stackable: false,
      color: '#f28e2b',
    },
    { id: 'carton', label: 'Carton', length: 60, width: 40, height: 40, weight: 12.5, quantity: 24, color: '#76b7b2' },
  ],
  options: { time_limit: 3 },
};

/** The viewport sizes of the job page: tablet upright, laptop; the phone is printed, not held to 60 %. */
const JOB_PAGE_SIZES = [
  { width: 768, height: 1024, name: 'tablet' },
  { width: 1366, height: 768, name: 'laptop' },
] as const;

if (!existsSync(CHROMIUM)) {
  const reason = `no browser check of the viewer on devices: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('viewer on devices', { skip: reason });
} else {
  const run = inProcessService(t, 'viewer-devices');
  let browser: Browser;
  let job: any;
  let result: any;
  let cookie: { name: string; value: string };

  t.before(async () => {
    t.not(await ensureBuild(WEBAPP, 'stale'), 'missing', 'the web app is built');
    t.not(await ensureBuild(VIEWER, 'stale'), 'missing', 'the viewer is built');
    mkdirSync(SHOTS, { recursive: true });
    const org = await orgWithKey(run.service);
    const posted = await call(run.service.url, org.key, 'POST', '/v1/pack?wait=60', BODY);
    if (posted.body.status !== 'succeeded')
      throw new Error(`job did not succeed: ${JSON.stringify(posted.body).slice(0, 500)}`);
    job = posted.body;
    result = (await call(run.service.url, org.key, 'GET', `/v1/jobs/${job.id}/result`)).body;
    const member = await acceptedMember(run.service, org.orgId, 'tablet@acme.test', { role: 'owner' });
    const [name, ...value] = member.browser.cookie.split('=');
    cookie = { name: name!, value: value.join('=') };
    browser = await launchChromium({ webgl: true });
  });
  t.teardown(async () => {
    await browser?.close();
  });

  /** A signed-in browser context of `viewport` (with touch when asked), page errors collected. */
  async function signedIn(
    viewport: { width: number; height: number },
    touch = false,
  ): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const context = await browser.newContext({
      viewport,
      baseURL: run.service.url,
      ...(touch ? { hasTouch: true, isMobile: true } : {}),
    });
    await context.addCookies([{ ...cookie, url: run.service.url }]);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    return { context, page, problems };
  }

  /** The viewer link of the job on this service. */
  const viewerPath = (): string => job.viewer_url.replace(/^https?:\/\/[^/]+/, '');

  /** Waits until `frame` (a page or an iframe) has drawn its first frame, and until the next frame after that. */
  async function ready(t: Test, frame: Page | Frame): Promise<void> {
    await frame.waitForSelector('body[data-ready="1"], body[data-error]', { timeout: 60_000 });
    t.equal(await frame.getAttribute('body', 'data-error'), null, 'the viewer loaded the plan');
    await nextFrame(frame);
  }

  /** Two animation frames later: layout, resize observers and the frame they asked for are done. */
  const nextFrame = (frame: Page | Frame): Promise<unknown> =>
    frame.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))),
    );

  /** Serious and critical axe-core violations in `frame`, its own frames left out (the list of lesser ones is commented). */
  const axeFindings = async (t: Test, frame: Page | Frame, where: string): Promise<AxeFinding[]> =>
    (await axeCheck(t, frame, where, { iframes: false }))?.blocking ?? [];

  /** `frame`'s camera (window.planViewer). */
  const cameraOf = (frame: Page | Frame): Promise<CameraView> => frame.evaluate(() => window.planViewer!.camera());

  type Point = { x: number; y: number };
  /** Fingers down at `from`, moved in `steps` even steps to `to`, lifted: touch events as a touch screen sends them. */
  async function touchGesture(cdp: CDPSession, from: Point[], to: Point[], steps = 10): Promise<void> {
    const at = (s: number) =>
      from.map((p, i) => ({
        id: i,
        x: p.x + ((to[i]!.x - p.x) * s) / steps,
        y: p.y + ((to[i]!.y - p.y) * s) / steps,
        radiusX: 4,
        radiusY: 4,
        force: 1,
      }));
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (let s = 1; s <= steps; s++)
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(s) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }

  const moved = (a: number[], b: number[]): number => Math.hypot(...a.map((v, i) => v - b[i]!));

  t.test('the job page: the embedded viewer takes most of the window on a tablet and a laptop', async (t) => {
    const { context, page, problems } = await signedIn(JOB_PAGE_SIZES[0]);
    t.teardown(() => context.close());
    await page.goto(`/app/jobs/${job.id}`);
    const iframe = page.locator('iframe.pg-viewer');
    await iframe.waitFor({ timeout: 30_000 });
    const frame = (await (await iframe.elementHandle()).contentFrame())!;
    await ready(t, frame);

    for (const size of [...JOB_PAGE_SIZES, { width: 390, height: 844, name: 'phone' }]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.evaluate(() => window.scrollTo(0, 0));
      await nextFrame(frame);
      const figures = await page.locator('[data-field="items_placed"]').boundingBox();
      t.ok(
        figures && figures.y + figures.height <= size.height,
        `${size.name} ${size.width} × ${size.height}: the units placed are on the first screen (y ${figures?.y.toFixed(0)})`,
      );
      await iframe.scrollIntoViewIfNeeded();
      await nextFrame(frame);
      const box = (await iframe.boundingBox())!;
      const canvas = (await frame.locator('#scene').boundingBox())!;
      const drawn = await frame.$eval('#scene', (c) => ({
        width: (c as any).width as number,
        clientWidth: (c as any).clientWidth as number,
        height: (c as any).height as number,
        clientHeight: (c as any).clientHeight as number,
      }));
      const share = canvas.height / size.height;
      t.comment(
        `job page at ${size.width} × ${size.height}: iframe ${box.width.toFixed(0)} × ${box.height.toFixed(0)} px, its 3D view ${canvas.width.toFixed(0)} × ${canvas.height.toFixed(0)} px (${(share * 100).toFixed(0)} % of the window's height)`,
      );
      if (size.name !== 'phone') {
        t.ok(
          share >= 0.6,
          `${size.name}: the 3D view is at least 60 % of the window's height (${(share * 100).toFixed(0)} %)`,
        );
      } else {
        t.ok(share >= 0.35, `phone: the 3D view still has room (${(share * 100).toFixed(0)} % of the window's height)`);
      }
      t.ok(
        box.height <= size.height,
        `${size.name}: the iframe fits the window's height (${box.height.toFixed(0)} px)`,
      );
      t.ok(
        box.y >= 0 && box.y + box.height <= size.height + 1,
        `${size.name}: scrolled into view, the whole viewer is on screen`,
      );
      t.same(
        [drawn.width, drawn.height],
        [drawn.clientWidth, drawn.clientHeight],
        `${size.name}: the drawing follows the 3D view's size after the resize (${drawn.width} × ${drawn.height})`,
      );
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
      t.comment(`job page at ${size.width} px: page scroll width ${overflow} px`);
      if (size.name === 'tablet') await page.screenshot({ path: join(SHOTS, `job-768x1024.png`) });
      if (size.name === 'laptop') await page.screenshot({ path: join(SHOTS, `job-1366x768.png`) });
      if (size.name === 'phone') await page.screenshot({ path: join(SHOTS, `job-390x844.png`) });
      t.same(
        await axeFindings(t, page, `the job page at ${size.width} px`),
        [],
        `axe-core: no serious or critical violation on the job page at ${size.width} × ${size.height}`,
      );
      t.same(
        await axeFindings(t, frame, `the embedded viewer at ${size.width} px`),
        [],
        `axe-core: no serious or critical violation in the embedded viewer at ${size.width} × ${size.height}`,
      );
    }
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, `job-768x1024-top.png`) });
    const jobPicture = join(DOC_IMAGES, 'web-job-tablet.png');
    await page.screenshot({
      path: jobPicture,
      type: 'png',
      scale: 'css',
      clip: { x: 0, y: 0, width: 768, height: 1024 },
    });
    t.ok(
      statSync(jobPicture).size < PICTURE_LIMIT,
      `the README's job page picture stays under 150 KB (${statSync(jobPicture).size} B)`,
    );
    t.same(problems, [], 'no script errors');
  });

  t.test('the viewer alone on a phone: fits the width, drawers, touch orbit, pinch, pan and tap', async (t) => {
    const { context, page, problems } = await signedIn({ width: 390, height: 844 }, true);
    t.teardown(() => context.close());
    await page.goto(viewerPath());
    await ready(t, page);
    const scrollWidth = () =>
      page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
    t.ok((await scrollWidth()) <= 390, `nothing wider than the phone (scroll width ${await scrollWidth()} px)`);
    const canvas = (await page.locator('#scene').boundingBox())!;
    t.comment(
      `phone 390 × 844: 3D view ${canvas.width.toFixed(0)} × ${canvas.height.toFixed(0)} px (${((canvas.height / 844) * 100).toFixed(0)} % of the height)`,
    );
    t.ok(canvas.width <= 390 && canvas.height >= 0.5 * 844, 'the 3D view takes the width and at least half the height');
    await page.screenshot({ path: join(SHOTS, `phone-viewer.png`) });

    // Every control of the bar (those shown: the edit mode's stay hidden here) and every toggle is
    // on screen; each toggle opens its drawer inside the window.
    for (const control of await page.locator('#bar select:visible, #bar button:visible, #bar input:visible').all()) {
      const b = (await control.boundingBox())!;
      t.ok(
        b.x >= 0 && b.x + b.width <= 390 && b.y >= 0 && b.y + b.height <= 844,
        `${await control.evaluate((e) => (e as any).id)} is on screen`,
      );
    }
    const toggles = page.locator('#panel-toggles button');
    t.equal(await toggles.count(), 4, 'four panel toggles');
    for (const toggle of await toggles.all()) {
      const name = (await toggle.textContent())!;
      const b = (await toggle.boundingBox())!;
      t.ok(b.x >= 0 && b.x + b.width <= 390 && b.y >= 0 && b.y + b.height <= 844, `the "${name}" toggle is on screen`);
      t.ok(b.height >= 36, `the "${name}" toggle is big enough for a finger (${b.height.toFixed(0)} px)`);
      const panelId = (await toggle.getAttribute('aria-controls'))!;
      const panel = page.locator(`#${panelId}`);
      t.notOk(await panel.isVisible(), `${panelId} is closed`);
      await toggle.tap();
      t.equal(await toggle.getAttribute('aria-expanded'), 'true', `"${name}" opens ${panelId}`);
      t.ok(await panel.isVisible(), `${panelId} is shown`);
      const p = (await panel.boundingBox())!;
      t.ok(
        p.x >= 0 && p.x + p.width <= 390 + 0.5 && p.y >= 0 && p.y + p.height <= b.y + 0.5,
        `${panelId} lies inside the window, above the toggles`,
      );
      t.ok((await scrollWidth()) <= 390, `still nothing wider than the phone with ${panelId} open`);
      if (panelId === 'panel-legend') {
        await page.screenshot({ path: join(SHOTS, `phone-viewer-legend.png`) });
        const phonePicture = join(DOC_IMAGES, 'viewer-phone.png');
        await page.screenshot({ path: phonePicture });
        t.ok(
          statSync(phonePicture).size < PICTURE_LIMIT,
          `the README's phone picture stays under 150 KB (${statSync(phonePicture).size} B)`,
        );
        t.same(
          await axeFindings(t, page, 'the phone viewer with the legend open'),
          [],
          'axe-core: no serious or critical violation with the legend open',
        );
      }
      if (panelId === 'weight') {
        await nextFrame(page);
        await page.screenshot({ path: join(SHOTS, `phone-viewer-weight.png`) });
        t.ok(
          Number(await page.locator('#weight-chart').getAttribute('data-sections')) > 0,
          'the weight diagram is drawn',
        );
      }
      await toggle.tap();
      t.equal(await toggle.getAttribute('aria-expanded'), 'false', `"${name}" again closes it`);
      t.notOk(await panel.isVisible(), `${panelId} is hidden again`);
    }
    t.same(
      await axeFindings(t, page, 'the phone viewer'),
      [],
      'axe-core: no serious or critical violation on the viewer at 390 × 844',
    );

    // The keyboard: Enter on a toggle opens its drawer and moves the focus into it, Esc closes it and gives the focus back.
    const legendToggle = page.locator('#panel-toggles button[aria-controls="panel-legend"]');
    await legendToggle.focus();
    await page.keyboard.press('Enter');
    t.equal(await legendToggle.getAttribute('aria-expanded'), 'true', 'Enter on the Legend toggle opens the legend');
    t.equal(
      await page.evaluate(() => (globalThis as any).document.activeElement.id),
      'panel-legend',
      'the legend drawer has the focus',
    );
    await page.keyboard.press('Tab');
    t.equal(
      await page.evaluate(() => (globalThis as any).document.activeElement.id),
      'legend',
      'Tab goes on to the list inside it',
    );
    await page.keyboard.press('Escape');
    t.equal(await legendToggle.getAttribute('aria-expanded'), 'false', 'Esc closes it');
    t.equal(
      await page.evaluate(() => (globalThis as any).document.activeElement.getAttribute('aria-controls')),
      'panel-legend',
      'and the focus is back on its toggle',
    );

    // Touch: one finger orbits, a pinch zooms, two fingers moving together pan.
    const cdp = await context.newCDPSession(page);
    const mid = { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 };
    const before = await cameraOf(page);
    await touchGesture(cdp, [mid], [{ x: mid.x + 120, y: mid.y + 40 }]);
    const orbited = await cameraOf(page);
    t.ok(
      moved(orbited.position, before.position) > 10,
      `a one-finger drag moves the camera (${moved(orbited.position, before.position).toFixed(0)} cm)`,
    );
    t.ok(Math.abs(orbited.distance - before.distance) < 1, 'around the same target, at the same distance');
    t.same(orbited.target, before.target, 'the target stays');

    await touchGesture(
      cdp,
      [
        { x: mid.x - 30, y: mid.y },
        { x: mid.x + 30, y: mid.y },
      ],
      [
        { x: mid.x - 130, y: mid.y },
        { x: mid.x + 130, y: mid.y },
      ],
    );
    const pinched = await cameraOf(page);
    t.ok(
      pinched.distance < orbited.distance * 0.8,
      `spreading two fingers zooms in (distance ${orbited.distance.toFixed(0)} → ${pinched.distance.toFixed(0)} cm)`,
    );
    await touchGesture(
      cdp,
      [
        { x: mid.x - 100, y: mid.y },
        { x: mid.x + 100, y: mid.y },
      ],
      [
        { x: mid.x - 40, y: mid.y },
        { x: mid.x + 40, y: mid.y },
      ],
    );
    const squeezed = await cameraOf(page);
    t.ok(
      squeezed.distance > pinched.distance * 1.2,
      `pinching zooms out (distance ${pinched.distance.toFixed(0)} → ${squeezed.distance.toFixed(0)} cm)`,
    );

    await touchGesture(
      cdp,
      [
        { x: mid.x - 40, y: mid.y },
        { x: mid.x + 40, y: mid.y },
      ],
      [
        { x: mid.x - 40, y: mid.y + 100 },
        { x: mid.x + 40, y: mid.y + 100 },
      ],
    );
    const panned = await cameraOf(page);
    t.ok(
      moved(panned.target, squeezed.target) > 10,
      `a two-finger drag pans (target moved ${moved(panned.target, squeezed.target).toFixed(0)} cm)`,
    );

    // Back to the whole load; a two-finger tap picks nothing, a one-finger tap picks the unit under it.
    // (A click: Chromium may take a tap right after a fast synthetic gesture for the end of a fling and drop it.)
    await page.locator('#reset-view').click();
    await nextFrame(page);
    const reset = await cameraOf(page);
    t.ok(
      moved(reset.position, before.position) < 1 && Math.abs(reset.distance - before.distance) < 1,
      'Reset view brings the camera back',
    );
    const vehicle = result.vehicles[0];
    const target = vehicle.placements.reduce((a: any, b: any) => (b.step > a.step ? b : a));
    const point = (await page.evaluate(
      ([item, instance]) => window.planViewer!.screenPoint(item as string, instance as number),
      [target.item_id, target.instance],
    ))!;
    t.ok(
      point && point.x > 0 && point.x < 390 && point.y > canvas.y && point.y < canvas.y + canvas.height,
      `the last unit loaded is on screen (${JSON.stringify(point)} in ${JSON.stringify(canvas)})`,
    );
    await touchGesture(cdp, [point, { x: point.x + 50, y: point.y }], [point, { x: point.x + 50, y: point.y }], 1);
    await nextFrame(page);
    t.equal(await page.getAttribute('#details', 'data-instance'), '', 'a two-finger tap picks nothing');
    await touchGesture(cdp, [point], [point], 1);
    await page.waitForSelector('#details[data-instance]:not([data-instance=""])', { timeout: 10_000 });
    const picked = {
      item: await page.getAttribute('#details', 'data-item'),
      instance: await page.getAttribute('#details', 'data-instance'),
    };
    t.ok(
      vehicle.placements.some((p: any) => p.item_id === picked.item && String(p.instance) === picked.instance),
      `a tap picks a unit of the vehicle (${picked.item} #${picked.instance})`,
    );
    t.equal(await page.getAttribute('body', 'data-drawer'), 'panel-details', 'and opens its details');
    t.ok(await page.locator('#panel-details').isVisible(), 'the details are shown');
    await page.screenshot({ path: join(SHOTS, `phone-viewer-details.png`) });
    t.same(
      await axeFindings(t, page, 'the phone viewer with a unit picked'),
      [],
      'axe-core: no serious or critical violation with the details open',
    );
    await page.keyboard.press('Escape');
    t.equal(await page.getAttribute('body', 'data-drawer'), null, 'Esc closes the drawer');

    // Held sideways.
    await page.setViewportSize({ width: 844, height: 390 });
    await nextFrame(page);
    const wide = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
    t.ok(wide <= 844, `sideways: nothing wider than the phone (${wide} px)`);
    const side = (await page.locator('#scene').boundingBox())!;
    t.comment(
      `phone sideways 844 × 390: 3D view ${side.width.toFixed(0)} × ${side.height.toFixed(0)} px (${((side.height / 390) * 100).toFixed(0)} % of the height)`,
    );
    t.ok(side.height >= 0.5 * 390, 'sideways: the 3D view is at least half the height');
    const turned = (await page.evaluate(
      ([item, instance]) => window.planViewer!.screenPoint(item as string, instance as number),
      [target.item_id, target.instance],
    ))!;
    t.ok(
      turned.x > side.x && turned.x < side.x + side.width && turned.y > side.y && turned.y < side.y + side.height,
      'turned sideways, the load is framed again: the last unit is on screen',
    );
    await page.screenshot({ path: join(SHOTS, `phone-sideways.png`) });
    for (const toggle of await toggles.all()) {
      const b = (await toggle.boundingBox())!;
      t.ok(
        b.x >= 0 && b.x + b.width <= 844 && b.y >= 0 && b.y + b.height <= 390,
        `sideways: the "${await toggle.textContent()}" toggle is on screen`,
      );
    }
    await page.locator('#panel-toggles button[aria-controls="panel-legend"]').tap();
    const legend = (await page.locator('#panel-legend').boundingBox())!;
    t.ok(
      legend.x >= 0 && legend.x + legend.width <= 844 && legend.y >= 0 && legend.y + legend.height <= 390.5,
      'sideways: the legend drawer lies inside the window',
    );
    await page.screenshot({ path: join(SHOTS, `phone-sideways-legend.png`) });
    t.same(
      await axeFindings(t, page, 'the phone viewer held sideways'),
      [],
      'axe-core: no serious or critical violation sideways, the legend open',
    );
    t.same(problems, [], 'no script errors');
  });
}
