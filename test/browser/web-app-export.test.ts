/**
 * Export, share and re-run from the web app in a real browser (headless Chromium through
 * playwright-core, the real service in process): on a finished job's page the loading list
 * downloads as CSV and as Excel (both read back: one row per unit, the Result's numbers), and at
 * 1440×900 and 1024×768 the CSV of a two-layer plan with float noise in its figures shows them
 * rounded, with the group, hazardous and rests-on columns;
 * "Re-run" opens a new job with the same request; "Duplicate into the playground" opens
 * /app/playground with the job's request as `draft` in the navigation state, which the playground loads; the owner's
 * "Revoke shared links" (after the confirmation) makes the earlier viewer link answer 404 while
 * the new one opens; "Pack" on a project creates a job and lands on its page, and on a project
 * being packed shows 409 project_busy beside the button with a link to the running job.
 */
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { WEBAPP, VIEWER, ensureBuild } from '../../scripts/front-end-builds.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { invite } from '../helpers/web-session.js';
import { acceptInvitation } from '../helpers/web-invitation.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

// What the callbacks run in the page touch (the root tsconfig has no DOM lib).
declare const window: { history: { state: any } };

const PASSWORD = 'correct horse battery staple';
const REQUEST = {
  reference: 'export walk',
  vehicles: [{ id: 'van', type: 'truck', name: 'Van', length: 300, width: 180, height: 180, max_weight: 1000 }],
  items: [
    { id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 4 },
    { id: 'crate', label: '=Crate', length: 80, width: 60, height: 50, weight: 30, quantity: 2 },
  ],
  options: { packing_mode: 'fleet_only', time_limit: 10 },
};
const UNITS = 6;
/**
 * Two layers, every unit pinned (Vehicle.loaded): two pallets of one stop side by side, the
 * second at z = 61.4906 cm, a crate on both at y = 45.3 cm, and a hazardous drum on the floor at
 * z = 122.98120000000002 cm (float noise as a sum of widths reads); 600.011987036 kg pallets.
 */
const LAYERS = {
  reference: 'two layers',
  vehicles: [
    {
      id: 'truck',
      type: 'truck',
      name: 'Truck',
      length: 300,
      width: 200,
      height: 200,
      max_weight: 3000,
      loaded: [
        { item_id: 'pallet', x: 0, y: 0, z: 0, orientation: 'lwh' },
        { item_id: 'pallet', x: 0, y: 0, z: 61.4906, orientation: 'lwh' },
        { item_id: 'crate', x: 0, y: 45.3, z: 0, orientation: 'lwh' },
        { item_id: 'drum', x: 0, y: 0, z: 122.98120000000002, orientation: 'lwh' },
      ],
    },
  ],
  items: [
    {
      id: 'pallet',
      label: 'Pallet',
      length: 100,
      width: 61.4906,
      height: 45.3,
      weight: 600.011987036,
      quantity: 2,
      group: 'Stop 1',
    },
    { id: 'crate', label: 'Crate', length: 100, width: 100, height: 40, weight: 20, quantity: 1, group: 'Stop 1' },
    { id: 'drum', label: 'Drum', length: 60, width: 60, height: 90, weight: 200, quantity: 1, hazardous: true },
  ],
  options: { packing_mode: 'fleet_only', seed: 5, work_limit: 3000, time_limit: 10 },
};
/** The viewports every browser case of the loading list's new columns runs at. */
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
];

