/**
 * The viewer's edit mode in a real browser (plan editing): headless Chromium (Debian's, driven by
 * playwright-core, WebGL by SwiftShader) against the real service in process. An owner signs in
 * (the invitation accepted, the session cookie in the browser); a job of non-stackable crates is
 * solved; its signed viewer link:
 * - opened without a session stays read-only (no edit controls);
 * - opened signed in offers "Edit plan": a unit dragged onto a crate's top is shown invalid with
 *   the verifier's reason beside it (rule `stacking`), dragged to the free floor by the door it is
 *   valid, Ctrl+Z / Redo take it back and forth, "Save as revision" posts the two moves with the
 *   session's CSRF token and opens revision 1, whose Result has the unit where it was dropped;
 * - the words a planner reads (1440 × 900 and 1024 × 768): a pallet put on a non-stackable one
 *   through the roof lists both problems under the status line that counts them, naming
 *   "Vehicle 1" and the pallets by label, figures rounded ("320 cm"), no JSON path; "Save as
 *   revision" is disabled with its reason beside it; a 422 lists each problem by the unit its
 *   operation moved;
 * - inside the web app's job page (the viewer in its frame) "Re-plan from step K" posts a job
 *   whose request pins the units loaded up to step K, and the web app opens it.
 * Measured and printed (not asserted): time from a drop to the red / green frame on a 500-unit
 * plan and the browser's check of a 2,000-unit plan (plans served in place of the job's, with
 * their model). axe-core checks the page in edit mode. Screenshots go to test-artifacts/plan-edit/.
 *   npx tap test/browser/plan-edit.test.ts
 */
import t from 'tap';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { VIEWER, WEBAPP, ensureBuild } from '../../scripts/front-end-builds.js';
import { inProcessService } from '../helpers/in-process-service.js';
import { browserCall, orgWithOwnerInvitation, type Browser as Session } from '../helpers/web-session.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { untilJob } from '../helpers/job-state.js';
import { axeCheck } from '../helpers/axe.js';
import { item } from '../solver/verify/plan-fixture.js';
import { planFromLayout, type LayoutUnit } from '../../solver/edit/layout.js';
import { viewerPlan, type ViewerPlan } from '../../api/http/plan-viewer/viewer-plan.js';
import type { PackModel } from '../../domain/pack/plan.js';

// What the callbacks run in the page touch (the root tsconfig has no DOM lib).
interface PageElement {
  value: string;
  dataset: Record<string, string | undefined>;
  dispatchEvent(event: unknown): boolean;
}
declare const document: { body: PageElement };
declare const window: {
  planViewer?: {
    screenPoint(itemId: string, instance: number): { x: number; y: number } | null;
    screenOf(x: number, y: number, z: number): { x: number; y: number };
    unitAt(x: number, y: number): { item_id: string; instance: number } | null;
  };
  innerWidth: number;
  innerHeight: number;
};
declare const Event: new (type: string, init?: { bubbles?: boolean }) => unknown;

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/plan-edit/', import.meta.url));

/** Text as read: without the isolates (FSI, PDI) around item labels. */
const plain = (text: string | null): string => (text ?? '').replace(/[\u2068\u2069]/g, '');

/** Non-stackable crates and two cartons in a 6 m box truck: the plan leaves the door end free. */
const REQUEST = {
  reference: 'plan edit',
  vehicles: [{ id: 'truck', type: 'truck', name: 'Box truck', length: 600, width: 240, height: 220, max_weight: 3000 }],
  items: [
    { id: 'crate', label: 'Crate', length: 80, width: 60, height: 50, weight: 40, quantity: 4, stackable: false },
    { id: 'carton', label: 'Carton', length: 50, width: 40, height: 30, weight: 10, quantity: 2 },
  ],
  options: { packing_mode: 'fleet_only', time_limit: 2 },
};

