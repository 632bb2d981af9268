/**
 * Plan editing on the web app's job page in a real browser (headless Chromium through
 * playwright-core, the real service in process; design25 §2, §4):
 * - a revision saved through the API with the signed-in session shows in the revisions table
 *   with its author, above the original plan; its PDF link opens a PDF and "Open in 3D" shows it
 *   in the embedded viewer;
 * - "Show more" reads the next pages of a long list (the list route answered by the test);
 * - "Edit plan" opens the latest revision's viewer URL with `&edit=1` in the embedded viewer;
 *   the viewer's `plan-revision-saved` message reads the list again and `replan-job-created`
 *   opens the new job, while the same messages from elsewhere change nothing;
 * - the real editor in the embedded viewer saves a revision (1440 × 900 and 1024 × 768): the page,
 *   told by the viewer's message, lists it at once, without a reload;
 * - "Re-plan from step K" posts the job's request with the units of steps 1..K pinned and
 *   opens the new job, whose plan keeps them where they were; a refusal shows in the error banner;
 * - axe-core finds no serious or critical violation, and the controls are reached with Tab.
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import type { Browser, Frame, Page, Request } from 'playwright-core';
import { WEBAPP, VIEWER, ensureBuild } from '../../scripts/front-end-builds.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { invite } from '../helpers/web-session.js';
import { acceptInvitation } from '../helpers/web-invitation.js';
import { axeCheck } from '../helpers/axe.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

// What the callbacks run in the page touch (the root tsconfig has no DOM lib).
declare const window: { parent: { postMessage(data: unknown, origin: string): void }; sameDocument?: boolean };
declare const document: { activeElement: any };

const PASSWORD = 'correct horse battery staple';

/**
 * The frame of `page` at `url` once it is there. The job page's iframe keeps showing the revision
 * opened before while it navigates to a new address (the editor's), so a locator through the
 * iframe element may still reach the old document; the frame is found by its URL instead.
 */
async function frameAt(page: Page, url: string): Promise<Frame> {
  return (
    page.frames().find((f) => f.url() === url) ??
    (await page.waitForEvent('framenavigated', { predicate: (f) => f.url() === url, timeout: 60_000 }))
  );
}
/** More than one van's volume: the plan loads two copies. */
const REQUEST = {
  reference: 'revisions walk',
  vehicles: [
    { id: 'van', type: 'truck', name: 'Van', length: 200, width: 150, height: 150, max_weight: 2000, quantity: 2 },
  ],
  items: [
    { id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 30 },
    { id: 'crate', label: 'Crate', length: 100, width: 80, height: 60, weight: 30, quantity: 6 },
  ],
  options: { packing_mode: 'fleet_only', time_limit: 2 },
};

