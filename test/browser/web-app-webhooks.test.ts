/**
 * The owner's Webhooks page in a real browser (roles): the real service in process serving the
 * built web app, headless Chromium through the page's accessible names. The owner adds an
 * endpoint (the signing secret shown once, gone after a reload), a job's delivery is listed under
 * the endpoint's deliveries, an endpoint whose creator was removed shows "disabled: its creator
 * was removed", axe-core finds no serious or critical violation, and the owner deletes the
 * endpoint after a confirmation. A member has no Webhooks link and the page tells them it is the
 * owner's. Screenshot: test-artifacts/web/webhooks.png.
 */
import t from 'tap';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { createApiKey } from '../../application/provision.js';
import { ensureBuild, WEBAPP } from '../../scripts/front-end-builds.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { acceptedMember, browserCall, invite } from '../helpers/web-session.js';
import { acceptInvitation } from '../helpers/web-invitation.js';
import { readmePictureDir } from '../helpers/readme-pictures.js';
import { axeCheck } from '../helpers/axe.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/web/', import.meta.url));
const PASSWORD = 'correct horse battery';
const PACK = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: [{ length: 10, width: 10, height: 10, weight: 1 }],
  options: { time_limit: 5 },
};

if (!existsSync(CHROMIUM)) {
  const reason = `no browser check of the Webhooks page: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('webhooks page in a browser', { skip: reason });
} else {
  const run = inProcessService(t, 'web-webhooks-browser', {
    webhooks: { allowPrivateTargets: true, retryBaseMs: 50, pollMs: 20 },
  });
  let browser: Browser;
  let page: Page;
  let receiver: WebhookReceiver;
  let org: Awaited<ReturnType<typeof orgWithKey>>;
  const problems: string[] = [];
  const url = (path: string): string => `${run.service.url}${path}`;

  t.before(async () => {
    t.equal(await ensureBuild(WEBAPP, 'stale'), 'fresh', 'the web app is built');
    mkdirSync(ARTIFACTS, { recursive: true });
    org = await orgWithKey(run.service, { name: 'Hooked Freight' });
    receiver = await startWebhookReceiver();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  });
  t.teardown(async () => {
    await browser?.close();
    await receiver?.close();
  });

  t.test('the owner adds an endpoint: listed, its secret shown once', async (t) => {
    const token = await invite(run.service, org.orgId, 'owner@hooked.example', 'owner');
    await acceptInvitation(page, url(`/app/invitations/${token}`), 'Olga Owner', PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No endpoints yet.').waitFor();

    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel(/^job\.canceled/).uncheck();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByLabel('Signing secret', { exact: true }).innerText()).trim();
    t.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/, 'the secret is shown');
    const row = page.getByRole('row', { name: new RegExp(receiver.url.replace(/[.]/g, '\\.')) });
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    t.equal(cells[0], 'job.succeeded, job.failed', 'the events chosen');
    t.match(cells[1], /by Olga Owner$/, 'created by the owner');
    t.equal(cells[2], 'active');
    const listed = await browserCall(run.service.url, null, 'GET', '/v1/webhook_endpoints').catch(() => null);
    t.equal(listed?.status, 401, 'the list needs a session or a key');
    const byKey = await call(run.service.url, org.key, 'GET', '/v1/webhook_endpoints');
    t.same(
      byKey.body.data.map((e: { url: string; events: string[] }) => [e.url, e.events]),
      [[receiver.url, ['job.succeeded', 'job.failed']]],
      'registered as shown',
    );

    const axe = await axeCheck(t, page, 'the webhooks page with the secret shown');
    if (axe) t.same(axe.blocking, [], 'axe-core: no serious or critical violation with the secret shown');

    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    await page.reload();
    await row.waitFor();
    t.notOk((await page.content()).includes(secret), 'the secret is not shown again');
  });

  t.test("a job's delivery is listed; an endpoint whose creator was removed shows why it is disabled", async (t) => {
    const job = (await call(run.service.url, org.key, 'POST', '/v1/pack?wait=60', PACK)).body;
    await receiver.until((r) => r.some((w) => w.body.includes(job.id)));

    const { session } = await acceptedMember(run.service, org.orgId, 'eve@hooked.example', { name: 'Eve' });
    const eveKey = await createApiKey(run.service.services.store, {
      orgId: org.orgId,
      memberId: session.user.id,
      name: 'eve',
      now: new Date().toISOString(),
    });
    await run.service.services.projections.waitFor(eveKey.position);
    const evesUrl = `${receiver.url}/eve`;
    t.equal(
      (
        await call(run.service.url, eveKey.secret, 'POST', '/v1/webhook_endpoints', {
          url: evesUrl,
          events: ['job.succeeded'],
        })
      ).status,
      201,
    );
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
    await page.getByRole('button', { name: 'Remove Eve' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
    await page.getByRole('row', { name: /Eve/ }).waitFor({ state: 'detached' });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    const evesRow = page.getByRole('row', { name: new RegExp(`${evesUrl.replace(/[.]/g, '\\.')}`) });
    await evesRow.waitFor();
    const evesCells = await evesRow.getByRole('cell').allInnerTexts();
    t.match(evesCells[1], /by Eve$/, 'created by Eve');
    t.equal(evesCells[2], 'disabled: its creator was removed');

    await page.getByRole('button', { name: `Deliveries of ${receiver.url}`, exact: true }).click();
    const deliveries = page.getByRole('table', { name: `Recent deliveries to ${receiver.url}` });
    const delivery = deliveries.getByRole('row', { name: new RegExp(job.id) });
    await delivery.waitFor();
    t.same(
      await delivery
        .getByRole('cell')
        .allInnerTexts()
        .then((c) => c.slice(0, 4)),
      [job.id, 'succeeded', '1', 'HTTP 200'],
      'the delivery, its status, attempts and last answer',
    );
    const axe = await axeCheck(t, page, 'the webhooks page with the deliveries open');
    if (axe) t.same(axe.blocking, [], 'axe-core: no serious or critical violation with the deliveries open');
    await page.screenshot({ path: join(ARTIFACTS, 'webhooks.png'), fullPage: true });
    const picture = join(readmePictureDir(), 'web-webhooks.png');
    await page.screenshot({ path: picture, clip: { x: 0, y: 0, width: 1280, height: 720 } });
    t.ok(
      statSync(picture).size < 150 * 1024,
      `the README's webhooks picture stays under 150 KB (${statSync(picture).size} B)`,
    );
  });

  t.test('the owner deletes an endpoint after a confirmation', async (t) => {
    await page.getByRole('button', { name: `Delete ${receiver.url}`, exact: true }).click();
    const dialog = page.getByRole('dialog');
    t.match(await dialog.innerText(), /Nothing more is sent to it/);
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByRole('button', { name: `Delete ${receiver.url}`, exact: true }).waitFor({ state: 'detached' });
    const left = await call(run.service.url, org.key, 'GET', '/v1/webhook_endpoints');
    t.same(
      left.body.data.map((e: { url: string }) => e.url),
      [`${receiver.url}/eve`],
      'only the disabled one is left',
    );
  });

  t.test('a member has no Webhooks page', async (t) => {
    const context = await browser.newContext();
    try {
      const member = await context.newPage();
      const token = await invite(run.service, org.orgId, 'max@hooked.example');
      await acceptInvitation(member, url(`/app/invitations/${token}`), 'Max', PASSWORD);
      t.equal(
        await member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).count(),
        0,
        'no link',
      );
      await member.goto(url('/app/console/webhooks'));
      await member.getByRole('heading', { name: 'For the owner only' }).waitFor();
      t.pass('the page is the owner’s');
    } finally {
      await context.close();
    }
    t.same(problems, [], 'no page errors');
  });
}
