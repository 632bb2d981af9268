/**
 * The playground's item table fits the window (headless Chromium through playwright-core, the
 * real service in process), at 1440 × 900 and 1024 × 768 beside the side navigation: with 25
 * items, three of them with long labels, every column header and the last row's Delete button
 * are inside the viewport and nothing scrolls sideways; a long label is read in full in its cell
 * (and is the field's value and title); the totals under the table give the units, volume and
 * weight of the cargo and its share of the chosen vehicles (or ask for a vehicle when none is
 * chosen), in m³ and kg or, for an organization that reads them, ft³ and lb; axe-core finds no
 * serious or critical violation.
 */
import t from 'tap';
import { offScreen, signedInOwner, webAppWalk } from '../helpers/web-app-browser.js';
import { axeCheck } from '../helpers/axe.js';

// What the callbacks run in the page touch (the root tsconfig has no DOM lib).
declare const window: { innerWidth: number; scrollBy(x: number, y: number): void };
declare const document: { documentElement: { scrollWidth: number } };
interface Box {
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
}

/** The long labels, at rows 2, 13 and 25 (the last row). */
const LONG = [
  'EUR pallet, heavy machine parts',
  'EUR pallet, spare parts for the line',
  'EUR pallet, boxed electronics, fragile',
];
const PALLET_ROWS = [1, 12, 24];

/**
 * 25 items: 22 cartons 50 × 40 × 30 cm (0.06 m³), 10 kg, 2 each (44 units, 2.64 m³, 440 kg) and
 * 3 pallets 120 × 80 × 100 cm (0.96 m³), 150 kg, 1 each (3 units, 2.88 m³, 450 kg): in all 47
 * units, 5.52 m³, 890 kg.
 */
const ITEMS = Array.from({ length: 25 }, (_, i) => {
  const pallet = PALLET_ROWS.indexOf(i);
  return pallet >= 0
    ? { label: LONG[pallet], length: 120, width: 80, height: 100, weight: 150, quantity: 1, stackable: false }
    : { label: `Carton ${i + 1}`, length: 50, width: 40, height: 30, weight: 10, quantity: 2 };
});

/** Two vans of 420 × 175 × 190 cm (13.965 m³) and 1100 kg payload each (domain/vehicle/presets.ts). */
const VANS = [{ vehicle_id: 'van-3-5t', quantity: 2 }];