if (!existsSync(CHROMIUM)) {
  const reason = `no browser walk of the exports: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('exports in a browser', { skip: reason });
} else {
  const run = inProcessService(t, 'web-app-export');
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
    const org = await orgWithKey(run.service, { name: 'Export Freight' });
    key = org.key;
    job = (await keyCall('POST', '/v1/pack?wait=60', REQUEST)).body;
    result = (await keyCall('GET', `/v1/jobs/${job.id}/result`)).body;
    const token = await invite(run.service, org.orgId, 'owner@export.test', 'owner');
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: run.service.url,
      acceptDownloads: true,
    });
    page = await context.newPage();
    await acceptInvitation(page, `/app/invitations/${token}`, 'Olga', PASSWORD);
  });
  t.teardown(async () => {
    await browser?.close();
  });

  /** Opens the job page of `id` and waits until it shows the job succeeded. */
  async function openJob(id: string): Promise<void> {
    await page.goto(`/app/jobs/${id}`);
    await page.locator(`[data-job-id="${id}"] [data-status="succeeded"]`).waitFor();
  }

  /** Clicks the link named `name` in `on` (the main page unless given) and returns the downloaded file's name and bytes. */
  async function download(name: string, on: Page = page): Promise<{ file: string; bytes: Buffer }> {
    const [d] = await Promise.all([on.waitForEvent('download'), on.getByRole('link', { name }).click()]);
    const path = await d.path();
    return { file: d.suggestedFilename(), bytes: readFileSync(path) };
  }

  t.test("the loading list downloads as CSV and as Excel, with the Result's units", async (t) => {
    t.equal(job.status, 'succeeded');
    await openJob(job.id);
    const placements = result.vehicles.flatMap((v: any) => [...v.placements].sort((a: any, b: any) => a.step - b.step));
    t.equal(placements.length, UNITS, 'every unit placed');

    const csv = await download('Loading list (CSV)');
    t.equal(csv.file, `${job.id}-loading-list.csv`);
    const rows = Papa.parse<string[]>(csv.bytes.toString('utf8').trimEnd()).data;
    t.equal(rows[0]![0], 'step');
    t.equal(rows.length, 1 + UNITS, 'the header and one row per unit');
    t.same(
      rows.slice(1).map((r) => [Number(r[0]), r[2], Number(r[5]), Number(r[6]), Number(r[7])]),
      placements.map((p: any) => [p.step, p.item_id, p.x, p.y, p.z]),
      'steps, items and positions of the Result',
    );
    t.ok(
      rows.some((r) => r[4] === "'=Crate"),
      'a formula-like label is neutralised',
    );

    const xlsx = await download('Loading list (Excel)');
    t.equal(xlsx.file, `${job.id}-loading-list.xlsx`);
    const sheet = (await readXlsxFile(xlsx.bytes))[0]!.data;
    t.equal(sheet.length, 1 + UNITS);
    t.same(
      sheet.slice(1).map((r) => [r[0], r[2], r[5], r[6], r[7]]),
      placements.map((p: any) => [p.step, p.item_id, p.x, p.y, p.z]),
      'numbers as numbers',
    );
  });

  t.test(
    'at 1440×900 and 1024×768 the CSV shows rounded figures and the group, hazardous and rests-on columns',
    async (t) => {
      const layers = (await keyCall('POST', '/v1/pack?wait=60', LAYERS)).body;
      t.equal(layers.status, 'succeeded', 'the two-layer job succeeded');
      const drum = layers.result.vehicles[0].placements.find((p: any) => p.item_id === 'drum');
      t.equal(drum.z, 122.98120000000002, 'the plan holds the noisy figure');
      // The signed-in session of the main page, in one context per viewport of the same browser.
      const signedIn = await page.context().storageState();
      for (const viewport of VIEWPORTS) {
        await t.test(`${viewport.width}×${viewport.height}`, async (t) => {
          const context: BrowserContext = await browser.newContext({
            viewport,
            baseURL: run.service.url,
            acceptDownloads: true,
            storageState: signedIn,
          });
          try {
            const at = await context.newPage();
            await at.goto(`/app/jobs/${layers.id}`);
            await at.locator(`[data-job-id="${layers.id}"] [data-status="succeeded"]`).waitFor();
            const link = at.getByRole('link', { name: 'Loading list (CSV)' });
            await link.scrollIntoViewIfNeeded();
            const box = (await link.boundingBox())!;
            t.ok(
              box.x >= 0 && box.x + box.width <= viewport.width,
              `the link lies within the ${viewport.width} px width`,
            );
            const csv = await download('Loading list (CSV)', at);
            t.equal(csv.file, `${layers.id}-loading-list.csv`);
            const text = csv.bytes.toString('utf8');
            const [header, ...rows] = Papa.parse<string[]>(text.trimEnd()).data;
            t.same(header!.slice(-3), ['group', 'hazardous', 'rests_on'], 'the new columns close the header');
            const row = (item: string) => rows.find((r) => r[2] === item)!;
            t.same(row('drum').slice(5, 8), ['0', '0', '123'], 'z to the mm: 123, not 122.98120000000002');
            t.equal(row('pallet')[12], '600', 'weight to 0.1 kg: 600, not 600.011987036');
            t.same(row('drum').slice(-3), ['', 'yes', ''], 'the drum: no group, hazardous, on the floor');
            t.same(row('crate').slice(-3), ['Stop 1', 'no', 'pallet#1, pallet#2'], 'the crate rests on both pallets');
            t.notMatch(text, /122\.98|600\.01|61\.49/, 'no float noise in the file');
          } finally {
            await context.close();
          }
        });
      }
    },
  );

  t.test('the share links are there to copy', async (t) => {
    await openJob(job.id);
    t.equal(await page.getByRole('button', { name: 'Copy share link (3D viewer)' }).count(), 1);
    t.equal(await page.getByRole('button', { name: 'Copy share link (PDF)' }).count(), 1);
  });

  t.test('"Duplicate into the playground" opens the playground with the request as the draft', async (t) => {
    await openJob(job.id);
    await page.getByRole('button', { name: 'Duplicate into the playground' }).click();
    await page.waitForURL('**/app/playground');
    await page.getByText("Loaded a copy of a job's request").waitFor();
    const json = JSON.parse(await page.locator('textarea.json').inputValue()) as unknown;
    t.same(json, REQUEST, "the playground's request is the job's PackRequest as sent");
    const left = await page.evaluate(() => window.history.state?.usr?.draft ?? null);
    t.equal(left, null, 'the draft is taken out of the navigation state (a reload does not load it again)');
  });

  t.test('"Re-run" creates a new job with the same request and opens it', async (t) => {
    await openJob(job.id);
    await page.getByRole('button', { name: 'Re-run' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Re-run' }).click();
    await page.waitForURL((url) => /\/app\/jobs\/job_[a-z0-9]+$/.test(url.pathname) && !url.pathname.endsWith(job.id));
    const newId = /job_[a-z0-9]+$/.exec(new URL(page.url()).pathname)![0];
    const again = (await keyCall('GET', `/v1/jobs/${newId}?include=request&wait=60`)).body;
    t.same(again.request, REQUEST, 'the same request');
    t.equal(again.reference, REQUEST.reference);
    await page.locator(`[data-job-id="${newId}"] [data-status="succeeded"]`).waitFor();
  });

  t.test('the owner revokes the shared links: the earlier viewer link stops, the new one opens', async (t) => {
    await openJob(job.id);
    const before = (await keyCall('GET', `/v1/jobs/${job.id}`)).body.viewer_url as string;
    t.equal((await globalThis.fetch(before)).status, 200, 'the link opens before');
    await page.getByRole('button', { name: 'Revoke shared links' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke shared links' }).click();
    await page.getByText('The links shared so far no longer open.').waitFor();
    t.equal((await globalThis.fetch(before)).status, 404, 'the earlier link: 404');
    const after = (await keyCall('GET', `/v1/jobs/${job.id}`)).body.viewer_url as string;
    t.not(after, before);
    t.equal((await globalThis.fetch(after)).status, 200, 'the new link opens');
  });

  t.test('"Pack" on a project creates a job and lands on its page', async (t) => {
    const project = await keyCall('POST', '/v1/projects', {
      name: 'Walk project',
      vehicles: [{ vehicle_id: 'van-3-5t', quantity: 1 }],
      items: [{ label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 3 }],
      options: { time_limit: 10 },
    });
    t.equal(project.status, 201, 'the project is saved');
    await page.goto('/app/projects');
    await page.getByRole('button', { name: 'Pack Walk project' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Pack', exact: true }).click();
    await page.waitForURL(/\/app\/jobs\/job_[a-z0-9]+$/);
    const newId = /job_[a-z0-9]+$/.exec(new URL(page.url()).pathname)![0];
    const packed = (await keyCall('GET', `/v1/jobs/${newId}?wait=60`)).body;
    t.equal(packed.project_id, project.body.id, 'the job packs the project');
    await page.locator(`[data-job-id="${newId}"] [data-status="succeeded"]`).waitFor();
  });

  t.test('"Pack" on a project being packed says so (409 project_busy)', async (t) => {
    // Many items and a 60 s budget: the first pack still runs when the second click comes.
    const items = Array.from({ length: 150 }, (_, i) => ({
      label: `SKU ${i}`,
      length: 20 + (i % 37),
      width: 15 + (i % 23),
      height: 10 + (i % 29),
      weight: 3,
      quantity: 10,
    }));
    const project = await keyCall('POST', '/v1/projects', {
      name: 'Busy project',
      vehicles: [{ vehicle_id: 'van-3-5t', quantity: 1 }],
      items,
      options: { packing_mode: 'fleet_only', time_limit: 60 },
    });
    t.equal(project.status, 201);
    const first = await keyCall('POST', `/v1/projects/${project.body.id}/pack`);
    t.equal(first.status, 202, 'the first pack runs');
    await page.goto('/app/projects');
    await page.getByRole('button', { name: 'Pack Busy project' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Pack', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'This project is being packed now' });
    await alert.waitFor();
    t.equal(
      await alert.getByRole('link', { name: 'see the job' }).getAttribute('href'),
      `/app/jobs/${first.body.id}`,
      'a link to the running job',
    );
    t.match(new URL(page.url()).pathname, /\/app\/projects$/, 'the page stays');
    t.equal((await keyCall('DELETE', `/v1/jobs/${first.body.id}`)).body.status, 'canceled');
  });
}
