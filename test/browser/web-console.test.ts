/**
 * The web app's console and saved data in a real browser (items "sign-in", "API keys",
 * "saved data"): the real service in process (embedded profile) serving the built web app,
 * headless Chromium driven by playwright-core through the pages' accessible names. The owner
 * accepts an operator's invitation, signs out and in (a wrong password first), creates, rotates
 * and revokes an API key (each secret checked against /v1/balance), and saves a vehicle whose
 * refused height shows the service's message next to the Height input, saves a project through
 * its slot and item tables (an item problem in its cell, ids kept on edit), invites a member whose
 * pages lack the console, and removes them (signed out at once).
 * Screenshots go to test-artifacts/web/, and docs/img/web-keys.png and web-vehicles.png for the
 * README.
 */
import t from 'tap';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { ensureBuild, WEBAPP } from '../../scripts/front-end-builds.js';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { invite } from '../helpers/web-session.js';
import { readmePictureDir } from '../helpers/readme-pictures.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/web/', import.meta.url));
const DOC_IMAGES = readmePictureDir();
const PASSWORD = 'correct horse battery';

if (!existsSync(CHROMIUM)) {
  const reason = `no browser check of the web app: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('web console in a browser', { skip: reason });
} else {
  const run = inProcessService(t, 'web-console-browser');
  let browser: Browser;
  let page: Page;
  let orgId: string;
  let key: string;
  const problems: string[] = [];

  t.before(async () => {
    t.equal(await ensureBuild(WEBAPP, 'stale'), 'fresh', 'the web app is built');
    mkdirSync(ARTIFACTS, { recursive: true });
    ({ orgId, key } = await orgWithKey(run.service, { name: 'Acme Freight' }));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  });
  t.teardown(async () => {
    await browser?.close();
  });

  const url = (path: string): string => `${run.service.url}${path}`;
  const balanceStatus = async (secret: string): Promise<number> =>
    (await call(run.service.url, secret, 'GET', '/v1/balance')).status;

  t.test('the owner accepts the invitation and lands in the playground', async (t) => {
    const token = await invite(run.service, orgId, 'owner@example.com', 'owner');
    await page.goto(url('/app/vehicles'));
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    t.match(new URL(page.url()).pathname, '/app/sign-in', 'a signed-out visitor is sent to sign in');

    await page.goto(url(`/app/invitations/${token}`));
    await page.getByRole('heading', { name: 'Join Acme Freight' }).waitFor();
    await page.getByLabel('Your name').fill('Olga Owner');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat password').fill(`${PASSWORD}!`);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    t.match(
      await page.locator('.field-error').first().innerText(),
      'the two passwords differ',
      'different passwords are caught before sending',
    );
    await page.getByLabel('Repeat password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.waitForURL('**/app/playground');
    const banner = page.getByRole('banner');
    t.match(
      await banner.innerText(),
      /Acme Freight[\s\S]*Olga Owner[\s\S]*owner/,
      'the header names the organization and the member',
    );
    const nav = page.getByRole('navigation', { name: 'Main' });
    t.same(
      await nav.getByRole('link').allInnerTexts(),
      ['Playground', 'Jobs', 'Vehicles', 'Templates', 'Projects', 'API keys', 'Members', 'Webhooks', 'Account'],
      'the owner has the console',
    );
  });

  t.test('sign out, a wrong password, then sign in back to the page asked for', async (t) => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto(url('/app/console/keys'));
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.keyboard.press('Tab');
    t.same(
      await page.evaluate(
        '[document.activeElement.id === document.querySelector("label").htmlFor, getComputedStyle(document.activeElement).outlineStyle]',
      ),
      [true, 'solid'],
      'Tab reaches the email field first, with a visible focus outline',
    );
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    t.match(await page.getByRole('alert').innerText(), 'wrong email or password');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    t.match(new URL(page.url()).pathname, '/app/console/keys', 'back on the page asked for');
  });

  t.test('API keys: create (secret shown once and working), rotate, revoke', async (t) => {
    await page.getByLabel('Key name').fill('CI server');
    const scopes = page.getByRole('group', { name: 'Scopes' }).getByRole('checkbox');
    t.equal(await scopes.count(), 7, 'every scope offered');
    for (const box of await scopes.all()) t.ok(await box.isChecked(), 'ticked by default');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretBox = page.getByLabel('Key secret');
    await secretBox.waitFor();
    const secret = (await secretBox.innerText()).trim();
    t.match(secret, /^\S{40,}$/, 'the secret is shown');
    t.equal(await balanceStatus(secret), 200, 'the new secret works');
    const row = page.getByRole('row', { name: /CI server/ });
    await row.waitFor();
    t.match(
      await row.innerText(),
      /all[\s\S]*never[\s\S]*any[\s\S]*active/,
      'listed with every scope, no expiry, any address',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'keys-created.png') });
    await page.screenshot({ path: join(DOC_IMAGES, 'web-keys.png'), clip: { x: 0, y: 0, width: 1280, height: 720 } });

    await page.getByRole('button', { name: 'Rotate CI server' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate key' }).click();
    await page.getByRole('heading', { name: 'New secret of “CI server”' }).waitFor();
    const rotated = (await page.getByLabel('Key secret').innerText()).trim();
    t.not(rotated, secret, 'a new secret');
    t.equal(await balanceStatus(secret), 401, 'the old secret stopped');
    t.equal(await balanceStatus(rotated), 200, 'the new secret works');

    await page.getByRole('button', { name: 'Revoke CI server' }).click();
    const dialog = page.getByRole('dialog');
    t.match(await dialog.innerText(), 'cannot be undone', 'revoking asks first');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('revoked').waitFor();
    t.equal(await balanceStatus(rotated), 401, 'the revoked key is refused');
    t.equal(await page.getByRole('button', { name: 'Revoke CI server' }).count(), 0, 'no actions on a revoked key');
  });

  t.test('account: balance, usage charts with their tables, limits and rate card', async (t) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    const balance = page.getByRole('region', { name: 'Balance' });
    await balance.getByText('credits available').waitFor();
    t.match(
      await balance.innerText(),
      /100\s+credits available[\s\S]*100\s+subscription credits[\s\S]*0\s+purchased credits[\s\S]*0\s+held for running jobs/,
      'the balance of the organization (100 subscription credits)',
    );
    await page.getByText('Show “Credits per day” as a table').click();
    const days = page.getByRole('table', { name: 'Credits per day' }).locator('tbody tr');
    t.equal(await days.count(), 30, 'a row per day of the last 30');
    t.ok(await page.getByRole('region', { name: 'Rate card' }).isVisible(), 'the rate card is shown');
    await page.screenshot({ path: join(ARTIFACTS, 'account.png'), fullPage: true });
  });

  t.test('a vehicle: the refused height shown next to its field, then saved', async (t) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vehicles' }).click();
    await page.getByRole('heading', { name: 'Vehicles', level: 1 }).waitFor();
    // The list loads after the heading: wait for its first row (the count raced it once).
    await page
      .getByRole('button', { name: /^Copy / })
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    t.ok((await page.getByRole('button', { name: /^Copy / }).count()) > 0, 'presets are listed, read-only');
    await page.getByRole('button', { name: 'New vehicle' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Box van');
    await page.getByLabel('Type').selectOption('truck');
    await page.getByLabel('Length (cm)', { exact: true }).fill('420');
    await page.getByLabel('Width (cm)', { exact: true }).fill('200');
    const height = page.getByLabel('Height (cm)', { exact: true });
    await height.fill('-5');
    await page.getByLabel('Max payload (kg)').fill('1200');
    await page.getByRole('button', { name: 'Save vehicle' }).click();
    await page.locator('.field-invalid').first().waitFor();
    t.equal(await height.getAttribute('aria-invalid'), 'true', 'the height input is marked invalid');
    const describedBy = (await height.getAttribute('aria-describedby')) ?? '';
    const message = await page.locator(`[id="${describedBy.split(' ').pop()}"]`).innerText();
    t.match(message, /got -5/, 'the service message is tied to the Height input');
    const invalid = await page.locator('.field-invalid label').allInnerTexts();
    t.same(invalid, ['Height (cm)'], 'only the height is marked');
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-refused.png') });
    await page.screenshot({
      path: join(DOC_IMAGES, 'web-vehicles.png'),
      clip: { x: 0, y: 0, width: 1280, height: 620 },
    });

    await height.fill('210');
    await page.getByRole('button', { name: 'Save vehicle' }).click();
    await page.getByText(/Saved vehicle “Box van”/).waitFor();
    await page.getByRole('button', { name: 'Edit Box van' }).waitFor();
    const saved = await call(run.service.url, key, 'GET', '/v1/vehicles?q=Box%20van');
    t.same(
      saved.body.data.map((v: any) => [v.name, v.type, v.length, v.width, v.height, v.max_weight, v.created_by?.name]),
      [['Box van', 'truck', 420, 200, 210, 1200, 'Olga Owner']],
      'saved through /v1 as the signed-in member',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'vehicles.png'), fullPage: true });

    await page.getByLabel('Search vehicles').fill('box');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page
      .getByRole('button', { name: /^Copy / })
      .first()
      .waitFor({ state: 'detached' });
    t.same(
      await page
        .locator('tbody th[scope="row"]')
        .allInnerTexts()
        .then((rows) => rows.map((r) => r.split('\n')[0]!.trim())),
      ['Box van'],
      'the search leaves only the matching vehicle',
    );
  });

  t.test('a project: slot and item tables, an item problem in its cell, ids kept on edit', async (t) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('button', { name: 'New project' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Monday run');
    await page.getByRole('button', { name: 'Add vehicle slot' }).click();
    await page.getByLabel('Vehicle of vehicle slot 1').fill('van-3-5t');
    await page.getByLabel('Quantity of vehicle slot 1').fill('1');
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.getByLabel('Label of item 1').fill('Crate');
    await page.getByLabel('Length (cm) of item 1').fill('60');
    await page.getByLabel('Width (cm) of item 1').fill('40');
    const height = page.getByLabel('Height (cm) of item 1');
    await height.fill('-1');
    await page.getByLabel('Weight (kg) of item 1').fill('12');
    await page.getByLabel('Quantity of item 1').fill('10');
    await page.getByRole('button', { name: 'Save project' }).click();
    await page.locator('.field-invalid').first().waitFor();
    t.equal(await height.getAttribute('aria-invalid'), 'true', 'the item height cell is marked invalid');
    await page.screenshot({ path: join(ARTIFACTS, 'project-refused.png'), fullPage: true });
    await height.fill('40');
    await page.getByRole('button', { name: 'Save project' }).click();
    await page.getByText(/Saved project “Monday run”/).waitFor();
    const listed = (await call(run.service.url, key, 'GET', '/v1/projects?q=Monday')).body.data;
    t.equal(listed.length, 1);
    const project = listed[0];
    t.same(
      [
        project.vehicles.map((v: any) => [v.vehicle_id, v.quantity]),
        project.items.map((i: any) => [i.label, i.length, i.width, i.height, i.weight, i.quantity]),
      ],
      [[['van-3-5t', 1]], [['Crate', 60, 40, 40, 12, 10]]],
      'the project holds the slot and the item',
    );

    await page.getByRole('button', { name: 'Edit Monday run' }).click();
    await page.getByLabel('Quantity of item 1').fill('12');
    await page.getByRole('button', { name: 'Save project' }).click();
    await page.getByText(/Saved project “Monday run”/).waitFor();
    await page.getByRole('button', { name: 'New project' }).waitFor();
    const after = (await call(run.service.url, key, 'GET', `/v1/projects/${project.id}`)).body;
    t.same(
      [after.items[0].id, after.items[0].quantity, after.vehicles[0].id],
      [project.items[0].id, 12, project.vehicles[0].id],
      'the item changed, the ids kept',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'projects.png'), fullPage: true });
  });

  t.test(
    'members: the owner invites through the console, the member has no console, the owner removes them',
    async (t) => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
      await page.getByLabel('Email').fill('mia@example.com');
      await page.getByRole('button', { name: 'Invite' }).click();
      const link = (await page.getByLabel('Invitation URL').innerText()).trim();
      t.match(link, new RegExp(`/app/invitations/\\S+$`), 'the invitation link is shown to copy');
      const context = await browser.newContext({ viewport: { width: 768, height: 1024 } });
      try {
        const member = await context.newPage();
        member.on('pageerror', (e) => problems.push(`page error (member): ${e.message}`));
        await member.goto(url(new URL(link).pathname));
        await member.getByLabel('Your name').fill('Mia Member');
        await member.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await member.getByLabel('Repeat password').fill(PASSWORD);
        await member.getByRole('button', { name: 'Accept invitation' }).click();
        await member.waitForURL('**/app/playground');
        // The navigation draws once the session is read: its first link, then every link.
        const nav = member.getByRole('navigation', { name: 'Main' });
        await nav.getByRole('link', { name: 'Playground' }).waitFor();
        t.same(
          await nav.getByRole('link').allInnerTexts(),
          ['Playground', 'Jobs', 'Vehicles', 'Templates', 'Projects'],
          'no console links',
        );
        await member.goto(url('/app/console/keys'));
        await member.getByRole('heading', { name: 'For the owner only' }).waitFor();
        await member.screenshot({ path: join(ARTIFACTS, 'member-tablet.png') });

        await page.reload();
        const row = page.getByRole('row', { name: /Mia Member/ });
        await row.waitFor();
        t.equal(await page.getByRole('button', { name: /^Remove Olga/ }).count(), 0, 'the owner has no Remove button');
        await page.getByRole('button', { name: 'Remove Mia Member' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
        await row.waitFor({ state: 'detached' });
        await member.goto(url('/app/vehicles'));
        await member.getByRole('heading', { name: 'Sign in' }).waitFor();
        t.pass('the removed member is signed out');
      } finally {
        await context.close();
      }
    },
  );

  t.test('the README images are small and the pages threw nothing', async (t) => {
    for (const f of ['web-keys.png', 'web-vehicles.png'])
      t.ok(statSync(join(DOC_IMAGES, f)).size <= 150_000, `${f} ≤ 150 KB`);
    t.same(problems, []);
  });
}
