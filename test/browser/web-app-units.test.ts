/**
 * Units in the web app, in a real browser (headless Chromium through playwright-core, the real
 * service in process): item files whose headers name inches and pounds, or millimetres, import
 * into the playground, and the /v1/estimate request the page sends holds the values converted to
 * cm and kg; a header with an unknown unit shows the problem and imports nothing. The owner then
 * chooses imperial display units on the account page: the vehicle form labels its fields in
 * in and lb, the vehicle saved from it is stored in cm and kg, types outside the plan are
 * disabled, and a file without units in its headers is read in inches and pounds.
 */
import t from 'tap';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { ensureBuild, WEBAPP } from '../../scripts/front-end-builds.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { invite } from '../helpers/web-session.js';
import { acceptInvitation } from '../helpers/web-invitation.js';
import { readmePictureDir } from '../helpers/readme-pictures.js';

const PASSWORD = 'correct horse battery';

if (!existsSync(CHROMIUM)) {
  const reason = `no browser check of units in the web app: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('units in a browser', { skip: reason });
} else {
  const run = inProcessService(t, 'web-units-browser');
  let browser: Browser;
  let page: Page;
  let key: string;
  const problems: string[] = [];

  t.before(async () => {
    t.not(await ensureBuild(WEBAPP, 'stale'), 'missing', 'the web app is built');
    let orgId: string;
    ({ orgId, key } = await orgWithKey(run.service, {
      name: 'Inch & Pound Freight',
      limits: { allowedVehicleTypes: ['truck', 'trailer'] },
    }));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 }, baseURL: run.service.url });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    const token = await invite(run.service, orgId, 'owner@units.test', 'owner');
    await acceptInvitation(page, `/app/invitations/${token}`, 'Olga Owner', PASSWORD);
  });
  t.teardown(async () => {
    await browser?.close();
  });

  /**
   * The items labelled `label` in the next POST /v1/estimate that holds one (an import adds its
   * rows to the playground's table, so earlier imports' items may come first).
   */
  function nextEstimateItems(label: string): Promise<Record<string, unknown>[]> {
    const labelled = (r: Request): Record<string, unknown>[] =>
      ((r.postDataJSON() as { items?: Record<string, unknown>[] } | null)?.items ?? []).filter(
        (item) => item['label'] === label,
      );
    const isIt = (r: Request): boolean =>
      r.method() === 'POST' && r.url().endsWith('/v1/estimate') && labelled(r).length > 0;
    return page.waitForRequest(isIt, { timeout: 15_000 }).then(labelled);
  }

  /** Chooses a CSV file with `text` in the playground's import field. */
  async function importCsv(name: string, text: string): Promise<void> {
    await page
      .getByLabel('Import items from a CSV or Excel (.xlsx) file')
      .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  }

  t.test('inches and pounds, then millimetres: the estimate request carries cm and kg', async (t) => {
    await page.goto('/app/playground');
    await page.getByRole('heading', { level: 1 }).waitFor();
    t.match(
      await page.locator('.pg-import').innerText(),
      /Columns without a unit are read in cm and kg/,
      'a metric organization: unitless columns in cm and kg',
    );

    const inches = nextEstimateItems('Pallet');
    await importCsv(
      'pallets.csv',
      'Label,Length (in),Width (in),Height (in),Weight (lb),Qty,Max stack weight [lbs]\nPallet,48,40,60,550,2,1000\n',
    );
    await page.getByText('Imported 1 item (2 units) from pallets.csv.').waitFor();
    t.same(
      await inches,
      [
        {
          label: 'Pallet',
          length: 121.92,
          width: 101.6,
          height: 152.4,
          weight: 249.4758035,
          quantity: 2,
          max_stack_weight: 453.59237,
        },
      ],
      'a 48 in pallet is 121.92 cm',
    );
    t.same(
      await page.getByRole('list', { name: 'Units converted' }).getByRole('listitem').allInnerTexts(),
      [
        'Length (in): inches → cm (× 2.54)',
        'Width (in): inches → cm (× 2.54)',
        'Height (in): inches → cm (× 2.54)',
        'Weight (lb): pounds → kg (× 0.45359237)',
        'Max stack weight [lbs]: pounds → kg (× 0.45359237)',
      ],
      'the field says what it converted',
    );
    const picture = join(readmePictureDir(), 'web-import-units.png');
    await page.locator('.pg-import').screenshot({ path: picture });
    t.ok(
      statSync(picture).size < 150 * 1024,
      `the README's import picture stays under 150 KB (${statSync(picture).size} B)`,
    );

    const millimetres = nextEstimateItems('Crate');
    await importCsv(
      'crates.csv',
      'label;length [mm];width [MM];height mm;weight (kg);quantity\nCrate;1200;800;1000,5;150;3\n',
    );
    await page.getByRole('button', { name: 'Add to them' }).click(); // the request has the pallets
    await page.getByText('Imported 1 item (3 units) from crates.csv.').waitFor();
    t.same(
      await millimetres,
      [{ label: 'Crate', length: 120, width: 80, height: 100.05, weight: 150, quantity: 3 }],
      'millimetres in cm',
    );
  });

  t.test('an unknown unit is a problem of its header and nothing is imported', async (t) => {
    await importCsv('furlongs.csv', 'label,length (furlongs),width,height,weight (ton),quantity\nOdd,1,1,1,1,1\n');
    await page.getByText('Nothing imported from furlongs.csv: fix these 2 cells and choose the file again.').waitFor();
    t.same(await page.getByRole('list', { name: 'Problems in the file' }).getByRole('listitem').allInnerTexts(), [
      'row 1, column B (length (furlongs)): unknown unit "furlongs": length takes mm, cm, m, in or ft',
      'row 1, column E (weight (ton)): the unit "ton" is ambiguous (a ton is 1000 kg (t), 907 kg (US) or 1016 kg (UK)): weight takes g, kg, t, lb or oz',
    ]);
    t.equal(await page.getByRole('list', { name: 'Units converted' }).count(), 0, 'no conversions listed');
  });

  t.test(
    'the owner chooses imperial: forms in in and lb, stored in cm and kg; types outside the plan disabled',
    async (t) => {
      await page.goto('/app/console/account');
      const section = page.getByRole('region', { name: 'Display units' });
      t.ok(await section.getByLabel('Metric (centimetres and kilograms)').isChecked(), 'metric at first');
      await section.getByLabel('Imperial (inches and pounds)').check();
      await section.getByRole('button', { name: 'Save display units' }).click();
      await section.getByText('Saved: lengths and weights are shown in inches and pounds.').waitFor();

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vehicles' }).click();
      await page.getByRole('heading', { name: 'Vehicles', level: 1 }).waitFor();
      // The list loads after the heading shows: wait for its table before reading a header.
      await page.getByRole('columnheader').first().waitFor();
      t.ok(
        await page.getByRole('columnheader', { name: 'Inner size L × W × H (in)' }).isVisible(),
        'the list in inches',
      );
      await page.getByRole('button', { name: 'New vehicle' }).click();
      const labels = await page.locator('.record-editor label').allInnerTexts();
      t.same(
        labels.filter((l) => /\((in|lb|lb\/ft²|cm|kg|kg\/m²)\)/.test(l)),
        [
          'Length (in)',
          'Width (in)',
          'Height (in)',
          'Max payload (lb)',
          'Floor load capacity (lb/ft²)',
          'Aux deck height (in)',
          'Aux deck max weight (lb)',
        ],
        'labels in in and lb',
      );
      const type = page.getByLabel('Type', { exact: true });
      t.same(
        await type
          .locator('option:not([disabled])')
          .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value)),
        ['truck', 'trailer'],
        'only the types of the plan can be chosen',
      );
      t.match(
        await type.locator('option[value="ship"]').innerText(),
        /ship \(not in your organization's plan\)/,
        'the others say why',
      );

      await page.getByLabel('Name', { exact: true }).fill('53 ft trailer');
      await type.selectOption('trailer');
      await page.getByLabel('Length (in)', { exact: true }).fill('630');
      await page.getByLabel('Width (in)', { exact: true }).fill('100');
      await page.getByLabel('Height (in)', { exact: true }).fill('108');
      await page.getByLabel('Max payload (lb)').fill('45000');
      await page.getByRole('button', { name: 'Save vehicle' }).click();
      await page.getByText(/Saved vehicle “53 ft trailer”/).waitFor();
      const saved = await call(run.service.url, key, 'GET', '/v1/vehicles?q=53%20ft');
      t.same(
        saved.body.data.map((v: any) => [v.type, v.length, v.width, v.height, v.max_weight]),
        [['trailer', 1600.2, 254, 274.32, 20411.65665]],
        'stored in cm and kg',
      );

      await page.getByRole('button', { name: 'Edit 53 ft trailer' }).click();
      t.equal(await page.getByLabel('Length (in)', { exact: true }).inputValue(), '630', 'shown back in inches');
      t.equal(await page.getByLabel('Max payload (lb)').inputValue(), '45000', 'and pounds');
      await page.getByRole('button', { name: 'Edit as JSON' }).click();
      t.match(
        await page.getByLabel('The vehicle as JSON').inputValue(),
        /"length": 1600\.2/,
        'the JSON editor stays in cm',
      );
    },
  );

  t.test('imperial: a file without units in its headers is read in inches and pounds', async (t) => {
    await page.goto('/app/playground');
    t.match(await page.locator('.pg-import').innerText(), /Columns without a unit are read in in and lb/);
    const plain = nextEstimateItems('Box');
    await importCsv('boxes.csv', 'label,length,width,height (cm),weight,quantity\nBox,10,20,30,100,1\n');
    await page.getByRole('button', { name: 'Add to them' }).click(); // the kept draft has items
    await page.getByText('Imported 1 item (1 unit) from boxes.csv.').waitFor();
    t.same(await plain, [{ label: 'Box', length: 25.4, width: 50.8, height: 30, weight: 45.359237, quantity: 1 }]);
    t.match(
      await page.getByRole('list', { name: 'Units converted' }).innerText(),
      /length: inches → cm \(× 2\.54\), no unit in the header: your organization's display units/,
    );
    t.same(problems, [], 'no page errors');
  });
}
