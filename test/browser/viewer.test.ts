/**
 * The 3D viewer in a real browser ("Done when"): every example of examples/ is solved
 * through the real service (in process, embedded profile; a 4 s compute limit keeps the test
 * short, the viewer does not care how good the plan is), its `viewer_url` opened in headless
 * Chromium (Debian's, driven by playwright-core, WebGL by SwiftShader), and checked against the
 * Result: units of the shown vehicle, the step slider (keyboard and direct) changing the units
 * drawn to exactly those of steps 1..s, a clicked unit's details, the legend (every item, every
 * group), the unplaced units, the weight distribution and the vehicle switcher. Screenshots go
 * to test-artifacts/viewer/. A 2,000-unit plan is timed: page load to the first drawn frame and
 * the mean frame time of an orbit are printed, not asserted. A hand-built plan of round cargo
 * (36 staggered drums in a 20 ft container, drums, pallets and lying rolls in a
 * trailer) is served in place of a solved job's plan and checked the same way; its picture is
 * the README's docs/img/viewer-drums.png.
 */
import t, { type Test } from 'tap';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { weightDistribution } from '../../domain/pack/weight-distribution.js';
import { ensureViewerBuild } from '../../scripts/front-end-builds.js';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import type { ViewerPlan } from '../../api/http/plan-viewer/viewer-plan.js';
import { ITEMS, roundPlan } from '../pdf/round-fixture.js';
import { readmePictureDir } from '../helpers/readme-pictures.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

// What the callbacks run in the page touch: the root tsconfig has no DOM lib, so these shapes are
// declared here (types only; in the page the names are the browser's own).
interface PageElement {
  value: string;
  max: string;
  dataset: Record<string, string | undefined>;
  dispatchEvent(event: unknown): boolean;
}
declare const document: { body: PageElement };
declare const window: {
  planViewer?: {
    screenPoint(itemId: string, instance: number): { x: number; y: number } | null;
    orbitFrameMs(frames: number): Promise<number>;
  };
};
declare const Event: new (type: string, init?: { bubbles?: boolean }) => unknown;
declare const requestAnimationFrame: (callback: () => void) => number;

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/viewer/', import.meta.url));
const README_PICTURE = `${readmePictureDir()}viewer-drums.png`;
const examples = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.json'))
  .sort();