if (!existsSync(CHROMIUM)) {
  const reason = `no browser check of the viewer's edit mode: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('edit mode in a browser', { skip: reason });
} else {
  const run = inProcessService(t, 'plan-edit');
  let browser: Browser;
  let owner: Session;
  let job: any;
  let result: any;

  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await browserCall(run.service.url, owner, method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const local = (url: string): string => url.replace(/^https?:\/\/[^/]+/, run.service.url);

  t.before(async () => {
    t.not(await ensureBuild(VIEWER, 'stale'), 'missing', 'the viewer is built');
    t.not(await ensureBuild(WEBAPP, 'stale'), 'missing', 'the web app is built');
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium({ webgl: true });
    const org = await orgWithOwnerInvitation(run.service, 'Edit Co', 'owner@edit.example');
    const accepted = await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${org.token}/accept`, {
      name: 'Olga',
      password: 'correct horse battery staple',
    });
    if (accepted.status !== 200) throw new Error(`accept: ${accepted.status}`);
    owner = { cookie: accepted.headers.get('set-cookie')!.split(';')[0]!, csrf: accepted.body.csrf_token };
    job = await api('POST', '/v1/pack?wait=60', REQUEST);
    if (job.status !== 'succeeded') throw new Error(`job: ${JSON.stringify(job).slice(0, 400)}`);
    result = await api('GET', `/v1/jobs/${job.id}/result`);
  });
  t.teardown(async () => {
    await browser?.close();
  });

  /** A browser context, signed in as the owner (the session cookie) unless `signedIn` is false. */
  async function context(signedIn = true, viewport = { width: 1280, height: 820 }): Promise<BrowserContext> {
    // bypassCSP: axe-core's script is added to a page whose policy allows only its own scripts.
    const c = await browser.newContext({ viewport, baseURL: run.service.url, bypassCSP: true });
    if (signedIn) {
      const [name, value] = owner.cookie.split('=') as [string, string];
      await c.addCookies([{ name, value, url: run.service.url }]);
    }
    return c;
  }

  /**
   * Opens a viewer link in `c`, from the web app's job page (its referrer) unless `fromApp` is
   * false; waits until the plan is drawn and the edit question settled.
   */
  async function openViewer(
    c: BrowserContext,
    url: string,
    plan?: ViewerPlan,
    fromApp = true,
  ): Promise<{ page: Page; problems: string[] }> {
    const page = await c.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    if (plan) await page.route('**/plan.json?*', (route) => route.fulfill({ json: plan }));
    await page.goto(local(url), fromApp ? { referer: `${run.service.url}/app/jobs/${job.id}` } : {});
    await page.waitForSelector('body[data-ready="1"][data-edit-access]', { timeout: 60_000 });
    return { page, problems };
  }

  const dataset = (page: Page | Frame): Promise<Record<string, string>> =>
    page.evaluate(() => ({ ...document.body.dataset }) as Record<string, string>);
  const unitPoint = (page: Page, itemId: string, instance: number): Promise<{ x: number; y: number }> =>
    page.evaluate(([i, n]) => window.planViewer!.screenPoint(i, n)!, [itemId, instance] as const);
  const planPoint = (page: Page, x: number, y: number, z: number): Promise<{ x: number; y: number }> =>
    page.evaluate(([a, b, c]) => window.planViewer!.screenOf(a!, b!, c!), [x, y, z]);

  /** The units whose top-face middle shows on screen (a press there takes that unit). */
  async function visibleTops(page: Page, placements: any[]): Promise<any[]> {
    const seen: any[] = [];
    for (const p of placements) {
      const at = await unitPoint(page, p.item_id, p.instance);
      const hit = await page.evaluate(([x, y]) => window.planViewer!.unitAt(x!, y!), [at.x, at.y]);
      if (hit && hit.item_id === p.item_id && hit.instance === p.instance) seen.push(p);
    }
    return seen;
  }

  /** Presses at `from`, moves to `to` in small steps and lets go: a drag as a hand makes it. */
  async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 12 });
    await page.mouse.up();
  }

  t.test('the signed link stays read-only: opened elsewhere, or without a session', async (t) => {
    // Signed in, but the link opened from outside the web app (an e-mail): nothing is asked.
    const signedIn = await context();
    const asked: string[] = [];
    signedIn.on('request', (r) => {
      if (!r.url().includes('/viewer/')) asked.push(r.url());
    });
    const outside = await openViewer(signedIn, job.viewer_url, undefined, false);
    t.equal((await dataset(outside.page))['editAccess'], 'none');
    t.equal(await outside.page.isVisible('#edit'), false, 'no Edit button');
    t.same(asked, [], 'no session call');
    t.same(outside.problems, []);
    await signedIn.close();

    // From the web app, without a session: asked, answered 401, read-only.
    const c = await context(false);
    const { page, problems } = await openViewer(c, job.viewer_url);
    t.equal((await dataset(page))['editAccess'], 'none');
    t.equal(await page.isVisible('#edit'), false, 'no Edit button');
    t.equal(await page.isVisible('#replan'), false, 'no re-plan button');
    t.same(
      problems.filter((p) => !p.includes('status of 401')),
      [],
      'nothing but the session answer 401',
    );
    await c.close();
  });

  t.test(
    'signed in: drag onto a crate → invalid with the reason; to the floor → valid; undo, redo, save',
    async (t) => {
      const placements: any[] = result.vehicles[0].placements;
      const free = Math.max(...placements.map((p: any) => p.x + p.length));
      t.ok(600 - free >= 150, `the door end is free from x ${free} cm`);

      const c = await context();
      const { page, problems } = await openViewer(c, job.viewer_url);
      // A crate to put a unit on, and the last loaded other unit: both with their tops in sight.
      const seen = await visibleTops(page, placements);
      const under = seen.find((p) => p.item_id === 'crate')!;
      const moved = seen.filter((p) => p !== under).sort((a, b) => b.step - a.step)[0]!;
      t.ok(under && moved, `moving ${moved.item_id}#${moved.instance} onto crate#${under.instance}`);
      t.equal((await dataset(page))['editAccess'], 'granted', 'the owner may edit');
      t.equal((await dataset(page))['valid'], '1', 'the solved plan checks valid in the browser');
      await page.click('#edit');
      await page.waitForSelector('body[data-editing="1"]');
      t.equal(await page.getAttribute('#edit', 'aria-pressed'), 'true');

      // Onto the middle of a crate's top: it rests on a crate that carries nothing.
      await drag(
        page,
        await unitPoint(page, moved.item_id, moved.instance),
        await unitPoint(page, 'crate', under.instance),
      );
      await page.waitForSelector('body[data-operations="1"] #unit-problem[data-state="invalid"]');
      const label = plain(await page.textContent('#unit-problem'));
      t.match(
        label,
        /rests on Crate #\d+ in Vehicle 1 .* but Crate is not stackable\. \(rule stacking\)$/,
        `beside the unit: ${label}`,
      );
      t.equal(await page.getAttribute('#unit-problem', 'data-rule'), 'stacking');
      t.match(await page.textContent('#check-status'), /^Plan invalid, \d+ problems?:$/);
      t.match(plain(await page.textContent('#check-problems')), /not stackable/, 'listed under the status');
      t.equal(await page.isDisabled('#save'), true, 'not saved while invalid');
      t.equal((await dataset(page))['valid'], '0');
      await page.screenshot({ path: join(ARTIFACTS, 'invalid.png') });
      const a11y = await axeCheck(t, page, 'the viewer in edit mode, a unit invalid');
      t.same(a11y?.blocking, [], `edit mode: no serious or critical axe-core finding (${a11y?.passed} rules passed)`);

      // To the free floor by the door: valid.
      const target = { x: (free + 600) / 2, z: 120 };
      const onCrate = await unitPoint(page, moved.item_id, moved.instance);
      await drag(page, onCrate, await planPoint(page, target.x, 0, target.z));
      await page.waitForSelector('body[data-operations="2"] #unit-problem[data-state="valid"]');
      t.equal(await page.textContent('#unit-problem'), 'Valid: every rule holds');
      t.match(
        await page.textContent('#check-status'),
        /^Plan valid: every rule holds \(2 changes; checked in [\d.]+ ms\)\.$/,
      );
      await page.screenshot({ path: join(ARTIFACTS, 'valid.png') });

      // Undo with the keyboard, redo with the button.
      await page.keyboard.press('Control+z');
      await page.waitForSelector('body[data-operations="1"][data-valid="0"]');
      t.pass('Ctrl+Z: one change, invalid again');
      await page.click('#redo');
      await page.waitForSelector('body[data-operations="2"][data-valid="1"]');
      t.pass('Redo: two changes, valid');

      // Save as revision: the two moves, with the CSRF header.
      const posted = page.waitForRequest((r) => r.method() === 'POST' && /\/v1\/jobs\/[^/]+\/revisions$/.test(r.url()));
      await page.click('#save');
      const request = await posted;
      t.equal(request.headers()['x-csrf-token'], owner.csrf, "the session's CSRF token");
      const sent = request.postDataJSON();
      t.equal(sent.base_revision, 0);
      t.equal(sent.operations.length, 2);
      t.same(
        sent.operations.map((o: any) => [o.op, o.item_id, o.instance, o.vehicle, o.orientation]),
        [
          ['move', moved.item_id, moved.instance, 0, moved.orientation],
          ['move', moved.item_id, moved.instance, 0, moved.orientation],
        ],
      );
      t.equal(sent.operations[0].y, under.y + under.height, 'first onto the crate top');
      const last = sent.operations[1];
      t.equal(last.y, 0, 'then on the floor');
      t.ok(last.x >= free && last.x + moved.length <= 600, `by the door: x ${last.x}`);

      // The service keeps it as revision 1 and the viewer opens it.
      await page.waitForSelector('body[data-ready="1"][data-revision="1"]', { timeout: 60_000 });
      t.match(await page.textContent('#title'), /revision 1$/);
      const revised = await api('GET', `/v1/jobs/${job.id}/result?revision=1`);
      const now = revised.vehicles[0].placements.find(
        (p: any) => p.item_id === moved.item_id && p.instance === moved.instance,
      );
      t.same([now.x, now.y, now.z], [last.x, last.y, last.z], 'revision 1 has the unit where it was dropped');
      t.same(problems, []);
      await c.close();
    },
  );

  t.test('save answers: 422 lists the problems, 409 offers the latest revision', async (t) => {
    const revised = await api('GET', `/v1/jobs/${job.id}/result?revision=1`);
    const c = await context();

    // On revision 1, the latest: a unit put on a crate is not offered for saving.
    const latest = await openViewer(c, revised.viewer_url);
    t.equal((await dataset(latest.page))['revision'], '1');
    await latest.page.click('#edit');
    await latest.page.waitForSelector('body[data-editing="1"]');
    const seen = await visibleTops(latest.page, revised.vehicles[0].placements);
    const under = seen.find((p) => p.item_id === 'crate')!;
    const moved = seen.find((p) => p !== under && p.length <= under.length && p.width <= under.width)!;
    await drag(
      latest.page,
      await unitPoint(latest.page, moved.item_id, moved.instance),
      await unitPoint(latest.page, 'crate', under.instance),
    );
    await latest.page.waitForSelector('body[data-operations="1"][data-valid="0"]');
    t.equal(await latest.page.isDisabled('#save'), true, 'Save as revision is disabled');
    t.match(await latest.page.textContent('#save-reason'), /^Fix the \d+ problems? to save\.$/);

    // A valid change the service still refuses (answered here as the service words a 422): each
    // problem is named by the unit its operation moved, in words, without a path.
    await latest.page.keyboard.press('Control+z');
    await latest.page.waitForSelector('body[data-operations="0"]');
    // Esc: no unit picked, so `[` picks the last loaded one (nothing rests on it).
    await latest.page.keyboard.press('Escape');
    await latest.page.keyboard.press('[');
    await latest.page.keyboard.press('Delete');
    await latest.page.waitForSelector('body[data-operations="1"][data-valid="1"]');
    const last = [...revised.vehicles[0].placements].sort((a: any, b: any) => b.step - a.step)[0];
    const refused = [
      {
        path: 'operations[0]',
        code: 'stacking',
        message: `${moved.item_id}#${moved.instance} rests on crate#${under.instance} in vehicle 0 (2399.99 cm² of its top at y = 50.00004 cm), but item crate is not stackable.`,
      },
      {
        path: 'result',
        code: 'weight',
        message:
          'Vehicle 0 carries 3000.456 kg; its max_weight is 3000 kg (0.456 kg over) and overweight is not allowed.',
      },
    ];
    await latest.page.route('**/v1/jobs/*/revisions', (route) =>
      route.fulfill({
        status: 422,
        json: { error: { code: 'validation_failed', message: 'The edited plan is not valid', details: refused } },
      }),
    );
    await latest.page.click('#save');
    await latest.page.waitForSelector('body[data-saved="invalid"] #edit-message:not([hidden])');
    const details = (
      await latest.page.$$eval('#edit-message li', (lis) =>
        lis.map((li) => (li as unknown as PageElement & { textContent: string }).textContent),
      )
    ).map(plain);
    const name = (id: string) => (id === 'crate' ? 'Crate' : 'Carton');
    t.same(
      details,
      [
        `Taking out ${name(last.item_id)} #${last.instance}: ${name(moved.item_id)} #${moved.instance} rests on Crate #${under.instance} in Vehicle 1 (2,400 cm² of its top at a height of 50 cm), but Crate is not stackable. (rule stacking)`,
        'Vehicle 1 carries 3,000.5 kg; its maximum weight is 3,000 kg (0.5 kg over) and overweight is not allowed. (rule weight)',
      ],
      'each problem in words, named by the deed',
    );
    const said = plain(await latest.page.textContent('#edit-message'));
    t.match(said, /^Not saved: the plan breaks a rule \(2 problems\):/);
    t.notMatch(said, /operations\[|vehicle 0/, 'no JSON path, no 0-based vehicle');
    await latest.page.unrouteAll();

    // On revision 0 while revision 1 exists: a change does not save (409); the latest opens.
    const old = await openViewer(c, job.viewer_url);
    await old.page.click('#edit');
    await old.page.waitForSelector('body[data-editing="1"]');
    // `[` picks the last loaded unit (nothing rests on it), Delete takes it out: a valid change.
    await old.page.keyboard.press('[');
    await old.page.keyboard.press('Delete');
    await old.page.waitForSelector('body[data-operations="1"][data-valid="1"]');
    await old.page.click('#save');
    await old.page.waitForSelector('body[data-saved="conflict"] #edit-message button');
    t.match(
      await old.page.textContent('#edit-message'),
      /^Not saved: someone saved a newer revision of this plan first/,
    );
    await old.page.click('#edit-message button');
    await old.page.waitForSelector('body[data-ready="1"][data-revision="1"]', { timeout: 60_000 });
    t.pass('"Open the latest revision" opened revision 1');
    await c.close();
  });

  t.test('inside the web app: Re-plan from step K opens a job with the first K units pinned', async (t) => {
    const c = await context(true, { width: 1280, height: 900 });
    const page = await c.newPage();
    await page.goto(`/app/jobs/${job.id}`);
    const frameElement = await page.waitForSelector('iframe.pg-viewer');
    const frame = (await frameElement.contentFrame())!;
    await frame.waitForSelector('body[data-ready="1"][data-edit-access="granted"]', { timeout: 60_000 });
    const k = 2;
    await frame.$eval(
      '#step',
      (el, s) => {
        const input = el as unknown as PageElement;
        input.value = String(s);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      },
      k,
    );
    t.equal(await frame.textContent('#replan'), `Re-plan from step ${k}`);
    // No billed start without its price: the viewer shows "at most N credits" and waits.
    const jobsBefore = (await api('GET', '/v1/jobs?limit=100')).data.length;
    await frame.click('#replan');
    const offer = await frame.waitForSelector('body[data-replan-price] #edit-message:not([hidden])');
    const price = Number(await frame.getAttribute('body', 'data-replan-price'));
    t.match(
      await offer.textContent(),
      new RegExp(
        `^Re-plan from step ${k} starts a new job, billed like any job: at most ${price} credits, reserved until it ends \\(available: [\\d.]+ credits\\)\\.Start the re-plan \\(at most ${price} credits\\)Cancel$`,
      ),
      'the price before the start',
    );
    await frame.click('#edit-message button:text-is("Cancel")');
    await frame.waitForSelector('#edit-message', { state: 'hidden' });
    t.equal((await api('GET', '/v1/jobs?limit=100')).data.length, jobsBefore, 'Cancel starts no job');
    await frame.click('#replan');
    await frame.waitForSelector('#edit-message:not([hidden]) button:has-text("Start the re-plan")');
    await frame.click('#edit-message button:has-text("Start the re-plan")');
    // The web app opens the new job; a failure shows in the viewer's message instead (the offer
    // stays in that message until one or the other: only the failure's own words count).
    const outcome = await Promise.race([
      page
        .waitForURL((u) => /\/app\/jobs\/job_/.test(u.pathname) && !u.pathname.endsWith(job.id), { timeout: 60_000 })
        .then(() => 'opened'),
      frame
        .waitForSelector('#edit-message:not([hidden]):has-text("The re-plan failed")', { timeout: 60_000 })
        .then(async () => `failed: ${await frame.textContent('#edit-message')}`)
        // The frame goes with the page it was on once the new job opens: no answer from here then.
        .catch(() => new Promise<string>(() => undefined)),
    ]);
    t.equal(outcome, 'opened', 'the web app opened the new job');
    const newId = page.url().split('/').pop()!;
    const replanned = await api('GET', `/v1/jobs/${newId}?include=request`);
    t.equal(
      replanned.reference,
      'plan edit',
      "the planner's own reference is kept (domain/job/provenance.ts; one without gets its parent's name)",
    );
    const estimate = await api('POST', '/v1/estimate', replanned.request);
    t.equal(price, estimate.estimated_cost.max_credits, 'the price shown is the estimate of the request it started');
    const pinned = replanned.request.vehicles[0].loaded;
    const firstK = result.vehicles[0].placements.filter((p: any) => p.step <= k);
    t.same(
      pinned.map((u: any) => [u.item_id, u.x, u.y, u.z, u.orientation, u.copy]),
      firstK.map((p: any) => [p.item_id, p.x, p.y, p.z, p.orientation, 1]),
      'the request pins the units of steps 1..K',
    );
    await untilJob(run.service.services, newId, 'finished', (j) => j.status !== 'queued' && j.status !== 'running');
    const again = await api('GET', `/v1/jobs/${newId}/result`);
    const placed = again.vehicles[0].placements.filter((p: any) => p.step <= k);
    t.same(
      placed.map((p: any) => [p.item_id, p.x, p.y, p.z, p.orientation]),
      firstK.map((p: any) => [p.item_id, p.x, p.y, p.z, p.orientation]),
      'the new plan loads them first, where they were',
    );
    await c.close();
  });

  t.test(
    'the words a planner reads (1440 × 900, 1024 × 768): Vehicle 1, rounded figures, every problem, Save disabled',
    async (t) => {
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 1024, height: 768 },
      ]) {
        const size = `${viewport.width} × ${viewport.height}`;
        const c = await context(true, viewport);
        const { page, problems } = await openViewer(c, job.viewer_url, palletPlan(job));
        t.equal((await dataset(page))['editAccess'], 'granted', `${size}: the owner may edit`);
        await page.click('#edit');
        await page.waitForSelector('body[data-editing="1"]');
        const tops = await visibleTops(page, [
          { item_id: 'pallet', instance: 1 },
          { item_id: 'pallet', instance: 2 },
        ]);
        t.equal(tops.length, 2, `${size}: both pallet tops in sight`);
        // Pallet 2 onto pallet 1 (not stackable): its top at 159.9946 + 159.9946 cm, through the 250 cm roof.
        await drag(page, await unitPoint(page, 'pallet', 2), await unitPoint(page, 'pallet', 1));
        await page.waitForSelector('body[data-operations="1"][data-valid="0"] #check-problems li');

        const status = (await page.textContent('#check-status')) ?? '';
        const count = Number(/^Plan invalid, (\d+) problems?:$/.exec(status)?.[1]);
        const listed = (
          await page.$$eval('#check-problems li', (lis) =>
            lis.map((li) => (li as unknown as { textContent: string }).textContent),
          )
        ).map(plain);
        t.equal(count, 2, `${size}: the status counts two problems: ${status}`);
        t.equal(listed.length, count, `${size}: every problem the status counts is listed`);
        t.same(
          [...listed].sort(),
          [
            "Pallet #2 in Vehicle 1: its top is at 320 cm, 70 cm above the vehicle's height of 250 cm. (rule bounds)",
            'Pallet #2 rests on Pallet #1 in Vehicle 1 (9,600 cm² of its top at a height of 160 cm), but Pallet is not stackable. (rule stacking)',
          ],
          `${size}: each problem in words: ${listed.join(' | ')}`,
        );
        const label = plain(await page.textContent('#unit-problem'));
        t.match(label, /^Pallet #2 .*Vehicle 1/, `${size}: beside the unit: ${label}`);
        const read = [status, ...listed, label, (await page.textContent('#save-reason')) ?? ''].join('\n');
        t.notMatch(
          read,
          /operations\[|[Vv]ehicle 0|\d\.\d{2,}|pallet#/,
          `${size}: no path, no 0-based vehicle, no raw figure`,
        );

        t.equal(await page.isDisabled('#save'), true, `${size}: Save as revision is disabled`);
        t.equal(await page.textContent('#save-reason'), 'Fix the 2 problems to save.', `${size}: the reason beside it`);
        t.equal(await page.getAttribute('#save', 'aria-describedby'), 'save-reason');
        for (const selector of ['#check-status', '#check-problems', '#save', '#save-reason']) {
          const box = await page.locator(selector).boundingBox();
          t.ok(
            box &&
              (await page.isVisible(selector)) &&
              box.x >= 0 &&
              box.y >= 0 &&
              box.x + box.width <= viewport.width &&
              box.y + box.height <= viewport.height,
            `${size}: ${selector} is visible inside the window (${JSON.stringify(box)})`,
          );
        }
        await page.screenshot({ path: join(ARTIFACTS, `words-${viewport.width}.png`) });
        const a11y = await axeCheck(t, page, `edit mode with its problems listed, ${size}`);
        t.same(a11y?.blocking, [], `${size}: no serious or critical axe-core finding`);

        // Undone: valid again, nothing listed, the reason gone.
        await page.keyboard.press('Control+z');
        await page.waitForSelector('body[data-operations="0"][data-valid="1"]');
        t.equal(await page.isVisible('#check-problems'), false, `${size}: no problem listed`);
        t.equal(await page.isVisible('#save-reason'), false, `${size}: no reason shown`);
        t.same(problems, []);
        await c.close();
      }
    },
  );

  t.test('measured: drop to red / green on 500 units, the check of 2,000 units', async (t) => {
    const c = await context();
    // 500 cartons 60 × 24 × 50 in a 10 × 10 × 5 block (x 0..600, top at 250 cm) in a 12 m trailer.
    const five = gridPlan(job, 10, 10, 5, { length: 60, width: 24, height: 50 }, 1200);
    const { page, problems } = await openViewer(c, job.viewer_url, five);
    t.equal((await dataset(page))['editAccess'], 'granted');
    await page.click('#edit');
    await page.waitForSelector('body[data-editing="1"]');
    const top = 10 * 10 * 4 + 10 * 9 + 5 + 1; // layer 5, door-side row, middle: x 540, z 120, y 200
    await drag(page, await unitPoint(page, 'carton', top), await planPoint(page, 900, 0, 120));
    await page.waitForSelector('body[data-operations="1"][data-valid="1"][data-drop-ms]');
    const toGreen = await dataset(page);
    // Back onto the block's top: 250 + 50 cm > 270 cm, through the roof.
    await page.evaluate(() => delete document.body.dataset['dropMs']);
    await drag(page, await unitPoint(page, 'carton', top), await unitPoint(page, 'carton', 10 * 10 * 4 + 1));
    await page.waitForSelector('body[data-operations="2"][data-valid="0"][data-drop-ms]');
    const toRed = await dataset(page);
    t.match(await page.textContent('#unit-problem'), /\(rule bounds\)$/);
    t.comment(
      `500 units: drop → green frame ${toGreen['dropMs']} ms (check ${toGreen['checkMs']} ms); drop → red frame ${toRed['dropMs']} ms (check ${toRed['checkMs']} ms); headless chromium, SwiftShader`,
    );
    t.same(problems, []);
    await page.close();

    // 2,000 cartons 60 × 24 × 25 in a 20 × 10 × 10 block in a 13.6 m trailer.
    const two = gridPlan(job, 20, 10, 10, { length: 60, width: 24, height: 25 }, 1360);
    const big = await openViewer(c, job.viewer_url, two);
    const opened = await dataset(big.page);
    t.equal(opened['valid'], '1', 'the 2,000-unit plan checks valid in the browser');
    await big.page.click('#edit');
    await big.page.waitForSelector('body[data-editing="1"]');
    const last = 2000 - 5; // the top layer, door-side row
    const at = await unitPoint(big.page, 'carton', last);
    await big.page.mouse.click(at.x, at.y);
    await big.page.keyboard.press('PageUp');
    await big.page.waitForSelector('body[data-operations="1"][data-valid="0"][data-drop-ms]');
    const raised = await dataset(big.page);
    t.comment(
      `2,000 units: browser check on opening ${opened['checkMs']} ms; Page Up → red frame ${raised['dropMs']} ms (check ${raised['checkMs']} ms)`,
    );
    t.same(big.problems, []);
    await c.close();
  });
}

