/**
 * Row actions behind a confirmation dialog in a real browser (headless Chromium through
 * playwright-core, the real service in process serving the built web app): on the members page
 * the owner cancels, then withdraws a pending invitation (gone from the list); a withdrawal that
 * fails (the invitation was withdrawn elsewhere meanwhile) reloads the list; a password reset for
 * a member removed elsewhere meanwhile shows the API error in the members section's banner; the
 * owner creates a password-reset link for a member (the link shown, the reset listed as
 * pending); on the vehicles page a saved vehicle is deleted (the notice, gone from the list and
 * from GET /v1/vehicles).
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { issueInvitation, revokeInvitation } from '../../application/invitations.js';
import { removeMember } from '../../application/members.js';
import { serviceActor } from '../../domain/decider/actor.js';
import { ensureBuild, WEBAPP } from '../../scripts/front-end-builds.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { acceptedMember, invite } from '../helpers/web-session.js';
import { acceptInvitation } from '../helpers/web-invitation.js';

const PASSWORD = 'correct horse battery';
const TRUCK = { name: 'Doomed truck', type: 'truck', length: 600, width: 240, height: 230, max_weight: 2500 };

if (!existsSync(CHROMIUM)) {
  const reason = `no browser check of the confirmed row actions: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('confirmed row actions in a browser', { skip: reason });
} else {
  const run = inProcessService(t, 'web-console-confirmations');
  let browser: Browser;
  let page: Page;
  let org: Awaited<ReturnType<typeof orgWithKey>>;
  const problems: string[] = [];

  /** Issues an invitation for `email` (as the operator does) and returns its id, after the read models have it. */
  async function pendingInvitation(email: string): Promise<string> {
    const issued = await issueInvitation(run.service.services.store, {
      orgId: org.orgId,
      email,
      role: 'member',
      now: new Date().toISOString(),
      actor: serviceActor('admin'),
    });
    await run.service.services.projections.waitFor(issued.position);
    return issued.invitationId;
  }

  t.before(async () => {
    t.not(await ensureBuild(WEBAPP, 'stale'), 'missing', 'the web app is built');
    org = await orgWithKey(run.service, { name: 'Confirm Freight' });
    t.equal((await call(run.service.url, org.key, 'POST', '/v1/vehicles', TRUCK)).status, 201, 'a saved vehicle');
    await acceptedMember(run.service, org.orgId, 'mia@confirm.test', { name: 'Mia Member' });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, baseURL: run.service.url });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await acceptInvitation(
      page,
      `/app/invitations/${await invite(run.service, org.orgId, 'owner@confirm.test', 'owner')}`,
      'Olga Owner',
      PASSWORD,
    );
  });
  t.teardown(async () => {
    await browser?.close();
  });

  t.test('withdrawing a pending invitation: Cancel keeps it, confirming removes it', async (t) => {
    await pendingInvitation('leo@confirm.test');
    await page.goto('/app/console/members');
    const pending = page.getByRole('region', { name: 'Pending invitations' });
    const row = pending.getByRole('row', { name: /leo@confirm\.test/ });
    await row.waitFor();
    t.match(await row.innerText(), /joining as member/, 'listed as joining');

    await page.getByRole('button', { name: 'Withdraw the invitation of leo@confirm.test' }).click();
    const dialog = page.getByRole('dialog');
    t.equal(
      await dialog.getByRole('heading').innerText(),
      'Withdraw the invitation of leo@confirm.test?',
      'the dialog names the invitation',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    t.equal(await row.count(), 1, 'Cancel withdraws nothing');

    await page.getByRole('button', { name: 'Withdraw the invitation of leo@confirm.test' }).click();
    await dialog.getByRole('button', { name: 'Withdraw invitation' }).click();
    await row.waitFor({ state: 'detached' });
    await pending.getByText('No pending invitations.').waitFor();
    t.equal(await pending.getByRole('alert').count(), 0, 'no error');
  });

  t.test('a withdrawal that fails: the list is reloaded', async (t) => {
    const id = await pendingInvitation('zoe@confirm.test');
    await page.reload();
    const row = page
      .getByRole('region', { name: 'Pending invitations' })
      .getByRole('row', { name: /zoe@confirm\.test/ });
    await row.waitFor();
    // Withdrawn elsewhere while the page still lists it. The section's banner shares its error
    // with the list, so the reload that follows clears it again: only the reload is checked.
    const position = await revokeInvitation(run.service.services.store, {
      orgId: org.orgId,
      invitationId: id,
      now: new Date().toISOString(),
      actor: serviceActor('admin'),
    });
    await run.service.services.projections.waitFor(position);
    await page.getByRole('button', { name: 'Withdraw the invitation of zoe@confirm.test' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Withdraw invitation' }).click();
    await row.waitFor({ state: 'detached' });
    t.pass('the list was reloaded: the invitation is gone');
  });

  t.test('a password reset that fails: the error in the members section', async (t) => {
    const ned = await acceptedMember(run.service, org.orgId, 'ned@confirm.test', { name: 'Ned Gone' });
    await page.goto('/app/console/members');
    const members = page.getByRole('region', { name: /^Members of/ });
    await members.getByRole('row', { name: /Ned Gone/ }).waitFor();
    // Removed elsewhere while the page still lists him.
    await removeMember(run.service.services, org.orgId, ned.session.user.id, serviceActor('admin'));
    await page.getByRole('button', { name: 'Reset the password of Ned Gone' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Create reset link' }).click();
    const alert = members.getByRole('alert');
    await alert.waitFor();
    const text = await alert.innerText();
    t.comment(`the banner: ${text}`);
    t.match(text, /\((not_found|conflict)\)/, 'the banner shows the API error and its code');
    t.equal(await page.getByRole('region', { name: 'Invitation link' }).count(), 0, 'no link shown');
  });

  t.test('a password reset: the link shown, the reset listed as pending', async (t) => {
    await page.goto('/app/console/members');
    await page.getByRole('button', { name: 'Reset the password of Mia Member' }).click();
    const dialog = page.getByRole('dialog');
    t.equal(
      await dialog.getByRole('heading').innerText(),
      'Reset the password of Mia Member?',
      'the dialog names the member',
    );
    await dialog.getByRole('button', { name: 'Create reset link' }).click();
    const link = page.getByRole('region', { name: 'Invitation link' });
    await link.waitFor();
    t.match(
      await link.innerText(),
      /Send this link to mia@confirm\.test to set a new password/,
      'the reset link is shown',
    );
    t.match(await link.getByLabel('Invitation URL').innerText(), /\/app\/invitations\/\S+$/, 'the URL of the reset');
    const row = page
      .getByRole('region', { name: 'Pending invitations' })
      .getByRole('row', { name: /mia@confirm\.test/ });
    await row.waitFor();
    t.match(await row.innerText(), /password reset/, 'listed as a password reset');
  });

  t.test('deleting a saved vehicle: the notice, gone from the list and from the API', async (t) => {
    await page.goto('/app/vehicles');
    const row = page.getByRole('row', { name: /Doomed truck/ });
    await row.waitFor();
    await page.getByRole('button', { name: 'Delete Doomed truck' }).click();
    const dialog = page.getByRole('dialog');
    t.equal(
      await dialog.getByRole('heading').innerText(),
      'Delete vehicle “Doomed truck”?',
      'the dialog names the vehicle',
    );
    await dialog.getByRole('button', { name: 'Delete vehicle' }).click();
    await page.getByText('Deleted vehicle “Doomed truck”.').waitFor();
    await row.waitFor({ state: 'detached' });
    const listed = (await call(run.service.url, org.key, 'GET', '/v1/vehicles?q=Doomed')).body.data;
    t.same(listed, [], 'GET /v1/vehicles no longer lists it');
    t.same(problems, [], 'no page errors');
  });
}
