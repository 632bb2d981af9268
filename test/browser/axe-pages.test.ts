/**
 * Accessibility of every page (WCAG checks by axe-core, a devDependency): the real service in
 * process (embedded profile) serving the built web app and viewer, headless Chromium driven by
 * playwright-core. An owner who accepted an operator's invitation is signed in; another invitation
 * is left pending; a small job is run to its end. Each page of test/helpers/web-pages.ts (sign-in,
 * the pending invitation, the playground, the jobs and that job, vehicles, templates, projects,
 * the console's keys, members, account and webhooks where the web app has it, /docs and the
 * job's 3D viewer) is opened, let settle, and checked: no serious or critical violation. The
 * counts per impact and the rules found are printed as comments.
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { ensureBuild, VIEWER, WEBAPP } from '../../scripts/front-end-builds.js';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { browserCall, cookieOf, invite } from '../helpers/web-session.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { axeFindings, axeSource, blocking, countByImpact, findingLine, IMPACTS } from '../helpers/axe.js';
import { openWebPage, pathOf, webPages, type PageFixtures } from '../helpers/web-pages.js';

const PASSWORD = 'correct horse battery staple';
const JOB = {
  reference: 'axe-pages',
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [
    { id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 20 },
    { id: 'crate', length: 120, width: 80, height: 100, weight: 150, quantity: 2 },
  ],
  options: { time_limit: 3 },
};

const axe = axeSource();
if (!existsSync(CHROMIUM) || axe === null) {
  const reason = !existsSync(CHROMIUM)
    ? `no accessibility check of the pages: ${CHROMIUM} is not installed`
    : 'no accessibility check of the pages: axe-core is not installed (npm ci installs the devDependency)';
  t.comment(reason);
  t.pass('axe-core on every page', { skip: reason });
} else {
  const run = inProcessService(t, 'axe-pages');
  let browser: Browser;
  let signedIn: BrowserContext;
  let signedOut: BrowserContext;
  let fixtures: PageFixtures;

  t.before(async () => {
    t.not(await ensureBuild(WEBAPP, 'stale'), 'missing', 'the web app is built');
    t.not(await ensureBuild(VIEWER, 'stale'), 'missing', 'the viewer is built');
    const { orgId, key } = await orgWithKey(run.service, { name: 'Acme Freight' });
    const ownerToken = await invite(run.service, orgId, 'owner@example.com', 'owner');
    const accepted = await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${ownerToken}/accept`, {
      name: 'Olga Owner',
      password: PASSWORD,
    });
    if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);
    const [name, value] = cookieOf(accepted).split('=') as [string, string];
    const posted = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', JOB);
    if (posted.body.status !== 'succeeded')
      throw new Error(`the job did not succeed: ${JSON.stringify(posted.body).slice(0, 400)}`);
    fixtures = {
      invitationToken: await invite(run.service, orgId, 'mia@example.com'),
      jobId: posted.body.id,
      viewerPath: pathOf(posted.body.viewer_url),
    };
    browser = await launchChromium({ webgl: true });
    // bypassCSP: axe-core's script is added to pages whose policy allows only their own scripts.
    const options = { viewport: { width: 1280, height: 800 }, bypassCSP: true };
    signedIn = await browser.newContext(options);
    await signedIn.addCookies([{ name, value, url: run.service.url }]);
    signedOut = await browser.newContext(options);
  });
  t.teardown(async () => {
    await browser?.close();
  });

  t.test('every page: no serious or critical axe-core violation', async (t) => {
    for (const visit of webPages(fixtures)) {
      await t.test(visit.name, async (t) => {
        const page = await (visit.signedIn ? signedIn : signedOut).newPage();
        t.teardown(() => page.close());
        const problems: string[] = [];
        page.on('pageerror', (e) => problems.push(e.message));
        if (!(await openWebPage(page, run.service.url, visit))) {
          t.comment(`${visit.name}: no such page in this web app (${visit.path})`);
          t.pass(`${visit.name}: skipped, the web app has no ${visit.path}`);
          return;
        }
        const findings = await axeFindings(page, axe);
        const counts = countByImpact(findings);
        t.comment(
          `${visit.name}: ${IMPACTS.map((i) => `${counts[i]} ${i}`).join(', ')}${findings.length ? ` — ${findings.map(findingLine).join(', ')}` : ''}`,
        );
        t.same(
          blocking(findings).map((f) => ({ id: f.id, impact: f.impact, help: f.help, targets: f.targets })),
          [],
          `${visit.name} (${visit.path.split('?')[0]}): no serious or critical violation`,
        );
        t.same(problems, [], `${visit.name}: the page threw nothing`);
      });
    }
  });
}