/**
 * A served plan of two pallets (120 × 80 × 159.9946 cm, not stackable: sizes converted from
 * inches leave such figures) side by side on the floor of a 400 × 200 × 250 cm van, with its
 * model, for job `job` (the page still asks the service who may edit it).
 */
function palletPlan(job: any): ViewerPlan {
  const model: PackModel = {
    vehicles: [
      {
        id: 'van',
        name: 'Van',
        type: 'truck',
        length: 400,
        width: 200,
        height: 250,
        maxWeight: 3000,
        quantity: 1,
        blockedAreas: [],
        floorLoadCapacity: 0,
        axles: null,
        auxDeck: null,
      },
    ],
    items: [
      item({
        id: 'pallet',
        label: 'Pallet',
        length: 120,
        width: 80,
        height: 159.9946,
        weight: 12.3456,
        quantity: 2,
        stackable: false,
      }),
    ],
    packingMode: 'fleet_only',
    maxVehicles: 1,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 1000,
    seed: 1,
  };
  const at = (instance: number, x: number): LayoutUnit => ({
    item_id: 'pallet',
    instance,
    x,
    y: 0,
    z: 0,
    orientation: 'lwh',
  });
  const plan = planFromLayout(model, {
    vehicles: [{ vehicle_id: 'van', copy: 1, placements: [at(1, 0), at(2, 200)] }],
  });
  return viewerPlan({
    jobId: job.id,
    reference: 'pallets',
    createdAt: job.created_at,
    expiresAt: job.expires_at,
    plan,
    revision: 0,
    model,
    requestGroups: [],
    warnings: [],
  });
}

