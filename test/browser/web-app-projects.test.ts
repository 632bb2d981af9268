/**
 * The Projects page a planner uses (`/app/projects`), in a real browser (headless Chromium through
 * playwright-core, the real service in process), at 1440 × 900 and 1024 × 768: a project's vehicle
 * slots show their vehicle's name (an own vehicle and a preset), a new slot takes a vehicle typed
 * by name from the keyboard (the suggestions list every own vehicle and preset of GET
 * /v1/vehicles), the saved project holds the vehicle ids in the same body shape as before, and a
 * name no vehicle has shows the service's refusal next to the field; item weights and lengths with
 * float noise read to 0.1 kg and 0.1 cm and are saved back exactly as stored; axe-core finds no
 * serious or critical violation with the editor open.
 */
import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { invite } from '../helpers/web-session.js';
import { acceptInvitation } from '../helpers/web-invitation.js';
import { WALK_PASSWORD, inViewport, webAppWalk } from '../helpers/web-app-browser.js';
import { axeCheck } from '../helpers/axe.js';

// What the callbacks run in the page touch (the root tsconfig has no DOM lib).
declare const window: { innerWidth: number };
declare const document: { documentElement: { scrollWidth: number } };

/** The sizes every browser case of the web app runs at. */
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
] as const;

