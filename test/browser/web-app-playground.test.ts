/**
 * The playground a planner uses daily, in a real browser (headless Chromium through
 * playwright-core, the real service in process): items pasted as JSON show in the item table, a
 * quantity corrected there changes the JSON and the estimate (numbers before and after; the earlier
 * estimate marked as such and Run held until the new one arrives), invalid
 * JSON leaves the table at the last valid request; the vehicle picker lists every vehicle of
 * GET /v1/vehicles (all pages) and its search narrows them; the automatic-vehicles option and the
 * estimate's vehicle bound; a draft handed over in the router's location state (the job page's
 * "Duplicate into the playground") is loaded once, and kept as the member's draft from then on;
 * nothing typed is lost (1440 × 900 and 1024 × 768): 25 imported items survive a visit to Jobs
 * and a reload, restored with their time, and *Start over* drops them; axe-core finds no serious or critical
 * violation; a 768 px tablet scrolls the item table inside its box, not the page; an organization
 * that reads inches and pounds sees and types them in the table, the request keeps cm and kg.
 */
import t from 'tap';
import type { Test } from 'tap';
import type { Page } from 'playwright-core';
import { signedInOwner, webAppWalk } from '../helpers/web-app-browser.js';
import { axeCheck } from '../helpers/axe.js';

// What the callbacks run in the page touch (the root tsconfig has no DOM lib).
declare const window: {
  innerWidth: number;
  history: { replaceState(state: unknown, title: string, url: string): void };
  location: { reload(): void };
};
declare const document: { documentElement: { scrollWidth: number } };
declare const MutationObserver: new (callback: () => void) => {
  observe(target: unknown, options: Record<string, boolean>): void;
};
declare function fetch(url: string, init?: { headers?: Record<string, string> }): Promise<{ json(): Promise<any> }>;

const ITEMS = [
  {
    id: 'carton',
    label: 'Carton',
    length: 60,
    width: 40,
    height: 40,
    weight: 12.5,
    quantity: 12,
    color: '#1f77b4',
    rotation: 'upright',
  },
  {
    id: 'crate',
    label: 'Crate',
    length: 120,
    width: 80,
    height: 100,
    weight: 150,
    quantity: 2,
    stackable: false,
    priority: 2,
  },
];

