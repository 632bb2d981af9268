/**
 * Importing items and multi-drop stops in the playground, in a real browser (headless Chromium
 * through playwright-core, the real service in process), at 1440 × 900 and 1024 × 768: without a
 * vehicle the estimate says what is missing; a second file asks *Replace the N items* or *Add to
 * them* and changes nothing until one is chosen; the estimate's problems name the item, its label
 * and its file row; a `Stop` / `Drop #` column becomes the items' groups, and the stops control
 * sets the routing mode and the delivery order (Up/Down by keyboard, and by dragging), written to
 * the request's groups; the CSV template link offers every column; axe-core finds no serious or
 * critical violation.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { inViewport, signedInOwner, webAppWalk } from '../helpers/web-app-browser.js';
import { axeCheck } from '../helpers/axe.js';

declare function fetch(url: string, init?: { headers?: Record<string, string> }): Promise<{ json(): Promise<any> }>;

const FIRST = [
  'label,length (cm),width (cm),height (cm),weight (kg),quantity,id,Stop',
  'Carton,60,40,40,12.5,4,c1,Stop 1',
  'Crate,80,60,50,40,2,c2,Stop 2',
  'Drum,60,60,90,30,1,c3,Stop 1',
].join('\n');

const SECOND = [
  'label,length (cm),width (cm),height (cm),weight (kg),quantity,id,Drop #',
  'Tote,40,30,30,5,6,t1,Stop 3',
  'EUR pallet,120,80,100,200,1,c1,Stop 3',
].join('\n');

const walk = webAppWalk(t, 'web-app-import-stops', 'the playground import');
if (walk) {
  const requestOf = async (page: Page) =>
    JSON.parse(await page.getByLabel('Request (JSON: edit or paste a whole request here)').inputValue());

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    const size = `${viewport.width} × ${viewport.height}`;
    t.test(`import, estimate problems and stops (${size})`, async (t) => {
      const name = `Drop Freight ${viewport.width}`;
      const { page, problems } = await signedInOwner(t, walk, {
        org: name,
        email: `owner@drop${viewport.width}.test`,
        viewport,
      });
      await page.getByRole('link', { name: 'Playground' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
      const file = page.getByLabel('Import items from a CSV or Excel (.xlsx) file');
      const items = page.getByRole('region', { name: 'Items table' });

      // The template link offers every column the import reads, units in the headers.
      const template = page.getByRole('link', { name: 'CSV template (every column)' });
      t.ok(await inViewport(template, viewport.width, viewport.height), `${size}: the template link is on screen`);
      t.equal(await template.getAttribute('download'), 'item-template.csv');
      const templateCsv = decodeURIComponent((await template.getAttribute('href'))!.replace(/^data:[^,]*,/, ''));
      t.match(templateCsv.split('\n')[0], /^label,length \(cm\),width \(cm\),height \(cm\),weight \(kg\),quantity,id,/);
      t.equal(templateCsv.split('\n')[0]!.split(',').length, 18, `${size}: 18 columns in the template`);

      // The first file into an empty request comes in at once; no vehicle yet: the estimate says so.
      await file.setInputFiles({ name: 'day.csv', mimeType: 'text/csv', buffer: Buffer.from(FIRST) });
      await items.locator('tbody tr').nth(2).waitFor();
      const missing = page.locator('[data-field="missing"]');
      await missing.getByText('Choose a vehicle to see the estimate').waitFor();
      t.ok(
        await inViewport(missing, viewport.width, viewport.height),
        `${size}: the missing vehicle is said on screen`,
      );
      t.notMatch(await page.locator('.pg-estimate').textContent(), /\b0 units\b/, `${size}: no "0 units"`);

      // A second file asks first and changes nothing until the planner chooses.
      await file.setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from(SECOND) });
      const choice = page.getByRole('group', { name: /The request already has 3 items/ });
      await choice.waitFor();
      const add = choice.getByRole('button', { name: 'Add to them' });
      t.ok(
        await inViewport(choice.getByRole('button', { name: 'Replace the 3 items' }), viewport.width, viewport.height),
      );
      t.ok(await inViewport(add, viewport.width, viewport.height), `${size}: both choices on screen`);
      t.equal((await requestOf(page)).items.length, 3, `${size}: nothing changed before the choice`);
      await add.click();
      await page.getByText('Added to the 3 items: imported 2 items (7 units) from more.csv.').waitFor();
      await items.locator('tbody tr').nth(4).waitFor();
      t.same(
        (await requestOf(page)).items.map((i: { id: string; group: string }) => `${i.id} ${i.group}`),
        ['c1 Stop 1', 'c2 Stop 2', 'c3 Stop 1', 't1 Stop 3', 'c1 Stop 3'],
        `${size}: added after the 3, Stop and Drop # read as groups`,
      );

      // A vehicle: the estimate's duplicate id names the item, its label and its file row.
      const listed: { id: string; name: string }[] = await page.evaluate(async () => {
        const res = await fetch('/v1/vehicles?limit=50', { headers: { Accept: 'application/json' } });
        return (await res.json()).data;
      });
      const truck = listed.find((v) => /truck|trailer|van/i.test(v.name)) ?? listed[0]!;
      await page.getByRole('group', { name: 'Vehicles' }).getByLabel(`Quantity of ${truck.name}`).fill('1');
      const problemList = page.getByRole('list', { name: 'Problems in the request' });
      const duplicate = problemList.getByText('item 5 (EUR pallet) — row 3 of more.csv, id:');
      await duplicate.waitFor();
      t.match(
        await duplicate.textContent(),
        /is already used by item 1 \(Carton\)/,
        `${size}: the other item named too`,
      );
      t.ok(await inViewport(duplicate, viewport.width, viewport.height), `${size}: the problem is on screen`);

      // Replace: the file's items only.
      await file.setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from(SECOND) });
      await page
        .getByRole('group', { name: /already has 5 items/ })
        .getByRole('button', { name: 'Replace the 5 items' })
        .click();
      await items.locator('tbody tr').nth(1).waitFor();
      await page
        .locator('[data-valid="true"]')
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
      t.same(
        (await requestOf(page)).items.map((i: { id: string }) => i.id),
        ['t1', 'c1'],
        `${size}: replaced`,
      );

      // Back to the first file plus the second one's tote for three stops.
      await file.setInputFiles({ name: 'day.csv', mimeType: 'text/csv', buffer: Buffer.from(FIRST) });
      await page
        .getByRole('group', { name: /already has 2 items/ })
        .getByRole('button', { name: 'Replace the 2 items' })
        .click();
      await file.setInputFiles({
        name: 'tote.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(SECOND.split('\n').slice(0, 2).join('\n')),
      });
      await page
        .getByRole('group', { name: /already has 3 items/ })
        .getByRole('button', { name: 'Add to them' })
        .click();
      await items.locator('tbody tr').nth(3).waitFor();

      // The stops control: routing mode and the delivery order.
      const stops = page.getByRole('region', { name: 'Stops' });
      const list = stops.getByRole('list', { name: 'Stops in delivery order' });
      const order = async () =>
        await list
          .locator('li')
          .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: Record<string, string> }).dataset['stop']));
      t.same(await order(), ['Stop 3', 'Stop 2', 'Stop 1'], `${size}: delivery order = loaded last first`);
      t.ok(
        await inViewport(list.locator('li').first(), viewport.width, viewport.height),
        `${size}: the stops on screen`,
      );
      await stops
        .getByLabel('Load in stop order: a later stop may sit on or beside an earlier one, never below')
        .check();
      let sent = await requestOf(page);
      t.equal(sent.options?.group_routing, 'routing', `${size}: routing mode written`);
      t.same(sent.groups, [
        { name: 'Stop 1', order: 1 },
        { name: 'Stop 2', order: 2 },
        { name: 'Stop 3', order: 3 },
      ]);

      // Keyboard: focus "Move Stop 1 up" and press Enter.
      await stops.getByRole('button', { name: 'Move Stop 1 up' }).focus();
      await page.keyboard.press('Enter');
      await list.locator('li').nth(1).and(page.locator('[data-stop="Stop 1"]')).waitFor();
      t.same(await order(), ['Stop 3', 'Stop 1', 'Stop 2'], `${size}: moved up by keyboard`);
      sent = await requestOf(page);
      t.same(
        sent.groups.map((g: { name: string; order: number }) => `${g.order} ${g.name}`),
        ['1 Stop 2', '2 Stop 1', '3 Stop 3'],
        `${size}: groups order follows: first delivered loads last`,
      );

      // Drag: Stop 2 onto the top.
      await list.locator('[data-stop="Stop 2"]').dragTo(list.locator('[data-stop="Stop 3"]'));
      await list.locator('li').first().and(page.locator('[data-stop="Stop 2"]')).waitFor();
      t.same(await order(), ['Stop 2', 'Stop 3', 'Stop 1'], `${size}: moved by dragging`);

      const axe = await axeCheck(t, page, `the playground with stops, ${size}`);
      t.same(axe?.blocking, [], `${size}: no serious or critical axe-core finding`);
      t.same(problems, [], `${size}: no page errors`);
    });
  }
}
