/**
 * The reference docs (/docs, Swagger UI) beyond the first view that test/browser/axe-pages.test.ts
 * checks: with operations opened, "Try it out" on a request body, a request sent, the schemas
 * and the Authorize dialog open, axe-core finds no serious or critical violation; and the fixes
 * of api/http/routes/docs-accessibility.ts keep Swagger UI working: the servers select is named,
 * no operation's summary button holds a link, deep links still open an operation, "Try it out"
 * still sends. The real service in process, headless Chromium through playwright-core.
 */
import t, { type Test } from 'tap';
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { inProcessService } from '../helpers/in-process-service.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { axeFindings, axeSource, blocking, findingLine } from '../helpers/axe.js';

const axe = axeSource();
if (!existsSync(CHROMIUM) || axe === null) {
  const reason = !existsSync(CHROMIUM)
    ? `no browser check of /docs: ${CHROMIUM} is not installed`
    : 'no accessibility check of /docs: axe-core is not installed (npm ci installs the devDependency)';
  t.comment(reason);
  t.pass('docs accessibility', { skip: reason });
} else {
  const run = inProcessService(t, 'docs-a11y');
  let browser: Browser;
  t.before(async () => {
    browser = await launchChromium();
  });
  t.teardown(async () => {
    await browser?.close();
  });

  /**
   * A fresh page of /docs (axe's script may run: bypassCSP) once the operations have rendered,
   * and the errors it throws (filled as they come).
   */
  const openDocs = async (t: Test, hash = ''): Promise<{ page: Page; thrown: string[] }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const thrown: string[] = [];
    page.on('pageerror', (e) => thrown.push(e.message));
    await page.goto(`${run.service.url}/docs${hash}`);
    await page.waitForSelector('#operations-Service-getHealth');
    return { page, thrown };
  };

  /** The serious and critical axe findings of `page`, one line each. */
  const blockingFindings = async (page: Page): Promise<string[]> =>
    blocking(await axeFindings(page, axe)).map((f) => `${findingLine(f)}: ${f.targets.join(' ; ')}`);

  t.test(
    'opened operations, "Try it out", an answer, the schemas and the Authorize dialog: no serious or critical violation',
    async (t) => {
      const { page, thrown } = await openDocs(t);
      for (const op of ['Jobs-createPackJob', 'Jobs-getJob', 'Service-getHealth']) {
        await page.click(`#operations-${op} .opblock-summary-control`);
        await page.click(`#operations-${op} .try-out__btn`);
      }
      await page.click('#operations-Service-getHealth .execute');
      await page.waitForSelector('#operations-Service-getHealth .live-responses-table');
      await page.click('.models-control');
      await page.waitForSelector('.models.is-open article');
      t.same(await blockingFindings(page), [], 'operations open, trying out, with an answer and the schemas');
      t.equal(
        await page.getAttribute('#operations-Jobs-createPackJob textarea.body-param__text', 'aria-label'),
        'Request body',
        'the request body editor is named',
      );
      t.equal(
        await page
          .locator('#operations-Jobs-getJob tr[data-param-name="include"]')
          .getByRole('combobox', { name: 'include', exact: true })
          .count(),
        1,
        'an enum parameter is named after the parameter',
      );
      t.ok(
        await page.$$eval(
          'pre.example.microlight',
          (pres) => pres.length > 0 && pres.every((p) => p.getAttribute('tabindex') === '0'),
        ),
        'every example block takes the focus',
      );
      t.same(
        await page.$$eval('table.responses-table[role="region"]', (tables) =>
          tables.map((e) => e.getAttribute('aria-label')),
        ),
        ['Responses of POST /v1/pack', 'Responses of GET /v1/jobs/{id}', 'Responses of GET /health'],
        'each responses region is named after its operation',
      );
      await page.click('.btn.authorize');
      await page.waitForSelector('[role="dialog"][aria-label="Available authorizations"] .modal-ux');
      t.same(await blockingFindings(page), [], 'the Authorize dialog open');
      const close = page.locator('.modal-ux-header').getByRole('button', { name: 'Close', exact: true });
      t.equal(await close.count(), 1, "the dialog's close icon button is named");
      await close.click();
      await page.waitForSelector('.modal-ux', { state: 'detached' });
      t.same(thrown, [], 'the page threw nothing');
    },
  );

  t.test('the servers select is named and no summary button holds a link', async (t) => {
    const { page, thrown } = await openDocs(t);
    t.equal(await page.getByRole('combobox', { name: 'Servers' }).count(), 1, 'the servers select is named "Servers"');
    const controls = await page.$$eval('.opblock-summary-control', (buttons) =>
      buttons.map((b) => b.querySelectorAll('a[href], button, input, select, textarea, [tabindex]').length),
    );
    t.ok(controls.length > 30, `${controls.length} operations`);
    t.same(
      controls.filter((n) => n > 0),
      [],
      'no summary button holds a focusable element',
    );
    t.equal(
      await page.textContent('#operations-Jobs-getJob .opblock-summary-control .opblock-summary-path'),
      '/v1/jobs/{id}',
      'the path is shown in the summary, as text',
    );
    t.same(thrown, [], 'the page threw nothing');
  });

  t.test('deep links: opening an operation sets its address, an address opens its operation', async (t) => {
    const { page, thrown } = await openDocs(t);
    await page.click('#operations-Jobs-getJob .opblock-summary-control');
    await page.waitForSelector('#operations-Jobs-getJob.is-open');
    t.equal(await page.evaluate('location.hash'), '#/Jobs/getJob', 'the address names the opened operation');
    const { page: linked, thrown: thrownLinked } = await openDocs(t, '#/Service/getHealth');
    await linked.waitForSelector('#operations-Service-getHealth.is-open');
    t.equal(
      await linked.getAttribute('#operations-Service-getHealth .opblock-summary-control', 'aria-expanded'),
      'true',
      'a page opened at #/Service/getHealth shows that operation open',
    );
    t.same([...thrown, ...thrownLinked], [], 'the pages threw nothing');
  });

  t.test('"Try it out" still sends the request', async (t) => {
    const { page, thrown } = await openDocs(t);
    await page.click('#operations-Service-getHealth .opblock-summary-control');
    await page.click('#operations-Service-getHealth .try-out__btn');
    await page.click('#operations-Service-getHealth .execute');
    await page.waitForSelector('#operations-Service-getHealth .live-responses-table');
    t.equal(
      (
        await page.textContent('#operations-Service-getHealth .live-responses-table tbody .response-col_status')
      )?.trim(),
      '200',
      'GET /health answered 200',
    );
    t.same(thrown, [], 'the page threw nothing');
  });
}