const walk = webAppWalk(t, 'web-app-playground', 'the playground');
if (walk) {
  /** A member of a new organization, signed in (the context closes with `t`). */
  const signedIn = (t: Test, name: string, viewport = { width: 1280, height: 900 }) =>
    signedInOwner(t, walk, { org: name, email: `owner@${name.toLowerCase().replace(/\W+/g, '')}.test`, viewport });

  /** Every vehicle of GET /v1/vehicles, page after page, with the page's session. */
  const allVehicles = (page: Page): Promise<{ id: string; name: string; type: string }[]> =>
    page.evaluate(async () => {
      const all: any[] = [];
      let cursor = '';
      do {
        const res = await fetch(`/v1/vehicles?limit=7${cursor ? `&cursor=${cursor}` : ''}`, {
          headers: { Accept: 'application/json' },
        });
        const body = await res.json();
        all.push(...body.data);
        cursor = body.next_cursor;
      } while (cursor);
      return all;
    });

  /** The estimate's sentence once it is valid and counts `units` units. */
  async function estimateOf(page: Page, units: number): Promise<string> {
    const line = page.locator('[data-valid="true"]', { hasText: `${units} units` });
    try {
      await line.waitFor({ timeout: 30_000 });
    } catch (err) {
      throw new Error(
        `no valid estimate of ${units} units; the estimate reads: ${await page.locator('.pg-estimate').textContent()}`,
        { cause: err },
      );
    }
    return (await line.textContent()) ?? '';
  }

  t.test('items in a table, every vehicle, automatic vehicles explained, accessible', async (t) => {
    const { page, problems } = await signedIn(t, 'Table Freight');
    const vehicles = page.getByRole('group', { name: 'Vehicles' });
    const editor = page.getByLabel('Request (JSON: edit or paste a whole request here)');

    // The vehicle picker lists every vehicle of the list (all pages), and the search narrows them.
    const listed = await allVehicles(page);
    t.ok(listed.length > 7, `more vehicles than one page of 7 (${listed.length})`);
    await vehicles.getByText(`${listed.length} vehicles`, { exact: true }).waitFor();
    t.equal(
      await vehicles.locator('tbody tr[data-record-id]').count(),
      listed.length,
      'one row per vehicle of GET /v1/vehicles',
    );
    const containers = listed.filter((v) => `${v.name} ${v.id} ${v.type}`.toLowerCase().includes('container'));
    t.ok(containers.length > 0 && containers.length < listed.length, 'some vehicles are containers, not all');
    await vehicles.getByLabel('Search vehicles').fill('container');
    await vehicles.getByText(`${containers.length} of ${listed.length} vehicles match`).waitFor();
    t.same(
      await vehicles
        .locator('tbody tr[data-record-id]')
        .evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { recordId: string } }).dataset.recordId)),
      containers.map((v) => v.id),
      'the search narrows the rows to the matching vehicles',
    );
    await vehicles.getByLabel('Search vehicles').fill('');
    const van = listed[listed.length - 1]!;
    await vehicles.getByLabel(`Quantity of ${van.name}`).fill('1');

    // Items pasted as JSON show in the table; a quantity corrected there changes the JSON and the estimate.
    const chosen = JSON.parse(await editor.inputValue());
    t.same(
      chosen.vehicles,
      [{ vehicle_id: van.id, quantity: 1 }],
      'the last vehicle of the list (a preset on the last page) chosen',
    );
    await editor.fill(JSON.stringify({ ...chosen, items: ITEMS, options: { time_limit: 0 } }, null, 2));
    const items = page.getByRole('region', { name: 'Items table' });
    await items.getByLabel('Quantity of carton').waitFor();
    t.equal(await items.getByLabel('Quantity of carton').inputValue(), '12');
    t.equal(await items.getByLabel('Length of crate').inputValue(), '120', 'lengths in cm (metric by default)');
    t.equal(await items.getByLabel('Stackable of crate').isChecked(), false);
    t.equal(await items.getByLabel('Stackable of carton').isChecked(), true, 'stackable by default');
    const before = await estimateOf(page, 14);
    t.match(
      before,
      /14 units, up to 20 vehicles: the 1 listed plus up to 19 added automatically when the listed ones are full \(20 is the most a job may use\), up to 2\.21 s of compute/,
      'before: 14 units, 2 s + 15 ms per unit',
    );
    // From the edit until its own estimate arrives, the 14-unit one is marked as of the request
    // before, and Run waits (its price would be the old request's): the first such render, recorded.
    const estimateSection = page.getByRole('region', { name: 'Estimate' });
    await estimateSection.evaluate((section: any) => {
      const seen = globalThis as any;
      seen.staleEstimate = null;
      new MutationObserver(() => {
        if (seen.staleEstimate !== null || section.dataset.current !== 'false') return;
        const run = [...section.querySelectorAll('button')].find((b: any) => b.textContent.startsWith('Run'));
        seen.staleEstimate = { text: section.textContent, runDisabled: run.disabled, run: run.textContent };
      }).observe(section, { attributes: true, childList: true, subtree: true, characterData: true });
    });
    await items.getByLabel('Quantity of carton').fill('30');
    const after = await estimateOf(page, 32);
    t.match(after, /32 units, .*up to 2\.48 s of compute/, 'after: 32 units and a longer compute budget');
    const stale = await page.evaluate(() => (globalThis as any).staleEstimate);
    t.match(
      stale?.text,
      /\(updating…\)Of the request before its last change:The request is valid\. 14 units/,
      'until then, the 14-unit estimate is shown as of the request before the edit',
    );
    t.same([stale?.runDisabled, stale?.run], [true, 'Run'], 'and Run waits, with no price');
    t.equal(await estimateSection.getAttribute('data-current'), 'true', 'the 32-unit estimate is current');
    t.match(
      await estimateSection.getByRole('button', { name: /^Run/ }).textContent(),
      /^Run \(at most /,
      'Run priced by it',
    );
    const edited = JSON.parse(await editor.inputValue());
    t.same(
      edited.items,
      [{ ...ITEMS[0], quantity: 30 }, ITEMS[1]],
      'the JSON has the new quantity; fields the table does not show survive',
    );
    t.same(edited.options, { time_limit: 0 }, 'options kept');

    // Typed key by key, a decimal with a zero after the point is not rewritten while typing.
    await items.getByLabel('Width of carton').fill('');
    await items.getByLabel('Width of carton').pressSequentially('40.05');
    t.equal(JSON.parse(await editor.inputValue()).items[0].width, 40.05, 'the width typed key by key');
    await items.getByLabel('Width of carton').fill('40');

    // Add a row, fill it, delete it.
    await page.getByRole('button', { name: 'Add an item' }).click();
    await items.getByLabel('Label of item-3').fill('Bag');
    t.same(
      JSON.parse(await editor.inputValue()).items[2],
      { id: 'item-3', quantity: 1, label: 'Bag' },
      'the new row in the JSON',
    );
    await items.getByRole('button', { name: 'Delete item-3' }).click();
    t.equal(JSON.parse(await editor.inputValue()).items.length, 2, 'the row is gone from the JSON');

    // Invalid JSON: an error, the table keeps the last valid request.
    const good = await editor.inputValue();
    await editor.fill(good.replace('"carton"', '"carton'));
    t.match(
      await page.locator('[data-field="json-problem"]').textContent(),
      /not valid JSON.*still show the last valid request/,
      'the error says the table shows the last valid request',
    );
    t.equal(await items.getByLabel('Quantity of carton').inputValue(), '30', 'the table kept its rows');
    await editor.fill(good.replace('"quantity": 30', '"quantity": 5'));
    await page.locator('[data-field="json-problem"]').waitFor({ state: 'detached' });
    t.equal(await items.getByLabel('Quantity of carton').inputValue(), '5', 'valid JSON updates the table');
    await estimateOf(page, 7);

    // Automatic vehicles: the option and its sentence; off, the estimate counts the listed vehicle only.
    const auto = page.getByLabel('Add vehicles automatically when the listed ones are full');
    t.equal(await auto.isChecked(), true, 'on by default (packing_mode auto)');
    t.match(
      await page.locator('.pg-auto p').textContent(),
      /up to 20 vehicles per job in all .*only vehicles that end up loaded are charged \(0\.05 credits each\)/,
      'what it does, its limit, how it is charged',
    );
    await auto.uncheck();
    t.same(JSON.parse(await editor.inputValue()).options, { time_limit: 0, packing_mode: 'fleet_only' });
    await page.locator('[data-field="max-vehicles"]', { hasText: 'up to 1 vehicle: only the listed ones' }).waitFor();
    await auto.check();
    await page.locator('[data-field="max-vehicles"]', { hasText: 'up to 20 vehicles' }).waitFor();

    // axe-core: no serious or critical violation with the table filled and the estimate shown.
    const axe = await axeCheck(t, page, 'the playground');
    if (axe) {
      t.ok(axe.passed >= 20, `axe-core ran its rules on the page (${axe.passed} passed)`);
      t.same(axe.blocking, [], 'axe-core: no serious or critical violation on the playground');
    }

    // A tablet: the item table scrolls inside its box, the page does not scroll sideways.
    await page.setViewportSize({ width: 768, height: 1024 });
    await items.waitFor();
    t.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'no sideways page scrolling at 768 px',
    );
    t.ok(
      await items.evaluate(
        (box) =>
          (box as unknown as { scrollWidth: number; clientWidth: number }).scrollWidth >
          (box as unknown as { clientWidth: number }).clientWidth,
      ),
      'the item table scrolls inside its box',
    );
    t.same(problems, [], 'no page errors');
  });

  t.test(
    'an organization that reads inches and pounds: the table shows and takes them, the request keeps cm and kg',
    async (t) => {
      const { page, problems } = await signedIn(t, 'Inch Freight');
      // The preference is set elsewhere (the account settings); here the session answer carries it.
      await page.route('**/app/api/session', async (route) => {
        const answer = await route.fetch();
        const body = await answer.json();
        if (body?.organization) body.organization.display_units = 'imperial';
        await route.fulfill({ response: answer, json: body });
      });
      await page.reload();
      const editor = page.getByLabel('Request (JSON: edit or paste a whole request here)');
      await editor.fill(
        JSON.stringify({ vehicles: [{ vehicle_id: 'van-3-5t', quantity: 1 }], items: [ITEMS[1]] }, null, 2),
      );
      const items = page.getByRole('region', { name: 'Items table' });
      await items.getByRole('columnheader', { name: 'Length (in)' }).waitFor();
      t.equal(await items.getByLabel('Length of crate').inputValue(), '47.24', '120 cm in inches');
      t.equal(await items.getByLabel('Unit weight of crate').inputValue(), '330.69', '150 kg in pounds');
      await items.getByLabel('Length of crate').fill('50');
      await items.getByLabel('Unit weight of crate').fill('100');
      const crate = JSON.parse(await editor.inputValue()).items[0];
      t.equal(crate.length, 127, '50 in sent as 127 cm');
      t.equal(crate.weight, 45.3592, '100 lb sent as 45.3592 kg');
      t.match(
        await page.getByRole('group', { name: 'Vehicles' }).locator('tr[data-record-id="van-3-5t"]').textContent(),
        /165\.35 × 68\.9 × 74\.8 in.*max 2425\.08 lb/,
        'the picker in inches and pounds',
      );
      t.same(problems, [], 'no page errors');
    },
  );

  t.test("a draft in the location state is loaded once (the job page's Duplicate into the playground)", async (t) => {
    const { page, problems } = await signedIn(t, 'Draft Freight');
    const draft = {
      reference: 'copy of job 7',
      vehicles: [{ vehicle_id: 'van-3-5t', quantity: 1 }],
      items: [
        {
          id: 'drum',
          label: 'Drum',
          length: 60,
          width: 60,
          height: 90,
          weight: 200,
          quantity: 4,
          hazardous: true,
          shape: 'drum',
          radius: 30,
        },
      ],
      options: { packing_mode: 'fleet_only' },
    };
    // What navigate('/playground', { state: { draft } }) leaves in the history entry (react-router keeps the state under `usr`).
    await page.evaluate((d) => {
      window.history.replaceState({ usr: { draft: d }, key: 'dup', idx: 0 }, '', '/app/playground');
      window.location.reload();
    }, draft);
    await page.locator('[data-field="draft-loaded"]').waitFor();
    const items = page.getByRole('region', { name: 'Items table' });
    t.equal(await items.getByLabel('Quantity of drum').inputValue(), '4', "the table shows the draft's items");
    t.equal(await items.getByLabel('Hazardous of drum').isChecked(), true);
    t.equal(await page.getByLabel('Reference (optional)').inputValue(), 'copy of job 7');
    t.equal(
      await page.getByLabel('Add vehicles automatically when the listed ones are full').isChecked(),
      false,
      "the draft's packing mode",
    );
    t.same(
      JSON.parse(await page.getByLabel('Request (JSON: edit or paste a whole request here)').inputValue()),
      draft,
      'the JSON is the draft, every field kept',
    );
    t.equal(
      await page.getByRole('group', { name: 'Vehicles' }).getByLabel('Quantity of Van 3.5 t').inputValue(),
      '1',
      'the vehicle picker shows the chosen preset',
    );
    // The state is cleared: a reload does not load the job's copy again, but the member's kept
    // draft, which is that copy now.
    await page.waitForFunction(
      () => (globalThis as unknown as { history: { state: { usr?: unknown } | null } }).history.state?.usr == null,
    );
    await page.reload();
    await page.locator('[data-field="draft-restored"]').waitFor();
    t.equal(await page.locator('[data-field="draft-loaded"]').count(), 0, "no job's copy after a reload");
    t.equal(await items.getByLabel('Quantity of drum').inputValue(), '4', 'the kept draft');
    await page.getByRole('button', { name: 'Start over' }).click();
    await items.getByText('No items yet').waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
    await items.getByText('No items yet').waitFor();
    t.equal(await page.locator('[data-field="draft-restored"]').count(), 0, 'nothing kept after Start over');
    t.same(problems, [], 'no page errors');
  });

  t.test('nothing typed is lost: 25 imported items survive Jobs and a reload (1440 × 900, 1024 × 768)', async (t) => {
    const rows = Array.from(
      { length: 25 },
      (_, i) => `Box ${i + 1},${40 + i},30,30,${5 + i / 10},${i === 0 ? 163 : 10},true,all`,
    );
    const csv = ['label,length (cm),width (cm),height (cm),weight (kg),quantity,stackable,rotation', ...rows].join(
      '\n',
    );
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1024, height: 768 },
    ]) {
      const size = `${viewport.width} × ${viewport.height}`;
      const { page, problems, context } = await signedIn(t, `Kept Freight ${viewport.width}`, viewport);
      await page.getByRole('link', { name: 'Playground' }).first().click();
      const items = page.getByRole('region', { name: 'Items table' });
      await page
        .getByLabel('Import items from a CSV or Excel (.xlsx) file')
        .setInputFiles({ name: 'day.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await items.locator('tbody tr').nth(24).waitFor();
      const editor = page.getByLabel('Request (JSON: edit or paste a whole request here)');
      const before = JSON.parse(await editor.inputValue());
      t.equal(before.items.length, 25, `${size}: 25 items imported`);
      t.equal(
        before.items.reduce((n: number, it: { quantity: number }) => n + it.quantity, 0),
        403,
        `${size}: 403 units`,
      );

      await page.getByRole('navigation').getByRole('link', { name: 'Jobs', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
      await page.getByRole('navigation').getByRole('link', { name: 'Playground', exact: true }).click();
      const restored = page.locator('[data-field="draft-restored"]');
      await restored.waitFor();
      t.ok(await restored.isVisible(), `${size}: the restored draft is said`);
      t.match(
        await restored.textContent(),
        /^Restored the request you were building \(last changed .+\)\. Start over$/,
      );
      const box = await restored.boundingBox();
      t.ok(box && box.x >= 0 && box.x + box.width <= viewport.width, `${size}: the notice is inside the viewport`);
      t.same(JSON.parse(await editor.inputValue()), before, `${size}: back from Jobs, every item as imported`);

      await page.reload();
      await restored.waitFor();
      t.same(JSON.parse(await editor.inputValue()), before, `${size}: after a reload, every item as imported`);
      await items.locator('tbody tr').nth(24).waitFor();
      t.equal(await items.locator('tbody tr').count(), 25, `${size}: the table shows them`);
      const a11y = await axeCheck(t, page, `the playground with a restored draft, ${size}`);
      t.same(a11y?.blocking, [], `${size}: no serious or critical axe-core finding`);

      await page.getByRole('button', { name: 'Start over' }).click();
      await items.getByText('No items yet').waitFor();
      await page.reload();
      await items.getByText('No items yet').waitFor();
      t.equal(await restored.count(), 0, `${size}: Start over keeps nothing`);
      t.same(problems, [], `${size}: no page errors`);
      await context.close();
    }
  });
}