if (!existsSync(CHROMIUM)) {
  // .ci/run installs Debian's chromium; a machine without it says so here.
  const reason = `no browser check of the viewer: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('viewer in a browser', { skip: reason });
} else {
  const run = inProcessService(t, 'viewer-browser');
  let browser: Browser;
  let key: string;

  t.before(async () => {
    t.equal(await ensureViewerBuild('stale'), 'fresh', 'the viewer is built');
    mkdirSync(ARTIFACTS, { recursive: true });
    key = (await orgWithKey(run.service)).key;
    browser = await launchChromium({ webgl: true });
  });
  t.teardown(async () => {
    await browser?.close();
  });

  /** Solves `body` through the service (compute capped at `seconds`); the Job and the Result. */
  async function solve(body: any, seconds: number): Promise<{ job: any; result: any }> {
    const posted = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', {
      ...body,
      options: { ...body.options, time_limit: seconds },
    });
    if (posted.body.status !== 'succeeded')
      throw new Error(`job did not succeed: ${JSON.stringify(posted.body).slice(0, 500)}`);
    const result = (await call(run.service.url, key, 'GET', `/v1/jobs/${posted.body.id}/result`)).body;
    return { job: posted.body, result };
  }

  /**
   * A page on `job`'s viewer_url once it is ready; the ms from navigation to the ready marker.
   * With `plan`, the page gets that document from its plan.json request instead of the job's.
   */
  async function openViewer(
    t: Test,
    job: any,
    plan?: ViewerPlan,
  ): Promise<{ page: Page; ms: number; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    if (plan) await page.route('**/plan.json?*', (route) => route.fulfill({ json: { ...plan, job_id: job.id } }));
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    const began = Date.now();
    await page.goto(job.viewer_url.replace(/^http:\/\/[^/]+/, run.service.url));
    await page.waitForSelector('body[data-ready="1"], body[data-error]', { timeout: 60_000 });
    const ms = Date.now() - began;
    t.equal(await page.getAttribute('body', 'data-error'), null, 'the page loaded the plan');
    return { page, ms, problems };
  }

  /** The details' radius field of a round item (shape cylinder or drum), else nothing. */
  const radiusOf = (item: any): { radius?: string } =>
    item?.shape === 'cylinder' || item?.shape === 'drum' ? { radius: String(item.radius) } : {};

  /** The details panel's raw values by field. */
  const detailsOf = (page: Page): Promise<Record<string, string>> =>
    page.$$eval('#details dd', (dds) =>
      Object.fromEntries(
        dds.map((d) => [
          (d as unknown as PageElement).dataset['field'],
          (d as unknown as PageElement).dataset['value'],
        ]),
      ),
    );

  const dataset = (page: Page): Promise<Record<string, string>> =>
    page.evaluate(() => ({ ...document.body.dataset }) as Record<string, string>);
  const upTo = (placements: any[], step: number): number => placements.filter((p) => p.step <= step).length;

  /** Moves the slider to `step` as a user dragging it would (value + input event). */
  async function slideTo(page: Page, step: number): Promise<void> {
    await page.$eval(
      '#step',
      (el, s) => {
        const input = el as unknown as PageElement;
        input.value = String(s);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      },
      step,
    );
  }

  for (const file of examples) {
    t.test(`viewer of ${file}`, async (t) => {
      const body = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'));
      const { job, result } = await solve(body, 4);
      const name = file.replace(/\.json$/, '');
      const { page, ms, problems } = await openViewer(t, job);
      try {
        const frameMs = await page.evaluate(() => window.planViewer!.orbitFrameMs(20));
        t.comment(
          `${file}: ${result.vehicles[0].placements.length} units in vehicle 1, viewer ready ${ms} ms after navigation, orbit ${frameMs.toFixed(0)} ms per frame (SwiftShader)`,
        );
        const vehicle = result.vehicles[0];
        const placements: any[] = vehicle.placements;
        const last = Math.max(...placements.map((p) => p.step));
        let ds = await dataset(page);
        t.equal(ds['units'], String(placements.length), `${placements.length} units in vehicle 1`);
        t.equal(ds['visible'], String(placements.length), 'all drawn at first');
        t.equal(ds['step'], String(last), `at the last step, ${last}`);
        t.equal(await page.$eval('#step', (el) => (el as unknown as PageElement).max), String(last));
        const full = await page.locator('#scene').screenshot();

        // The keyboard: Home empties the vehicle, arrow keys load step by step.
        await page.focus('#step');
        await page.keyboard.press('Home');
        ds = await dataset(page);
        t.same([ds['step'], ds['visible']], ['0', '0'], 'Home: step 0, nothing drawn');
        const empty = await page.locator('#scene').screenshot();
        t.notOk(empty.equals(full), 'the empty vehicle looks different from the loaded one');
        for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
        ds = await dataset(page);
        t.same(
          [ds['step'], ds['visible']],
          ['3', String(upTo(placements, 3))],
          `3 × ArrowRight: step 3, ${upTo(placements, 3)} units`,
        );
        const middle = Math.ceil(last / 2);
        await slideTo(page, middle);
        ds = await dataset(page);
        t.same(
          [ds['step'], ds['visible']],
          [String(middle), String(upTo(placements, middle))],
          `slider at ${middle}: ${upTo(placements, middle)} units`,
        );
        t.match(
          await page.textContent('#step-out'),
          new RegExp(`^Step ${middle} of ${last} · ${upTo(placements, middle)} units loaded$`),
        );
        await page.screenshot({ path: join(ARTIFACTS, `${name}-step-${middle}.png`) });
        await page.keyboard.press('End');
        ds = await dataset(page);
        t.same([ds['step'], ds['visible']], [String(last), String(placements.length)], 'End: the whole load');

        // Click the last unit loaded and read its details.
        const target = placements.reduce((a, b) => (b.step > a.step ? b : a));
        const point = await page.evaluate(
          ([item, instance]) => window.planViewer!.screenPoint(item as string, instance as number),
          [target.item_id, target.instance],
        );
        t.ok(point, 'the last unit is on screen');
        await page.mouse.click(point!.x, point!.y);
        await page.waitForSelector('#details[data-instance]:not([data-instance=""])', { timeout: 10_000 });
        const shown = await page.$$eval('#details dd', (dds) =>
          Object.fromEntries(
            dds.map((d) => [
              (d as unknown as PageElement).dataset['field'],
              (d as unknown as PageElement).dataset['value'],
            ]),
          ),
        );
        const picked = placements.find((p) => p.item_id === shown['item'] && String(p.instance) === shown['instance']);
        t.ok(picked, `the picked unit (${shown['item']} #${shown['instance']}) is a placement of vehicle 1`);
        if (picked.item_id !== target.item_id || picked.instance !== target.instance)
          t.comment(`clicked ${target.item_id} #${target.instance}, a unit in front was picked`);
        t.same(
          shown,
          {
            item: picked.item_id,
            label: picked.label,
            instance: String(picked.instance),
            step: String(picked.step),
            weight: String(picked.weight),
            position: `${picked.x},${picked.y},${picked.z}`,
            size: `${picked.length},${picked.width},${picked.height}`,
            orientation: picked.orientation,
            rotated: String(picked.rotated),
            ...radiusOf(body.items.find((it: any) => it.id === picked.item_id)),
            ...(body.items.find((it: any) => it.id === picked.item_id)?.hazardous ? { hazardous: 'true' } : {}),
          },
          "the details are the placement's",
        );
        await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });

        // Legend: every item; by group, every group (and "No group" for the rest).
        t.equal(await page.locator('#legend li').count(), body.items.length, `legend: all ${body.items.length} items`);
        await page.selectOption('#colour-mode', 'group');
        const groups = new Set(body.items.map((it: any) => it.group).filter(Boolean));
        const ungrouped = body.items.some((it: any) => !it.group) ? 1 : 0;
        t.equal(
          await page.locator('#legend li').count(),
          groups.size + ungrouped,
          `legend by group: ${groups.size} groups${ungrouped ? ' and "No group"' : ''}`,
        );
        if (groups.size > 0) await page.screenshot({ path: join(ARTIFACTS, `${name}-groups.png`) });
        await page.selectOption('#colour-mode', 'color');

        // Unplaced units, with their reasons.
        const listed = await page.$$eval('#unplaced li[data-count]', (lis) =>
          lis.map(
            (li) =>
              [
                (li as unknown as PageElement).dataset['reason'],
                Number((li as unknown as PageElement).dataset['count']),
              ] as const,
          ),
        );
        t.equal(
          listed.reduce((n, [, c]) => n + c, 0),
          result.unplaced.length,
          `${result.unplaced.length} unplaced units listed`,
        );
        t.same(
          new Set(listed.map(([r]) => r)),
          new Set(result.unplaced.map((u: any) => u.reason)),
          'with their reasons',
        );

        // The weight distribution is the shared module's.
        const expected = weightDistribution(
          placements.map((p) => ({ x: p.x, length: p.length, weight: p.weight })),
          vehicle.length,
        );
        const chart = await page.$eval('#weight-chart', (el) => ({ ...(el as unknown as PageElement).dataset }));
        t.ok(
          Math.abs(Number(chart['cogOffset']) - expected.cogOffset!) < 1e-6,
          `centre of gravity ${expected.cogOffset!.toFixed(1)} cm from the middle`,
        );
        t.ok(Math.abs(Number(chart['totalKg']) - vehicle.total_weight) < 1e-6, `${vehicle.total_weight} kg`);
        t.equal(
          await page.locator('#weight-chart rect.bar').count(),
          expected.sections.length,
          `${expected.sections.length} sections of a metre`,
        );

        if (result.vehicles.length > 1) {
          await page.selectOption('#vehicle', '1');
          ds = await dataset(page);
          t.same(
            [ds['vehicle'], ds['units'], ds['visible']],
            ['1', String(result.vehicles[1].placements.length), String(result.vehicles[1].placements.length)],
            'the switcher shows vehicle 2',
          );
          await page.screenshot({ path: join(ARTIFACTS, `${name}-vehicle-2.png`) });
        }
        t.same(problems, [], 'no script errors');
      } finally {
        await page.close();
      }
    });
  }

  t.test('a 2,000-unit plan loads and orbits (times printed)', async (t) => {
    const sku = (id: string, length: number, width: number, height: number, weight: number) => ({
      id,
      label: `Carton ${length}×${width}×${height}`,
      length,
      width,
      height,
      weight,
      quantity: 500,
    });
    const body = {
      reference: '2,000 cartons',
      vehicles: [
        {
          id: 'trailer',
          type: 'trailer',
          name: 'Semi-trailer 13.6 m',
          length: 1360,
          width: 248,
          height: 270,
          max_weight: 24_000,
        },
      ],
      items: [sku('c1', 40, 30, 25, 6), sku('c2', 30, 20, 20, 3), sku('c3', 50, 30, 30, 9), sku('c4', 40, 40, 30, 8)],
      options: { packing_mode: 'auto' },
    };
    const { job, result } = await solve(body, 10);
    const units = result.vehicles.reduce((n: number, v: any) => n + v.placements.length, 0);
    t.equal(units + result.unplaced.length, 2000);
    const { page, ms, problems } = await openViewer(t, job);
    try {
      const ds = await dataset(page);
      t.equal(ds['units'], String(result.vehicles[0].placements.length));
      const frameMs = await page.evaluate(() => window.planViewer!.orbitFrameMs(60));
      t.comment(
        `2,000-unit plan (${units} placed, ${result.vehicles[0].placements.length} in vehicle 1 of ${result.vehicles.length}): viewer ready ${ms} ms after navigation (page's own clock ${ds['loadMs']} ms), orbit ${frameMs.toFixed(1)} ms per frame (headless Chromium, SwiftShader software WebGL, ${60} frames)`,
      );
      await page.screenshot({ path: join(ARTIFACTS, '2000-units.png') });
      t.same(problems, [], 'no script errors');
    } finally {
      await page.close();
    }
  });

  t.test('round cargo: drums and rolls drawn as cylinders, counted per step, picked by a click', async (t) => {
    // Any solved job gives a signed viewer link; the page is served its hand-built plan instead.
    const body = {
      reference: 'round cargo',
      vehicles: [
        {
          id: 'c20',
          type: 'container',
          name: '20 ft container',
          length: 589,
          width: 235,
          height: 239,
          max_weight: 28_000,
        },
      ],
      items: [
        { id: 'drum-200', label: 'Drum 200 l', shape: 'drum', radius: 29.5, height: 88, weight: 220, quantity: 4 },
      ],
    };
    const { job } = await solve(body, 2);
    const plan = roundPlan();
    const kinds = (v: { placements: { item_id: string }[] }) =>
      [...new Set(v.placements.map((p) => p.item_id))]
        .map((id) => `${v.placements.filter((p) => p.item_id === id).length} ${id}`)
        .join(', ');
    t.comment(`round cargo: ${plan.vehicles.map((v) => `${v.name}: ${kinds(v)}`).join('; ')}`);
    const viewer: ViewerPlan = {
      job_id: job.id,
      revision: 0,
      model: null,
      reference: 'Drums and rolls (hand-built)',
      created_at: job.created_at ?? '2026-11-23T10:00:00Z',
      expires_at: '2099-01-01T00:00:00Z',
      vehicles: plan.vehicles.map((v) => ({ ...v, blocked_areas: [], aux_deck: null })),
      unplaced: [],
      items: ITEMS.map((it) => ({
        ...it,
        quantity: plan.vehicles.reduce((n, v) => n + v.placements.filter((p) => p.item_id === it.id).length, 0),
        group: null,
        color: null,
        hazardous: false,
      })),
      groups: [],
      warnings: [],
    };
    const { page, problems } = await openViewer(t, job, viewer);
    try {
      for (const [index, v] of plan.vehicles.entries()) {
        if (index > 0) await page.selectOption('#vehicle', String(index));
        const placements = v.placements;
        const last = Math.max(...placements.map((p) => p.step));
        let ds = await dataset(page);
        t.same(
          [ds['vehicle'], ds['units'], ds['visible'], ds['step']],
          [String(index), String(placements.length), String(placements.length), String(last)],
          `${v.name}: all ${placements.length} units drawn at step ${last}`,
        );
        for (const step of [0, 1, Math.ceil(last / 3), Math.ceil(last / 2), last - 1, last]) {
          await slideTo(page, step);
          ds = await dataset(page);
          t.same(
            [ds['step'], ds['visible']],
            [String(step), String(upTo(placements, step))],
            `${v.name}, step ${step}: ${upTo(placements, step)} units`,
          );
        }
        await page.screenshot({ path: join(ARTIFACTS, `round-cargo-${index + 1}.png`) });
        const roundSwatches = await page.$$eval('#legend li', (lis) =>
          lis
            .filter((li) => (li as any).querySelector('.swatch.round'))
            .map((li) => (li as unknown as PageElement).dataset['key']),
        );
        t.same(roundSwatches.sort(), ['drum-200', 'roll'], 'round swatches for the drums and the rolls');

        // Click the drum and the roll loaded last (near the door, nearest the camera): their details.
        for (const itemId of ['drum-200', 'roll']) {
          const units = placements.filter((p) => p.item_id === itemId);
          if (units.length === 0) continue;
          const target = units.reduce((a, b) => (b.step > a.step ? b : a));
          const point = await page.evaluate(
            ([item, instance]) => window.planViewer!.screenPoint(item as string, instance as number),
            [target.item_id, target.instance],
          );
          t.ok(point, `${itemId} #${target.instance} is on screen`);
          await page.mouse.click(point!.x, point!.y);
          await page.waitForSelector(`#details[data-item="${itemId}"][data-instance="${target.instance}"]`, {
            timeout: 10_000,
          });
          const shown = await detailsOf(page);
          t.same(
            shown,
            {
              item: target.item_id,
              label: target.label,
              instance: String(target.instance),
              step: String(target.step),
              weight: String(target.weight),
              position: `${target.x},${target.y},${target.z}`,
              size: `${target.length},${target.width},${target.height}`,
              radius: String(ITEMS.find((it) => it.id === itemId)!.length / 2),
              orientation: target.orientation,
              rotated: String(target.rotated),
            },
            `${v.name}: the clicked ${itemId} #${target.instance} shows its details and radius`,
          );
        }
        await page.screenshot({ path: join(ARTIFACTS, `round-cargo-${index + 1}-picked.png`) });
      }

      // The README's picture: the staggered drums of the container, a drum of the middle picked.
      await page.selectOption('#vehicle', '0');
      const drum = plan.vehicles[0]!.placements.find((p) => p.step === 20)!;
      const point = await page.evaluate(
        ([item, instance]) => window.planViewer!.screenPoint(item as string, instance as number),
        [drum.item_id, drum.instance],
      );
      await page.mouse.click(point!.x, point!.y);
      await page.waitForSelector(`#details[data-instance="${drum.instance}"]`, { timeout: 10_000 });
      await page.waitForFunction(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))),
      );
      mkdirSync(join(README_PICTURE, '..'), { recursive: true });
      await page.screenshot({ path: README_PICTURE });
      const kib = statSync(README_PICTURE).size / 1024;
      t.ok(kib <= 150, `docs/img/viewer-drums.png: ${kib.toFixed(0)} KiB (at most 150)`);
      t.same(problems, [], 'no script errors');
    } finally {
      await page.close();
    }
  });
}
