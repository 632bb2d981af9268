/**
 * The newcomer's walk through the web app in a real browser ("Done when"): headless
 * Chromium (Debian's, driven by playwright-core) against the real service (in process, embedded
 * profile). The organization and its owner's invitation are made with the admin command's code
 * (provisionOrganization, issueInvitation). The owner accepts the invitation, signs out and in,
 * creates a key with two scopes, a vehicle and a template, imports items from a CSV file in the
 * playground, sees the estimate, runs the job, opens its plan, saves it as a project, lists the
 * jobs and opens the job's page, rotates the key and sees the old secret refused by the API
 * (401 key_revoked); a member of another organization sees none of it (empty lists, 404 for the
 * first organization's ids). Screenshots for the README go to docs/img/ (web-playground.png,
 * web-jobs.png).
 */
import t from 'tap';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createApiKey } from '../../application/provision.js';
import { WEBAPP, VIEWER, ensureBuild } from '../../scripts/front-end-builds.js';
import { inProcessService } from '../helpers/in-process-service.js';
import { untilJob } from '../helpers/job-state.js';
import { orgWithOwnerInvitation } from '../helpers/web-session.js';
import { acceptInvitation } from '../helpers/web-invitation.js';
import { xlsxOf } from '../helpers/xlsx-file.js';
import { readmePictureDir } from '../helpers/readme-pictures.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

// What the callbacks run in the page touch (the root tsconfig has no DOM lib).
declare const window: { scrollTo(x: number, y: number): void; innerWidth: number };
declare const document: { documentElement: { scrollWidth: number } };
declare function fetch(
  url: string,
  init?: { method?: string; headers?: Record<string, string> },
): Promise<{ status: number; json(): Promise<any> }>;

const IMG = readmePictureDir();
const PASSWORD = 'correct horse battery staple';
const ITEMS_CSV = [
  'Label,Length (cm),Width (cm),Height (cm),Weight (kg),Qty,Stackable,Colour',
  'Carton,60,40,40,"12,5",12,yes,#1f77b4',
  'Drum pallet,120,80,110,180,2,no,ff7f0e',
  '',
].join('\n');