const walk = webAppWalk(t, 'web-app-projects', 'the projects page');
if (walk) {
  const { run, browser } = walk;
  let orgId = '';
  let key = '';
  let truckId = '';
  let members = 0;

  /** Calls `path` with the organization's API key, from the test. */
  const keyCall = (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> =>
    call(run.service.url, key, method, path, body);

  t.before(async () => {
    ({ orgId, key } = await orgWithKey(run.service, { name: 'Slot Freight' }));
    const truck = await keyCall('POST', '/v1/vehicles', {
      name: 'Box truck 7 m',
      type: 'truck',
      length: 700,
      width: 245,
      height: 260,
      max_weight: 6000,
    });
    t.equal(truck.status, 201, 'an own vehicle is saved');
    truckId = truck.body.id;
  });

  /** A member signed in at `viewport`, with a project of two slots (the own truck, a preset) and one item. */
  async function signedIn(viewport: { width: number; height: number }) {
    const size = `${viewport.width} × ${viewport.height}`;
    members += 1;
    const project = await keyCall('POST', '/v1/projects', {
      name: `Tuesday run ${members}`,
      vehicles: [
        { vehicle_id: truckId, quantity: 1 },
        { vehicle_id: 'van-3-5t', quantity: 2 },
      ],
      // 24 in and 18.7 lb as the API keeps them (cm and kg, the conversion's last digits included).
      items: [
        { label: 'Crate', length: 60.96000000000001, width: 40.64, height: 30, weight: 8.482177319, quantity: 3 },
      ],
    });
    t.equal(project.status, 201, `${size}: the project is saved`);
    const context = await browser().newContext({ viewport, baseURL: run.service.url });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    const token = await invite(run.service, orgId, `planner${members}@slots.test`);
    await acceptInvitation(page, `/app/invitations/${token}`, 'Pat Planner', WALK_PASSWORD);
    return { page, problems, size, project: project.body, close: () => context.close() };
  }

  /** The editor of project `name`, opened from its row. */
  async function openProject(page: Page, name: string): Promise<Locator> {
    await page.goto('/app/projects');
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const editor = page.getByRole('region', { name: `Edit project “${name}”` });
    await editor.waitFor();
    return editor;
  }

  t.test('vehicle slots by name: shown, typed from the keyboard, saved as ids (1440 × 900, 1024 × 768)', async (t) => {
    for (const viewport of VIEWPORTS) {
      const { page, problems, size, project, close } = await signedIn(viewport);
      const editor = await openProject(page, project.name);

      // An existing slot shows its vehicle's name, with what it is and its id beneath.
      const first = editor.getByRole('combobox', { name: 'Vehicle of vehicle slot 1' });
      await editor.getByText(`${truckId} · truck · 700 × 245 × 260 cm · max 6000 kg`, { exact: true }).waitFor();
      t.equal(await first.inputValue(), 'Box truck 7 m', `${size}: slot 1 shows the own vehicle's name`);
      t.ok(await first.isVisible(), `${size}: slot 1's vehicle field is visible`);
      t.ok(
        await inViewport(first, viewport.width, viewport.height),
        `${size}: slot 1's vehicle field lies inside the viewport`,
      );
      const second = editor.getByRole('combobox', { name: 'Vehicle of vehicle slot 2' });
      t.equal(await second.inputValue(), 'Van 3.5 t', `${size}: slot 2 shows the preset's name`);
      await editor.getByText('van-3-5t · preset · truck · 420 × 175 × 190 cm · max 1100 kg', { exact: true }).waitFor();

      // The suggestions are every own vehicle and preset of GET /v1/vehicles, by name.
      const listed = (await keyCall('GET', '/v1/vehicles?limit=100')).body.data as { name: string }[];
      const list = editor.locator('datalist');
      t.equal(
        await first.getAttribute('list'),
        await list.getAttribute('id'),
        `${size}: the field suggests from the list`,
      );
      const suggested = await list
        .locator('option')
        .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
      t.same(
        suggested,
        listed.map((v) => v.name),
        `${size}: the suggestions name every vehicle (${listed.length})`,
      );

      // A new slot: the vehicle's name typed from the keyboard.
      await editor.getByRole('button', { name: 'Add vehicle slot' }).click();
      const third = editor.getByRole('combobox', { name: 'Vehicle of vehicle slot 3' });
      await third.focus();
      await page.keyboard.type('Rigid truck');
      await editor.getByText('No vehicle has this name or id: pick one from the list.', { exact: true }).waitFor();
      await page.keyboard.type(' 18 t');
      await editor
        .getByText('rigid-18t · preset · truck · 750 × 248 × 260 cm · max 9000 kg', { exact: true })
        .waitFor();
      await page.keyboard.press('Tab');
      await page.keyboard.type('4');
      t.equal(
        await editor.getByLabel('Quantity of vehicle slot 3').inputValue(),
        '4',
        `${size}: Tab leads on to the slot's quantity`,
      );

      const a11y = await axeCheck(t, page, `the projects page with the editor open, ${size}`);
      if (a11y) {
        t.ok(a11y.passed >= 20, `${size}: axe-core ran its rules (${a11y.passed} passed)`);
        t.same(a11y.blocking, [], `${size}: axe-core finds no serious or critical violation`);
      }

      await editor.getByRole('button', { name: 'Save project' }).click();
      await page.getByText(`Saved project “${project.name}”`, { exact: false }).waitFor();
      const saved = (await keyCall('GET', `/v1/projects/${project.id}`)).body;
      t.same(
        saved.vehicles.map((v: Record<string, unknown>) => [Object.keys(v).sort(), v['vehicle_id'], v['quantity']]),
        [
          [['id', 'quantity', 'vehicle_id'], truckId, 1],
          [['id', 'quantity', 'vehicle_id'], 'van-3-5t', 2],
          [['id', 'quantity', 'vehicle_id'], 'rigid-18t', 4],
        ],
        `${size}: the slots hold the vehicle ids, the body shape as before`,
      );
      t.same(
        saved.vehicles.slice(0, 2).map((v: { id: string }) => v.id),
        project.vehicles.map((v: { id: string }) => v.id),
        `${size}: the slots keep their ids`,
      );

      // A name no vehicle has: the service's refusal next to the field.
      const again = await openProject(page, project.name);
      const slot = again.getByRole('combobox', { name: 'Vehicle of vehicle slot 1' });
      await again.getByText(`${truckId} · truck · 700 × 245 × 260 cm · max 6000 kg`, { exact: true }).waitFor();
      await slot.fill('Moon rocket');
      await again.getByRole('button', { name: 'Save project' }).click();
      await again.getByText('Error: no preset or own vehicle has the id "Moon rocket"', { exact: true }).waitFor();
      t.equal(await slot.getAttribute('aria-invalid'), 'true', `${size}: the refused vehicle field is marked invalid`);
      t.same(problems, [], `${size}: no page errors`);
      await close();
    }
  });

  t.test('item weights to 0.1 kg and lengths to 0.1 cm, saved back as stored (1440 × 900, 1024 × 768)', async (t) => {
    for (const viewport of VIEWPORTS) {
      const { page, problems, size, project, close } = await signedIn(viewport);
      const editor = await openProject(page, project.name);
      const weight = editor.getByLabel('Weight (kg) of item 1');
      await weight.waitFor();
      t.same(
        [
          await editor.getByLabel('Length (cm) of item 1').inputValue(),
          await editor.getByLabel('Width (cm) of item 1').inputValue(),
          await editor.getByLabel('Height (cm) of item 1').inputValue(),
          await weight.inputValue(),
        ],
        ['61', '40.6', '30', '8.5'],
        `${size}: the item reads 61 × 40.6 × 30 cm, 8.5 kg`,
      );
      t.ok(await inViewport(weight, viewport.width, viewport.height), `${size}: the weight lies inside the viewport`);
      t.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        `${size}: the page does not scroll sideways (the item table scrolls in its box)`,
      );
      await editor.getByLabel('Quantity of item 1').fill('5');
      await editor.getByRole('button', { name: 'Save project' }).click();
      await page.getByText(`Saved project “${project.name}”`, { exact: false }).waitFor();
      const item = (await keyCall('GET', `/v1/projects/${project.id}`)).body.items[0];
      t.same(
        [item.length, item.width, item.height, item.weight, item.quantity],
        [60.96000000000001, 40.64, 30, 8.482177319, 5],
        `${size}: the untouched figures are saved as stored, the quantity as typed`,
      );
      t.same(problems, [], `${size}: no page errors`);
      await close();
    }
  });
}