if (!existsSync(CHROMIUM)) {
  const reason = `no browser walk of the plan revisions: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('plan revisions in a browser', { skip: reason });
} else {
  const run = inProcessService(t, 'job-revisions');
  let browser: Browser;
  let page: Page;
  let key = '';
  let job: any;
  let result: any;

  /** Calls `path` with the API key, from the test. */
  const keyCall = (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> =>
    call(run.service.url, key, method, path, body);

  t.before(async () => {
    t.not(await ensureBuild(WEBAPP, 'stale'), 'missing', 'the web app is built');
    t.not(await ensureBuild(VIEWER, 'stale'), 'missing', 'the viewer is built');
    browser = await launchChromium({ webgl: true });
    const org = await orgWithKey(run.service, { name: 'Revision Freight' });
    key = org.key;
    job = (await keyCall('POST', '/v1/pack?wait=60', REQUEST)).body;
    result = (await keyCall('GET', `/v1/jobs/${job.id}/result`)).body;
    const token = await invite(run.service, org.orgId, 'owner@revisions.test', 'owner');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: run.service.url });
    page = await context.newPage();
    await acceptInvitation(page, `/app/invitations/${token}`, 'Olga', PASSWORD);
  });
  t.teardown(async () => {
    await browser?.close();
  });

  /** Opens the job page of `id` and waits until its revisions table is in. */
  async function openJob(id: string): Promise<void> {
    await page.goto(`/app/jobs/${id}`);
    await page.locator(`[data-job-id="${id}"] [data-status="succeeded"]`).waitFor();
    await page.locator('table[aria-labelledby="revisions-heading"] tr[data-revision="0"]').waitFor();
  }

  /** The rows of the revisions table (on `on`, the test's page unless given): revision name and author. */
  const tableRows = (on: Page = page): Promise<string[][]> =>
    on
      .locator('table[aria-labelledby="revisions-heading"] tbody tr')
      .evaluateAll((rows: any[]) =>
        rows.map((r) => [r.querySelector('th').firstChild.textContent, r.querySelector('td').textContent]),
      );

  t.test('a saved revision: in the table with its author, its PDF opens, Open in 3D shows it', async (t) => {
    t.equal(job.status, 'succeeded');
    t.ok(result.vehicles.length >= 2, `the plan loads ${result.vehicles.length} vans`);
    await openJob(job.id);
    // Revision 1 saved with the signed-in session (as the viewer's editor does): the last unit
    // loaded into the last van taken out (nothing rests on it).
    const last = result.vehicles.at(-1).placements.reduce((a: any, b: any) => (b.step > a.step ? b : a));
    const saved = await page.evaluate(
      async ({ id, unit }) => {
        const session = (await (await fetch('/app/api/session')).json()) as { csrf_token: string };
        const res = await fetch(`/v1/jobs/${id}/revisions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
          body: JSON.stringify({
            base_revision: 0,
            operations: [{ op: 'remove', item_id: unit.item_id, instance: unit.instance }],
          }),
        });
        return { status: res.status, body: (await res.json()) as any };
      },
      { id: job.id as string, unit: last },
    );
    if (saved.status !== 201) t.comment(JSON.stringify(saved.body));
    t.equal(saved.status, 201, 'revision 1 saved');
    t.equal(saved.body.revision, 1);
    t.equal(saved.body.created_by?.name, 'Olga', 'saved by the signed-in person');

    await openJob(job.id);
    await page.locator('tr[data-revision="1"]').waitFor();
    t.same(
      await tableRows(),
      [
        ['Revision 1', 'Olga'],
        ['Original plan', '—'],
      ],
      'newest first, with who saved it',
    );
    const placed = result.vehicles.reduce((n: number, v: any) => n + v.placements.length, 0);
    const units = page.locator('tr[data-revision="1"] td.num').first();
    await page.waitForFunction((cell: any) => cell.textContent !== '…', await units.elementHandle());
    t.equal(await units.textContent(), `${placed - 1} of ${placed + result.unplaced.length}`, 'one unit less placed');

    const pdf = page.getByRole('link', { name: 'PDF of revision 1' });
    const href = (await pdf.getAttribute('href'))!;
    t.equal(href, saved.body.result.pdf_url, "the revision's own PDF link");
    t.match(href, /revision=1/, 'signed for revision 1');
    const answer = await globalThis.fetch(href);
    t.equal(answer.status, 200, 'the PDF opens');
    t.match(answer.headers.get('content-type'), /^application\/pdf/);
    t.equal((await answer.arrayBuffer()).byteLength > 1000, true, 'a PDF of some size');

    await page.getByRole('button', { name: 'Open in 3D: revision 1' }).click();
    await page.getByRole('heading', { name: '3D plan: Revision 1' }).waitFor();
    t.equal(
      await page.locator('iframe.pg-viewer').getAttribute('src'),
      saved.body.result.viewer_url,
      "the embedded viewer shows revision 1's viewer URL",
    );
    t.equal(await page.getByRole('link', { name: 'Plan as PDF' }).getAttribute('href'), href);
  });

  /** Answers GET /v1/jobs/{id}/revisions in the browser with `count` revisions, 20 a page, and counts the reads. */
  async function fakeRevisions(count: number): Promise<{ reads: string[] }> {
    const reads: string[] = [];
    await page.route(`**/v1/jobs/${job.id}/revisions?*`, async (route) => {
      const url = new URL(route.request().url());
      reads.push(url.search);
      const from = Number(url.searchParams.get('cursor') ?? count);
      const limit = Number(url.searchParams.get('limit'));
      const data = [];
      for (let r = from; r > Math.max(0, from - limit); r--)
        data.push({
          revision: r,
          created_at: new Date(Date.UTC(2026, 10, 26, 12, r)).toISOString(),
          created_by: { id: 'usr_x', name: r % 2 ? 'Ann' : 'Olga' },
          base_revision: r - 1,
          operations_count: 2,
        });
      const next = from - limit > 0 ? String(from - limit) : null;
      await route.fulfill({ json: { data, next_cursor: next } });
    });
    // Every revision's Result: the job's own (the fake revisions have none in the service).
    await page.route(`**/v1/jobs/${job.id}/result?revision=*`, (route) => route.fulfill({ json: result }));
    return { reads };
  }

  t.test('"Show more" reads the next pages of a long list', async (t) => {
    const fake = await fakeRevisions(45);
    t.teardown(() => page.unrouteAll());
    await page.goto(`/app/jobs/${job.id}`);
    await page.locator('tr[data-revision="45"]').waitFor();
    t.equal((await tableRows()).length, 20, 'the first page: 20 revisions, no original plan yet');
    const more = page.getByRole('button', { name: 'Show more revisions' });
    await more.click();
    await page.locator('tr[data-revision="25"]').waitFor();
    t.equal((await tableRows()).length, 40);
    await more.click();
    await page.locator('tr[data-revision="0"]').waitFor();
    const rows = await tableRows();
    t.same(
      rows.map((r) => r[0]),
      [...Array.from({ length: 45 }, (_, i) => `Revision ${45 - i}`), 'Original plan'],
      'every revision once, newest first, then the original plan',
    );
    t.equal(await more.count(), 0, 'no more to show');
    t.same(fake.reads, ['?limit=20', '?limit=20&cursor=25', '?limit=20&cursor=5'], 'one read per page, by cursor');
  });

  t.test("Edit plan, and the viewer's messages", async (t) => {
    const fake = await fakeRevisions(3);
    t.teardown(() => page.unrouteAll());
    await page.goto(`/app/jobs/${job.id}`);
    await page.locator('tr[data-revision="3"]').waitFor();
    await page.getByRole('button', { name: 'Edit plan' }).click();
    await page.getByRole('heading', { name: '3D plan: Revision 3 (editing)' }).waitFor();
    const src = (await page.locator('iframe.pg-viewer').getAttribute('src'))!;
    t.equal(src, `${result.viewer_url}&edit=1`, "the latest revision's viewer URL with &edit=1");
    t.equal(
      await page.getByRole('link', { name: 'Open the editor in a full window' }).getAttribute('href'),
      src,
      'the same editor in a full window',
    );

    const inner = await frameAt(page, src);
    await inner.locator('body[data-ready="1"], body[data-error]').waitFor({ timeout: 60_000 });
    t.equal(inner.parentFrame(), page.mainFrame(), 'the viewer frame, in the job page');
    // Not from the viewer frame (the page itself), or of another job: nothing happens.
    await page.evaluate(
      (id) => window.parent.postMessage({ type: 'replan-job-created', jobId: `${id}x` }, '*'),
      job.id as string,
    );
    await inner.evaluate(() =>
      window.parent.postMessage({ type: 'plan-revision-saved', jobId: 'job_other', revision: 4 }, '*'),
    );
    const readsBefore = fake.reads.length;
    const reread = page.waitForRequest((r: Request) => r.url().includes(`/v1/jobs/${job.id}/revisions?`));
    await inner.evaluate(
      (id) => window.parent.postMessage({ type: 'plan-revision-saved', jobId: id, revision: 4 }, '*'),
      job.id as string,
    );
    await reread;
    await page.getByText('Revision 4 saved.').waitFor({ state: 'attached' });
    t.equal(
      fake.reads.length,
      readsBefore + 1,
      'the list is read again once: only the viewer frame of this job counts',
    );
    t.equal(new URL(page.url()).pathname, `/app/jobs/${job.id}`, 'the message from the page itself opened nothing');
    t.equal(await page.locator('iframe.pg-viewer').getAttribute('src'), src, 'the editor stays open');

    await inner.evaluate(() => window.parent.postMessage({ type: 'replan-job-created', jobId: 'job_replan1' }, '*'));
    await page.waitForURL('**/app/jobs/job_replan1');
    t.pass('a re-plan started in the viewer opens its job');
  });

  t.test('"Re-plan from step K" posts the request with steps 1..K pinned', async (t) => {
    await openJob(job.id);
    const form = page.locator('form.replan-form');
    await form.getByLabel('Vehicle').selectOption({ label: `2 · Van (copy ${result.vehicles[1].copy})` });
    await form.getByLabel('Step K').fill('3');
    await page.getByRole('button', { name: 'Re-plan from step K' }).click();
    const [posted] = await Promise.all([
      page.waitForRequest((r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === '/v1/pack'),
      page.getByRole('dialog').getByRole('button', { name: 'Re-plan' }).click(),
    ]);
    const body = posted.postDataJSON();
    t.ok(posted.headers()['idempotency-key'], 'with an Idempotency-Key');
    const pinned = (v: any, upTo: number) =>
      [...v.placements]
        .filter((p: any) => p.step <= upTo)
        .sort((a: any, b: any) => a.step - b.step)
        .map((p: any) => ({ item_id: p.item_id, x: p.x, y: p.y, z: p.z, orientation: p.orientation, copy: v.copy }));
    t.same(
      body.vehicles[0].loaded,
      [...pinned(result.vehicles[0], Infinity), ...pinned(result.vehicles[1], 3)],
      'the first van whole and steps 1–3 of the second, where they are',
    );
    t.same(body.items, REQUEST.items, 'the items of the request');
    const answer = (await posted.response())!;
    t.equal(answer.status(), 202, 'the service takes the re-plan');
    const created = (await answer.json()) as { id: string };
    await page.waitForURL(`**/app/jobs/${created.id}`);
    await page.locator(`[data-job-id="${created.id}"] [data-status="succeeded"]`).waitFor({ timeout: 60_000 });
    // The new plan keeps the pinned units where they were, in the same vehicle copies.
    const replanned = (await keyCall('GET', `/v1/jobs/${created.id}/result`)).body;
    const spots = (vehicles: any[], keep: (v: any, p: any) => boolean) =>
      vehicles
        .flatMap((v) =>
          v.placements.filter((p: any) => keep(v, p)).map((p: any) => `${v.copy} ${p.item_id} ${p.x} ${p.y} ${p.z}`),
        )
        .sort();
    const kept = spots(result.vehicles.slice(0, 2), (v, p) => v.index === 0 || p.step <= 3);
    const now = new Set(spots(replanned.vehicles, () => true));
    t.same(
      kept.filter((s) => !now.has(s)),
      [],
      `the ${kept.length} units of the first van and of steps 1–3 of the second are where they were`,
    );
  });

  t.test("a refused re-plan shows the service's error in the banner and the page stays", async (t) => {
    await openJob(job.id);
    const details = [{ path: 'vehicles[0].loaded[0]', code: 'invalid_value', message: 'this unit overlaps another' }];
    await page.route('**/v1/pack', (route) =>
      route.fulfill({
        status: 422,
        json: { error: { code: 'validation_failed', message: 'the request is invalid', details } },
      }),
    );
    t.teardown(() => page.unrouteAll());
    await page.locator('form.replan-form').getByLabel('Step K').fill('1');
    await page.getByRole('button', { name: 'Re-plan from step K' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Re-plan' }).click();
    const banner = page.locator('section.replan .error-banner');
    await banner.waitFor();
    t.match(await banner.textContent(), /Please check the input:.*the request is invalid/, 'the message');
    t.match(await banner.textContent(), /vehicles\[0\]\.loaded\[0\].*this unit overlaps another/, 'its details');
    t.equal(new URL(page.url()).pathname, `/app/jobs/${job.id}`, 'the page stays');
    t.equal(await page.getByRole('button', { name: 'Re-plan from step K' }).isEnabled(), true, 'to try again');
  });

  t.test('accessibility: axe-core, labels and the keyboard', async (t) => {
    await openJob(job.id);
    await page.locator('table[aria-labelledby="revisions-heading"] td.num:not(:empty)').first().waitFor();
    const axe = await axeCheck(t, page, 'the job page with its revisions', { iframes: false });
    if (axe) t.same(axe.blocking, [], 'axe-core: no serious or critical violation');
    for (const label of ['Revision', 'Vehicle', 'Step K'])
      t.equal(
        await page.locator('form.replan-form').getByLabel(label, { exact: true }).count(),
        1,
        `"${label}" labelled`,
      );

    // Tab through the page: every control of the plan's revisions is reached.
    const reached = new Set<string>();
    await page.locator('h1').first().click();
    for (let i = 0; i < 80 && !reached.has('Re-plan from step K'); i++) {
      await page.keyboard.press('Tab');
      reached.add(
        await page.evaluate(() => {
          const e = document.activeElement;
          return (e.getAttribute('aria-label') ?? e.labels?.[0]?.textContent ?? e.textContent ?? '').trim();
        }),
      );
    }
    for (const name of [
      'Open in 3D: the original plan',
      'PDF of the original plan',
      'Edit plan',
      'Step K',
      'Re-plan from step K',
    ])
      t.ok(reached.has(name), `"${name}" is reached with Tab`);
    await page.getByRole('button', { name: 'Open in 3D: the original plan' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '3D plan: Original plan' }).waitFor();
    const original = (await keyCall('GET', `/v1/jobs/${job.id}/result?revision=0`)).body;
    t.equal(await page.locator('iframe.pg-viewer').getAttribute('src'), original.viewer_url, 'Enter opens it');
  });
  t.test(
    'the real editor saves a revision in the embedded viewer: the page lists it without a reload (1440 × 900, 1024 × 768)',
    async (t) => {
      const signedIn = await page.context().storageState();
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 1024, height: 768 },
      ]) {
        const size = `${viewport.width} × ${viewport.height}`;
        const c = await browser.newContext({ viewport, baseURL: run.service.url, storageState: signedIn });
        const p = await c.newPage();
        await p.goto(`/app/jobs/${job.id}`);
        const row = (revision: number) =>
          p.locator(`table[aria-labelledby="revisions-heading"] tr[data-revision="${revision}"]`);
        await row(0).waitFor();
        const listed = (await keyCall('GET', `/v1/jobs/${job.id}/revisions`)).body.data as { revision: number }[];
        const latest = listed[0]?.revision ?? 0;
        await row(latest).waitFor();
        // Marks this document: a reload would lose the mark.
        await p.evaluate(() => void (window.sameDocument = true));

        await p.getByRole('button', { name: 'Edit plan' }).click();
        await p.getByRole('heading', { name: `3D plan: Revision ${latest} (editing)` }).waitFor();
        const editor = await frameAt(p, (await p.locator('iframe.pg-viewer').getAttribute('src'))!);
        await editor.locator('body[data-ready="1"][data-edit-access="granted"]').waitFor({ timeout: 60_000 });
        await editor.locator('#edit').click();
        await editor.locator('body[data-editing="1"]').waitFor();
        // `[` picks the last loaded unit of the first van (nothing rests on it), Delete takes it out.
        await p.keyboard.press('[');
        await p.keyboard.press('Delete');
        await editor.locator('body[data-operations="1"][data-valid="1"]').waitFor();
        const save = editor.locator('#save');
        await save.scrollIntoViewIfNeeded();
        const box = await save.boundingBox();
        t.ok(
          box &&
            box.x >= 0 &&
            box.y >= 0 &&
            box.x + box.width <= viewport.width &&
            box.y + box.height <= viewport.height,
          `${size}: Save as revision is visible inside the window (${JSON.stringify(box)})`,
        );
        t.equal(await save.isEnabled(), true, `${size}: a valid change may be saved`);
        await save.click();

        const saved = latest + 1;
        await row(saved).waitFor({ timeout: 30_000 });
        await p.getByText(`Revision ${saved} saved.`).waitFor({ state: 'attached' });
        t.equal(await p.evaluate(() => window.sameDocument === true), true, `${size}: the page was not reloaded`);
        t.same(
          (await tableRows(p)).slice(0, 2),
          [
            [`Revision ${saved}`, 'Olga'],
            [`Revision ${latest}`, latest === 0 ? '—' : 'Olga'],
          ],
          `${size}: the new revision heads the table, with who saved it`,
        );
        await row(saved).scrollIntoViewIfNeeded();
        const shown = await row(saved).locator('th').boundingBox();
        t.ok(
          (await row(saved).isVisible()) && shown && shown.x >= 0 && shown.x + shown.width <= viewport.width,
          `${size}: its row is visible inside the window`,
        );
        await p
          .frameLocator('iframe.pg-viewer')
          .locator(`body[data-ready="1"][data-revision="${saved}"]`)
          .waitFor({ timeout: 60_000 });
        t.pass(`${size}: the viewer opened revision ${saved}`);
        await c.close();
      }
    },
  );
}