if (!existsSync(CHROMIUM)) {
  const reason = `no browser walk of the web app: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('web app in a browser', { skip: reason });
} else {
  const run = inProcessService(t, 'web-app-browser');
  let browser: Browser;

  t.before(async () => {
    t.not(await ensureBuild(WEBAPP, 'stale'), 'missing', 'the web app is built');
    t.not(await ensureBuild(VIEWER, 'stale'), 'missing', 'the viewer is built');
    mkdirSync(IMG, { recursive: true });
    browser = await launchChromium({ webgl: true });
  });
  t.teardown(async () => {
    await browser?.close();
  });

  /** A fresh browser (own cookies) on a laptop-sized window; page errors are collected. */
  async function newBrowser(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, baseURL: run.service.url });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    return { context, page, problems };
  }

  /** Accepts `token` in `page` as `name` and waits for the playground (the accepted member is signed in). */
  const accept = (page: Page, token: string, name: string): Promise<void> =>
    acceptInvitation(page, `/app/invitations/${token}`, name, PASSWORD);

  /** GET `path` with the page's session cookie: status and body. */
  const pageGet = (page: Page, path: string): Promise<{ status: number; body: any }> =>
    page.evaluate(async (p) => {
      const res = await fetch(p, { headers: { Accept: 'application/json' } });
      return { status: res.status, body: await res.json() };
    }, path);

  /** Calls `path` with an API key (Bearer), from the test. */
  async function keyCall(
    key: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await globalThis.fetch(run.service.url + path, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: await res.json() };
  }

  /** Saves a new vehicle or template through its page's form; the id from the notice. */
  async function saveRecord(
    page: Page,
    path: string,
    noun: string,
    fields: Record<string, string>,
    select: Record<string, string> = {},
  ): Promise<string> {
    await page.goto(path);
    await page.getByRole('button', { name: `New ${noun}` }).click();
    for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
    for (const [label, value] of Object.entries(select))
      await page.getByLabel(label, { exact: true }).selectOption(value);
    await page.getByRole('button', { name: `Save ${noun}` }).click();
    const notice = page.getByText(new RegExp(`^Saved ${noun} `));
    await notice.waitFor();
    const id = /\(((veh|tpl)_[a-z0-9]+)\)/.exec((await notice.textContent()) ?? '')?.[1];
    if (!id) throw new Error(`no id in the notice of the new ${noun}`);
    return id;
  }

  t.test("the newcomer's walk, and another organization sees none of it", async (t) => {
    const first = await orgWithOwnerInvitation(run.service, 'Acme Freight', 'owner@acme.test');
    const { context, page, problems } = await newBrowser();
    t.teardown(() => context.close());

    // Accept the invitation (signed in), sign out, sign in again.
    await accept(page, first.token, 'Olga Owner');
    t.match(
      await page.locator('.app-header').textContent(),
      /Acme Freight.*Olga Owner/,
      'the header names the organization and the member',
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/app/sign-in**');
    await page.getByLabel('Email').fill('owner@acme.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/app/playground');

    // A key with two scopes.
    await page.goto('/app/console/keys');
    await page.getByLabel('Key name').fill('ci');
    for (const scope of ['account:read', 'resources:read', 'resources:write'])
      await page.getByLabel(scope, { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    const firstSecret = ((await page.getByLabel('Key secret').textContent()) ?? '').trim();
    t.ok(firstSecret.length > 40, 'the secret is shown once');
    t.equal((await keyCall(firstSecret, 'GET', '/v1/jobs')).status, 200, 'the key reads jobs (jobs:read)');
    const outOfScope = await keyCall(firstSecret, 'GET', '/v1/vehicles');
    t.equal(outOfScope.status, 403, 'the key cannot read vehicles: it has two scopes only');
    await page.getByRole('button', { name: 'I have stored the secret' }).click();

    // A vehicle and a template through their pages.
    const vehicleId = await saveRecord(
      page,
      '/app/vehicles',
      'vehicle',
      {
        Name: 'Box truck 7.2 m',
        'Length (cm)': '720',
        'Width (cm)': '245',
        'Height (cm)': '250',
        'Max payload (kg)': '6000',
      },
      { Type: 'truck' },
    );
    const templateId = await saveRecord(page, '/app/templates', 'template', {
      Label: 'Euro pallet crate',
      'Length (cm)': '120',
      'Width (cm)': '80',
      'Height (cm)': '100',
      'Weight of one unit (kg)': '150',
    });
    t.match(vehicleId, /^veh_/);
    t.match(templateId, /^tpl_/);

    // The playground: the vehicle, the template, items from a CSV file.
    await page.goto('/app/playground');
    await page.getByLabel('Quantity of Box truck 7.2 m').fill('1');
    await page.getByLabel('Quantity of Euro pallet crate').fill('3');
    await page
      .getByLabel('Import items from a CSV or Excel (.xlsx) file')
      .setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(ITEMS_CSV) });
    await page.getByText('Imported 2 items (14 units) from items.csv.').waitFor();
    await page.getByLabel('Reference (optional)').fill('walk-1');
    // The JSON editor: a short compute limit keeps the test quick (and edits the request by hand).
    const editor = page.getByLabel('Request (JSON: edit or paste a whole request here)');
    const built = JSON.parse(await editor.inputValue());
    t.same(built.vehicles, [{ vehicle_id: vehicleId, quantity: 1 }], 'the chosen vehicle by id');
    t.same(
      built.items,
      [
        { template_id: templateId, quantity: 3 },
        {
          label: 'Carton',
          length: 60,
          width: 40,
          height: 40,
          weight: 12.5,
          quantity: 12,
          stackable: true,
          color: '#1f77b4',
        },
        {
          label: 'Drum pallet',
          length: 120,
          width: 80,
          height: 110,
          weight: 180,
          quantity: 2,
          stackable: false,
          color: '#ff7f0e',
        },
      ],
      'the template, then the imported items (decimal comma read)',
    );
    await editor.fill(JSON.stringify({ ...built, options: { time_limit: 2 } }, null, 2));

    // The estimate, then Run (the most it can cost shown first). An estimate of an earlier state
    // (the template alone, 3 units) may show until the request's own arrives: the one of 17 units.
    const valid = page.locator('[data-valid="true"]', { hasText: '17 units' });
    await valid.waitFor({ timeout: 30_000 });
    t.match(await valid.textContent(), /17 units/, 'the estimate counts 17 units');
    const run1 = page.getByRole('button', { name: /^Run \(at most [\d.]+ credits\)$/ });
    await run1.waitFor();
    await run1.click();
    await page.locator('.pg-job .pg-status[data-status="succeeded"]').waitFor({ timeout: 120_000 });
    const jobId = await page.locator('.pg-job').getAttribute('data-job-id');
    t.match(jobId, /^job_/, 'a job was created');
    t.equal(await page.locator('.pg-job [data-field="items_placed"]').textContent(), '17 of 17', 'every unit placed');
    t.match(
      await page.locator('.pg-job [data-field="credits"]').textContent(),
      /^[\d.]+ credits$/,
      'the charge is shown',
    );
    const job = (await pageGet(page, `/v1/jobs/${jobId}`)).body;
    t.equal(job.source, 'playground', 'the job is a playground job');
    t.equal(job.reference, 'walk-1');
    t.equal(await page.locator('iframe.pg-viewer').getAttribute('src'), job.viewer_url, 'the viewer is embedded');
    // The viewer page lets the same origin frame it: the embedded one loads the plan too.
    const framed = page.frameLocator('iframe.pg-viewer').locator('body[data-ready="1"], body[data-error]');
    await framed.waitFor({ timeout: 60_000 });
    t.equal(await framed.getAttribute('data-error'), null, 'the embedded viewer loaded the plan');
    t.equal(await page.getByRole('link', { name: 'Plan as PDF' }).getAttribute('href'), job.pdf_url, 'the PDF link');

    // Open its plan in the 3D viewer.
    const [viewer] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'Open the plan in the 3D viewer' }).click(),
    ]);
    await viewer.waitForSelector('body[data-ready="1"], body[data-error]', { timeout: 60_000 });
    t.equal(await viewer.getAttribute('body', 'data-error'), null, 'the viewer loaded the plan');
    const result = (await pageGet(page, `/v1/jobs/${jobId}/result`)).body;
    t.equal(
      await viewer.getAttribute('body', 'data-units'),
      String(result.vehicles[0].placements.length),
      'the viewer shows the units of the first vehicle',
    );
    await viewer.close();

    // Save as project.
    await page.getByLabel('Project name').fill('Walk project');
    await page.getByRole('button', { name: 'Save as project' }).click();
    const saved = page.locator('[data-project-id]');
    await saved.waitFor();
    const projectId = (await saved.getAttribute('data-project-id'))!;
    const project = (await pageGet(page, `/v1/projects/${projectId}`)).body;
    t.equal(project.name, 'Walk project');
    t.same(
      project.vehicles.map((v: any) => [v.vehicle_id, v.quantity]),
      [[vehicleId, 1]],
      'the project has the vehicle slot',
    );
    t.same(
      project.items.map((i: any) => i.template_id ?? i.label),
      [templateId, 'Carton', 'Drum pallet'],
      'and the items',
    );
    t.same(project.options, { time_limit: 2 });
    await page.setViewportSize({ width: 1280, height: 1230 });
    // The picture shows the working part: from the item table to the estimate (the pickers above list every vehicle).
    await page.evaluate(() => window.scrollTo(0, 0));
    const from = (await page.getByRole('heading', { name: 'Items', exact: true }).boundingBox())!;
    const to = (await page.locator('.pg-estimate').boundingBox())!;
    await page.screenshot({
      path: `${IMG}web-playground.png`,
      fullPage: true,
      clip: { x: 0, y: from.y - 16, width: 1280, height: to.y + to.height - from.y + 32 },
    });
    await page.setViewportSize({ width: 1280, height: 860 });

    // The jobs list (filtered to playground jobs) and the job's page.
    await page.goto('/app/jobs');
    await page.getByLabel('Source').selectOption('playground');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL('**/app/jobs?source=playground');
    await page.locator(`tr[data-job-id="${jobId}"]`).waitFor();
    t.equal(await page.locator('tbody tr').count(), 1, 'one playground job listed');
    await page.screenshot({ path: `${IMG}web-jobs.png` });
    await page.getByLabel('failed', { exact: true }).check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL('**/app/jobs?status=failed&source=playground');
    await page.getByText('No job matches these filters on this page.').waitFor();
    await page.goto(`/app/jobs/${jobId}`);
    await page.locator('.pg-status[data-status="succeeded"]').waitFor();
    t.equal(await page.getByRole('button', { name: 'Cancel job' }).count(), 0, 'no Cancel for a finished job');

    // Rotate the key: the old secret is refused by the API.
    await page.goto('/app/console/keys');
    await page.getByRole('button', { name: 'Rotate ci' }).click();
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByRole('heading', { name: 'New secret of “ci”' }).waitFor();
    const newSecret = ((await page.getByLabel('Key secret').textContent()) ?? '').trim();
    t.not(newSecret, firstSecret, 'a new secret');
    const refused = await keyCall(firstSecret, 'GET', '/v1/jobs');
    t.equal(refused.status, 401, 'the old secret is refused');
    t.equal(refused.body.error.code, 'key_revoked');
    t.equal((await keyCall(newSecret, 'GET', '/v1/jobs')).status, 200, 'the new secret works');
    t.same(problems, [], 'no page errors');

    // Another organization's member sees none of it.
    const second = await orgWithOwnerInvitation(run.service, 'Other Org', 'owner@other.test');
    const other = await newBrowser();
    t.teardown(() => other.context.close());
    await accept(other.page, second.token, 'Otto Other');
    t.same((await pageGet(other.page, '/v1/jobs')).body.data, [], 'no jobs');
    t.same(
      (await pageGet(other.page, '/v1/vehicles?limit=100')).body.data.filter((v: any) => !v.preset),
      [],
      'no own vehicles (presets only)',
    );
    t.same((await pageGet(other.page, '/v1/templates')).body.data, [], 'no templates');
    t.same((await pageGet(other.page, '/v1/projects')).body.data, [], 'no projects');
    for (const path of [
      `/v1/jobs/${jobId}`,
      `/v1/vehicles/${vehicleId}`,
      `/v1/templates/${templateId}`,
      `/v1/projects/${projectId}`,
    ]) {
      t.equal((await pageGet(other.page, path)).status, 404, `${path} answers 404`);
    }
    await other.page.goto('/app/jobs');
    await other.page.getByText('No jobs yet').waitFor();
    await other.page.goto(`/app/jobs/${jobId}`);
    await other.page.locator('.error-banner').waitFor();
    t.match(
      await other.page.locator('.error-banner').textContent(),
      /Not found/,
      "the first organization's job is not found",
    );
    await other.page.goto('/app/playground');
    await other.page.getByRole('group', { name: 'Cargo templates' }).getByText('None saved.').waitFor();
    await other.page.getByRole('group', { name: 'Vehicles' }).getByText('(preset)').first().waitFor();
    t.equal(
      await other.page.getByText('Box truck 7.2 m').count(),
      0,
      "the playground lists none of the first organization's vehicles",
    );
    t.same(other.problems, [], 'no page errors');

    for (const img of ['web-playground.png', 'web-jobs.png'])
      t.ok(
        statSync(IMG + img).size <= 150 * 1024,
        `${img} is at most 150 KB for the README (${statSync(IMG + img).size} bytes)`,
      );
  });

  t.test("a running job's page follows it; Cancel ends it and shows the charge", async (t) => {
    const org = await orgWithOwnerInvitation(run.service, 'Slow Loads', 'owner@slow.test');
    const { context, page, problems } = await newBrowser();
    t.teardown(() => context.close());
    await accept(page, org.token, 'Sam Slow');
    const k = await createApiKey(run.service.services.store, {
      orgId: org.orgId,
      memberId: org.ownerId,
      name: 'api',
      now: new Date().toISOString(),
    });
    await run.service.services.projections.waitFor(k.position);
    // 2,000 units of 200 sizes for one van, 60 s of compute: running far longer than the test needs.
    const items = Array.from({ length: 200 }, (_, i) => ({
      id: `sku-${i}`,
      length: 20 + (i % 37),
      width: 15 + (i % 23),
      height: 10 + (i % 29),
      weight: 3,
      quantity: 10,
    }));
    const posted = await keyCall(k.secret, 'POST', '/v1/pack', {
      reference: 'slow',
      vehicles: [{ vehicle_id: 'van-3-5t' }],
      items,
      options: { packing_mode: 'fleet_only', time_limit: 60 },
    });
    t.equal(posted.status, 202, 'the job is queued');
    const jobId: string = posted.body.id;
    await untilJob(run.service.services, jobId, 'running', (j) => j.status === 'running');

    await page.goto(`/app/jobs/${jobId}`);
    await page.locator('.pg-status[data-status="running"]').waitFor();
    await page.locator('.pg-progress progress').waitFor();
    t.equal(await page.locator('[data-field="credits"]').textContent(), 'when the job ends', 'no charge while it runs');
    await page.getByRole('main').getByRole('button', { name: 'Cancel job' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel job' }).click();
    await page.locator('.pg-status[data-status="canceled"]').waitFor();
    const canceled = (await pageGet(page, `/v1/jobs/${jobId}`)).body;
    t.equal(canceled.status, 'canceled');
    t.equal(
      await page.locator('[data-field="credits"]').textContent(),
      `${Number(canceled.cost.credits.toFixed(4))} credits`,
      'the charge of the canceled job',
    );
    t.match(await page.locator('.pg-job [role="alert"]').textContent(), /canceled/, 'the error of a canceled job');
    t.equal(await page.getByRole('button', { name: 'Cancel job' }).count(), 0, 'no Cancel once it ended');

    // Item files in the playground: a bad CSV names its cells and imports nothing; an Excel file imports.
    await page.goto('/app/playground');
    const file = page.getByLabel('Import items from a CSV or Excel (.xlsx) file');
    const editor = page.getByLabel('Request (JSON: edit or paste a whole request here)');
    await file.setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('label;length;width;height;weight;quantity\nA;12,5;wide;10;1;2\nB;1;1;1;1;-3\n'),
    });
    await page.getByText('Nothing imported from bad.csv: fix these 2 cells and choose the file again.').waitFor();
    t.same(await page.getByRole('list', { name: 'Problems in the file' }).getByRole('listitem').allTextContents(), [
      'row 2, column C (width): width must be a number, got "wide"',
      'row 3, column F (quantity): quantity must be at least 1 and at most 10000, got -3',
    ]);
    t.same(JSON.parse(await editor.inputValue()).items, [], 'nothing imported');
    const xlsx = xlsxOf([
      ['Label', 'Length', 'Width', 'Height', 'Weight', 'Quantity', 'Hazardous'],
      ['Battery crate', 80, 60, 50, 95.5, 4, true],
    ]);
    await file.setInputFiles({
      name: 'items.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(xlsx),
    });
    await page.getByText('Imported 1 item (4 units) from items.xlsx.').waitFor();
    t.same(
      JSON.parse(await editor.inputValue()).items,
      [{ label: 'Battery crate', length: 80, width: 60, height: 50, weight: 95.5, quantity: 4, hazardous: true }],
      'the Excel rows',
    );

    // A tablet: the playground and the jobs list fit the width (tables scroll inside their box).
    await page.setViewportSize({ width: 768, height: 1024 });
    for (const path of ['/app/playground', '/app/jobs']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      t.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        `${path} has no sideways scrolling at 768 px`,
      );
    }
    t.same(problems, [], 'no page errors');
  });
}