const walk = webAppWalk(t, 'web-app-item-table', 'the item table');
if (walk) {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    const size = `${viewport.width} × ${viewport.height}`;
    t.test(`${size}: 25 items fit the window, long labels read in full, the totals and share`, async (t) => {
      const { page, problems } = await signedInOwner(t, walk, {
        org: `Fit Freight ${viewport.width}`,
        email: `owner@fit${viewport.width}.test`,
        viewport,
      });
      await page.getByRole('navigation').getByRole('link', { name: 'Playground', exact: true }).click();
      const editor = page.getByLabel('Request (JSON: edit or paste a whole request here)');
      const items = page.getByRole('region', { name: 'Items table' });
      const totals = page.getByRole('group', { name: 'Cargo totals' });

      // Typed as JSON, no vehicle yet.
      await editor.fill(JSON.stringify({ vehicles: [], items: ITEMS }, null, 2));
      await items.locator('tbody tr').nth(24).waitFor();
      t.equal(await items.locator('tbody tr').count(), 25, `${size}: 25 rows`);

      // Every header and the last row's Delete button inside the viewport, nothing scrolls sideways.
      const headers = items.getByRole('columnheader');
      t.equal(await headers.count(), 13, `${size}: 12 columns and Delete`);
      for (const header of await headers.all()) {
        const name = (await header.textContent()) ?? '';
        t.equal(
          await offScreen(header, viewport.width, viewport.height, 'page'),
          null,
          `${size}: header "${name}" on screen`,
        );
      }
      const lastDelete = items.getByRole('button', { name: `Delete ${LONG[2]}` });
      t.ok(await lastDelete.isVisible(), `${size}: the last row's Delete button is shown`);
      t.equal(
        await offScreen(lastDelete, viewport.width, viewport.height, 'page'),
        null,
        `${size}: and inside the viewport`,
      );
      for (const field of ['Stackable', 'Hazardous', 'Group']) {
        const cell = items.getByLabel(`${field} of ${LONG[2]}`);
        t.equal(
          await offScreen(cell, viewport.width, viewport.height, 'page'),
          null,
          `${size}: the last row's ${field}`,
        );
      }
      t.ok(
        await items.evaluate((box) => (box as unknown as Box).scrollWidth <= (box as unknown as Box).clientWidth),
        `${size}: the table does not scroll sideways in its box`,
      );
      t.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        `${size}: the page does not scroll sideways`,
      );

      // A long label is read in full in its cell: its field shows every character, title and value are the label.
      for (const label of LONG) {
        const field = items.getByLabel(`Label of ${label}`);
        t.equal(await field.inputValue(), label, `${size}: "${label}" is the field's value`);
        t.equal(await field.getAttribute('title'), label, `${size}: and its title`);
        t.ok(await field.isVisible(), `${size}: the field is shown`);
        const fits = await field.evaluate((el) => {
          const box = el as unknown as Box;
          return box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight;
        });
        t.ok(fits, `${size}: "${label}" is not cut (no hidden overflow in its field)`);
      }

      // A label typed on one line stays one line: Enter does not break it.
      const first = items.getByLabel(`Label of ${LONG[0]}`);
      await first.press('End');
      await first.press('Enter');
      t.equal(JSON.parse(await editor.inputValue()).items[1].label, LONG[0], `${size}: Enter adds no line break`);

      // The totals under the table, and the share asks for a vehicle.
      t.equal(
        (await totals.locator('p').first().textContent())?.replace(/\s+/g, ' '),
        'Total: 47 units, 5.52 m³, 890 kg',
        `${size}: units, volume and weight of the cargo`,
      );
      t.match(
        await totals.locator('[data-field="vehicle-share"]').textContent(),
        /^Choose a vehicle to see the cargo's share/,
        `${size}: no vehicle chosen, the share asks for one`,
      );

      // Two vans chosen: the cargo's share of their space and payload.
      await editor.fill(JSON.stringify({ vehicles: VANS, items: ITEMS }, null, 2));
      const share = totals.locator('[data-field="vehicle-share"]', { hasText: 'Share of the 2 vehicles' });
      await share.waitFor();
      t.equal(
        (await share.textContent())?.replace(/\s+/g, ' '),
        'Share of the 2 vehicles: 19.8 % of the volume (27.93 m³), 40.5 % of the payload (2200 kg).',
        `${size}: 5.52 of 27.93 m³ and 890 of 2200 kg`,
      );

      const a11y = await axeCheck(t, page, `the playground with 25 items, ${size}`);
      t.same(a11y?.blocking ?? [], [], `${size}: no serious or critical axe-core finding`);

      if (viewport.width === 1440) {
        // An organization that reads feet and pounds: the same totals in ft³ and lb (the draft is kept over the reload).
        await page.route('**/app/api/session', async (route) => {
          const answer = await route.fetch();
          const body = await answer.json();
          if (body?.organization) body.organization.display_units = 'imperial';
          await route.fulfill({ response: answer, json: body });
        });
        await page.reload();
        await items.getByRole('columnheader', { name: 'Length (in)' }).waitFor();
        await share.waitFor();
        t.equal(
          (await totals.locator('p').first().textContent())?.replace(/\s+/g, ' '),
          'Total: 47 units, 194.94 ft³, 1962.1 lb',
          `${size}: 5.52 m³ and 890 kg in cubic feet and pounds`,
        );
        t.equal(
          (await share.textContent())?.replace(/\s+/g, ' '),
          'Share of the 2 vehicles: 19.8 % of the volume (986.34 ft³), 40.5 % of the payload (4850.2 lb).',
          `${size}: the vans' 27.93 m³ and 2200 kg in cubic feet and pounds`,
        );
      }
      t.same(problems, [], `${size}: no page errors`);
    });
  }
}
