/**
 * Billed actions behind their price, and where a job comes from, in a real browser (headless
 * Chromium through playwright-core, the real service in process), at 1440×900 and 1024×768:
 * - Re-run, Re-plan from step K and a project's Pack first ask the free estimate of the body they
 *   send (POST /v1/estimate) and show "at most N credits" (its `estimated_cost.max_credits`) in a
 *   confirmation; Cancel starts no job (GET /v1/jobs counts the same), confirming starts one;
 *   a failed estimate shows in the error banner and starts nothing;
 * - a Re-run of a job without a reference carries "Re-run of job_…", and the job page and the
 *   jobs list link to the parent job; a project's job links to its project's jobs;
 * - the jobs list shows the fill (the summary's volume utilisation) and fits the window;
 * axe-core finds no serious or critical violation on the job page with its dialog open and on the
 * jobs list.
 */
import t from 'tap';
import type { BrowserContext, Locator, Page, Request } from 'playwright-core';
import { orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { invite } from '../helpers/web-session.js';
import { acceptInvitation } from '../helpers/web-invitation.js';
import { WALK_PASSWORD, offScreen, webAppWalk } from '../helpers/web-app-browser.js';
import { axeCheck } from '../helpers/axe.js';
import { credits, percent } from '../../webapp/src/playground/format.js';

/** A request without a reference: a re-run of it gets "Re-run of job_…". */
const REQUEST = {
  vehicles: [{ id: 'van', type: 'truck', name: 'Van', length: 300, width: 180, height: 180, max_weight: 1000 }],
  items: [{ id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 6 }],
  options: { packing_mode: 'fleet_only', time_limit: 10 },
};
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
];