/**
 * A served plan of `nx × nz × ny` cartons (size `c`, cm) in a block from the front wall, in a
 * trailer `length` cm long (245 wide, 270 high), loaded layer by layer, with its model, for job
 * `job` (the page still asks the service who may edit it).
 */
function gridPlan(
  job: any,
  nx: number,
  nz: number,
  ny: number,
  c: { length: number; width: number; height: number },
  length: number,
): ViewerPlan {
  const count = nx * nz * ny;
  const model: PackModel = {
    vehicles: [
      {
        id: 'trailer',
        name: 'Trailer',
        type: 'trailer',
        length,
        width: 245,
        height: 270,
        maxWeight: 30_000,
        quantity: 1,
        blockedAreas: [],
        floorLoadCapacity: 0,
        axles: null,
        auxDeck: null,
      },
    ],
    items: [item({ id: 'carton', label: 'Carton', ...c, weight: 10, quantity: count })],
    packingMode: 'fleet_only',
    maxVehicles: 1,
    allowOverweight: false,
    maxStackItems: 0,
    maxStackDensity: 0,
    enforceAxle: false,
    groupRouting: 'none',
    budgetMs: 1000,
    seed: 1,
  };
  const units: LayoutUnit[] = [];
  for (let y = 0; y < ny; y++)
    for (let x = 0; x < nx; x++)
      for (let z = 0; z < nz; z++)
        units.push({
          item_id: 'carton',
          instance: units.length + 1,
          x: x * c.length,
          y: y * c.height,
          z: z * c.width,
          orientation: 'lwh',
        });
  const plan = planFromLayout(model, { vehicles: [{ vehicle_id: 'trailer', copy: 1, placements: units }] });
  return viewerPlan({
    jobId: job.id,
    reference: `${count} cartons`,
    createdAt: job.created_at,
    expiresAt: job.expires_at,
    plan,
    revision: 0,
    model,
    requestGroups: [],
    warnings: [],
  });
}