const walk = webAppWalk(t, 'web-app-provenance', 'billed actions and provenance');
if (walk) {
  const { run, browser } = walk;
  let key = '';
  let job: any;
  let project: any;
  let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;

  const keyCall = (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> =>
    call(run.service.url, key, method, path, body);
  /** How many jobs the organization has (GET /v1/jobs). */
  const jobCount = async (): Promise<number> => (await keyCall('GET', '/v1/jobs?limit=100')).body.data.length;

  t.before(async () => {
    const org = await orgWithKey(run.service, { name: 'Provenance Freight' });
    key = org.key;
    job = (await keyCall('POST', '/v1/pack?wait=60', REQUEST)).body;
    project = (
      await keyCall('POST', '/v1/projects', {
        name: 'Depot run',
        vehicles: [{ vehicle_id: 'van-3-5t', quantity: 1 }],
        items: [{ label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 3 }],
        options: { time_limit: 10 },
      })
    ).body;
    const token = await invite(run.service, org.orgId, 'owner@provenance.test', 'owner');
    const context = await walk
      .browser()
      .newContext({ viewport: { width: 1280, height: 900 }, baseURL: run.service.url });
    const page = await context.newPage();
    await acceptInvitation(page, `/app/invitations/${token}`, 'Pia', WALK_PASSWORD);
    signedIn = await context.storageState();
    await context.close();
  });

  /** Opens the job page of `id` and waits until it shows the job succeeded. */
  async function openJob(page: Page, id: string): Promise<void> {
    await page.goto(`/app/jobs/${id}`);
    await page.locator(`[data-job-id="${id}"] [data-status="succeeded"]`).waitFor({ timeout: 60_000 });
  }

  /** True when `locator` lies inside the page's viewport as it is scrolled now (offScreen). */
  async function inWindow(page: Page, locator: Locator): Promise<boolean> {
    const size = page.viewportSize()!;
    return (await offScreen(locator, size.width, size.height, 'none')) === null;
  }

  /**
   * Clicks `button` and waits for the confirmation: the estimate the page asked for (its body and
   * answer) and the dialog's charge sentence.
   */
  async function askPrice(page: Page, click: () => Promise<void>): Promise<{ sent: any; answer: any; text: string }> {
    const [estimated] = await Promise.all([
      page.waitForRequest((r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === '/v1/estimate'),
      click(),
    ]);
    const answer = await (await estimated.response())!.json();
    const charge = page.getByRole('dialog').locator('[data-field="charge"]');
    await charge.waitFor();
    return { sent: estimated.postDataJSON(), answer, text: (await charge.textContent()) ?? '' };
  }

  for (const viewport of VIEWPORTS) {
    t.test(`${viewport.width}×${viewport.height}`, async (t) => {
      const context = await browser().newContext({ viewport, baseURL: run.service.url, storageState: signedIn });
      t.teardown(() => context.close());
      const page = await context.newPage();

      await t.test('Re-run shows at most its price first; Cancel starts nothing, confirming starts it', async (t) => {
        await openJob(page, job.id);
        const before = await jobCount();
        const rerun = page.getByRole('button', { name: 'Re-run' });
        const asked = await askPrice(page, () => rerun.click());
        const body = { ...REQUEST, reference: `Re-run of ${job.id}` };
        t.same(asked.sent, body, 'the estimate is of the body the re-run sends');
        const price = (await keyCall('POST', '/v1/estimate', body)).body.estimated_cost.max_credits;
        t.ok(price > 0, 'the re-run costs something');
        t.match(asked.text, `at most ${credits(price)}`, 'the dialog says at most the estimated price');
        const dialog = page.getByRole('dialog');
        t.ok(await inWindow(page, dialog), 'the confirmation lies inside the window');
        const axe = await axeCheck(t, page, 'the job page with the Re-run confirmation');
        if (axe) t.same(axe.blocking, [], 'axe-core: no serious or critical violation');

        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden' });
        t.equal(await jobCount(), before, 'Cancel leaves no job');

        await askPrice(page, () => rerun.click());
        await page.getByRole('dialog').getByRole('button', { name: 'Re-run' }).click();
        await page.waitForURL(
          (url) => /\/app\/jobs\/job_[a-z0-9]+$/.test(url.pathname) && !url.pathname.endsWith(job.id),
        );
        const newId = /job_[a-z0-9]+$/.exec(new URL(page.url()).pathname)![0];
        t.equal(await jobCount(), before + 1, 'confirming starts one job');
        const created = (await keyCall('GET', `/v1/jobs/${newId}?wait=60`)).body;
        t.equal(created.reference, `Re-run of ${job.id}`, 'the new job names its parent in its reference');

        // The job page: the reference and a link to the parent job.
        await openJob(page, newId);
        t.equal(await page.locator('[data-field="reference"]').first().textContent(), `Re-run of ${job.id}`);
        const parent = page.locator('[data-field="origin"]').getByRole('link', { name: job.id });
        t.equal(await parent.getAttribute('href'), `/app/jobs/${job.id}`, 'the job page links to the parent');
        t.ok(await inWindow(page, parent), 'the parent link is visible in the window');
        const pageAxe = await axeCheck(t, page, 'the job page of a re-run');
        if (pageAxe) t.same(pageAxe.blocking, [], 'axe-core: no serious or critical violation');
      });

      await t.test('a failed estimate shows in the banner and starts nothing', async (t) => {
        await openJob(page, job.id);
        const before = await jobCount();
        await page.route('**/v1/estimate', (route) =>
          route.fulfill({ status: 503, json: { error: { code: 'unavailable', message: 'estimates are down' } } }),
        );
        t.teardown(() => page.unrouteAll());
        await page.getByRole('button', { name: 'Re-run' }).click();
        const banner = page.getByRole('alert').filter({ hasText: 'estimates are down' });
        await banner.waitFor();
        t.ok(await banner.isVisible(), 'the estimate failure is shown');
        t.equal(await page.getByRole('dialog').count(), 0, 'no confirmation');
        t.equal(await jobCount(), before, 'no job');
      });

      await t.test('Re-plan from step K shows at most its price first; Cancel starts nothing', async (t) => {
        await openJob(page, job.id);
        const before = await jobCount();
        const form = page.locator('form.replan-form');
        await form.getByLabel('Step K').fill('2');
        const asked = await askPrice(page, () => page.getByRole('button', { name: 'Re-plan from step K' }).click());
        t.equal(
          asked.sent.reference,
          `Re-plan of ${job.id} from step 2 of vehicle 1`,
          'the reference names the parent',
        );
        t.equal(asked.sent.vehicles[0].loaded.length, 2, 'the estimate is of the re-plan: 2 units pinned');
        t.match(asked.text, `at most ${credits(asked.answer.estimated_cost.max_credits)}`);
        await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
        await page.getByRole('dialog').waitFor({ state: 'hidden' });
        t.equal(await jobCount(), before, 'Cancel leaves no job');
      });

      await t.test("a project's Pack shows at most its price first; Cancel starts nothing", async (t) => {
        await page.goto('/app/projects');
        const before = await jobCount();
        const asked = await askPrice(page, () => page.getByRole('button', { name: 'Pack Depot run' }).click());
        const price = (await keyCall('POST', '/v1/estimate', asked.sent)).body.estimated_cost.max_credits;
        t.equal(asked.sent.items.length, 1, "the estimate is of the project's request");
        t.match(asked.text, `at most ${credits(price)}`);
        t.ok(await inWindow(page, page.getByRole('dialog')), 'the confirmation lies inside the window');
        await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
        await page.getByRole('dialog').waitFor({ state: 'hidden' });
        t.equal(await jobCount(), before, 'Cancel leaves no job');
      });

      await t.test('the jobs list shows fill and where a job comes from, and fits the window', async (t) => {
        await page.goto('/app/jobs');
        const row = page
          .locator(`tr[data-job-id]`)
          .filter({ has: page.getByRole('link', { name: job.id }) })
          .first();
        await row.waitFor();
        const fill = row.locator('[data-field="fill"]');
        t.equal(await fill.textContent(), percent(job.summary.volume_utilization), 'the fill of the summary');
        const rerunRow = page
          .locator('tr[data-job-id]')
          .filter({ hasText: `Re-run of ${job.id}` })
          .first();
        t.equal(
          await rerunRow.locator('[data-field="reference"]').getByRole('link', { name: job.id }).getAttribute('href'),
          `/app/jobs/${job.id}`,
          'a re-run links to its parent',
        );
        for (const name of ['Job', 'Reference', 'Units placed', 'Vehicles', 'Fill', 'Cost'])
          t.ok(await inWindow(page, page.getByRole('columnheader', { name, exact: true })), `${name} is in the window`);
        const axe = await axeCheck(t, page, 'the jobs list');
        if (axe) t.same(axe.blocking, [], 'axe-core: no serious or critical violation');
      });
    });
  }

  t.test("a project's confirmed Pack starts its job, whose page links to the project's jobs", async (t) => {
    const context = await browser().newContext({
      viewport: VIEWPORTS[1],
      baseURL: run.service.url,
      storageState: signedIn,
    });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.goto('/app/projects');
    const before = await jobCount();
    await askPrice(page, () => page.getByRole('button', { name: 'Pack Depot run' }).click());
    await page.getByRole('dialog').getByRole('button', { name: 'Pack', exact: true }).click();
    await page.waitForURL(/\/app\/jobs\/job_[a-z0-9]+$/);
    const newId = /job_[a-z0-9]+$/.exec(new URL(page.url()).pathname)![0];
    t.equal(await jobCount(), before + 1, 'one job');
    await openJob(page, newId);
    const link = page.locator('[data-field="origin"]').getByRole('link', { name: project.id });
    t.equal(await link.getAttribute('href'), `/app/jobs?project_id=${project.id}`, "a link to the project's jobs");
    t.ok(await inWindow(page, link), 'visible in the window');
    await page.locator('[data-field="origin"]', { hasText: 'Depot run' }).waitFor();
    t.match(
      await page.locator('[data-field="origin"]').textContent(),
      `Packed from project Depot run ${project.id}`,
      'the project named',
    );
  });
}
