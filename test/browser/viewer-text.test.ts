/**
 * The 3D viewer shows user text safely and in the organization's units, in a real browser
 * (headless Chromium, as test/browser/viewer.test.ts): a label "\u202Eevil" reads "evil" in the
 * legend (the override is removed, the name isolated in a `<bdi dir="auto">`), an Arabic label
 * keeps its characters and reads right to left, and an imperial organization's plan shows
 * inches and pounds (vehicle summary, weight chart).
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { ensureViewerBuild } from '../../scripts/front-end-builds.js';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../../projections/organizations/projection.js';
import { CM_PER_INCH, KG_PER_POUND } from '../../display/units.js';

// What the callbacks run in the page touch (the root tsconfig has no DOM lib).
interface PageElement {
  textContent: string | null;
  dir: string;
  tagName: string;
}
declare const getComputedStyle: (el: unknown) => { direction: string; unicodeBidi: string };

const LABELS = { evil: '\u202eevil', arabic: 'صندوق', cjk: '货物', box: 'Box' };

if (!existsSync(CHROMIUM)) {
  const reason = `no browser check of the viewer: ${CHROMIUM} is not installed`;
  t.comment(reason);
  t.pass('viewer text in a browser', { skip: reason });
} else {
  const run = inProcessService(t, 'viewer-text');
  let browser: Browser;
  let job: any;

  t.before(async () => {
    t.equal(await ensureViewerBuild('stale'), 'fresh', 'the viewer is built');
    const o = await orgWithKey(run.service);
    const posted = await call(run.service.url, o.key, 'POST', '/v1/pack?wait=60', {
      vehicles: [{ id: 'truck', type: 'truck', name: 'Truck', length: 400, width: 240, height: 260, max_weight: 3000 }],
      items: Object.entries(LABELS).map(([id, label]) => ({
        id,
        label,
        length: 60,
        width: 40,
        height: 40,
        weight: 12.5,
        quantity: 2,
      })),
      options: { time_limit: 4 },
    });
    job = posted.body;
    if (job.status !== 'succeeded') throw new Error(`job: ${JSON.stringify(job).slice(0, 300)}`);
    // The organization shows imperial units (its read model; the plan links read it when opened).
    const orgs = run.service.services.reads.collection<OrganizationDocument>(ORGANIZATIONS);
    const doc = (await orgs.get(o.orgId))!;
    await orgs.put({ ...doc, displayUnits: 'imperial', position: doc.position + 0.5 });
    browser = await launchChromium({ webgl: true });
  });
  t.teardown(async () => {
    await browser?.close();
  });

  t.test('legend labels are clean and isolated; the plan reads in inches and pounds', async (t) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(job.viewer_url.replace(/^http:\/\/[^/]+/, run.service.url));
    await page.waitForSelector('body[data-ready="1"], body[data-error]', { timeout: 60_000 });
    t.equal(await page.getAttribute('body', 'data-error'), null, 'the page loaded the plan');

    const names = await page.$$eval('#legend li .name', (els) =>
      els.map((e) => {
        const el = e as unknown as PageElement;
        return { text: el.textContent, dir: el.dir, tag: el.tagName, bidi: getComputedStyle(el).unicodeBidi };
      }),
    );
    const texts = names.map((n) => n.text);
    t.ok(texts.includes('evil'), `"\\u202Eevil" reads "evil" (${JSON.stringify(texts)})`);
    t.notOk(
      texts.some((s) => /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/.test(s ?? '')),
      'no bidi formatting character in the legend',
    );
    t.ok(texts.includes('صندوق'), 'the Arabic label keeps its characters');
    t.ok(texts.includes('货物'), 'the Chinese label keeps its characters');
    for (const n of names)
      t.same([n.tag, n.dir, n.bidi], ['BDI', 'auto', 'isolate'], `${n.text}: an isolated <bdi dir="auto">`);
    const arabicDirection = await page.$eval(
      '#legend li[data-key="arabic"] .name',
      (e) => getComputedStyle(e).direction,
    );
    t.equal(arabicDirection, 'rtl', 'the Arabic label reads right to left');
    const evilDirection = await page.$eval('#legend li[data-key="evil"] .name', (e) => getComputedStyle(e).direction);
    t.equal(evilDirection, 'ltr', '"evil" reads left to right');

    const summary = (await page.textContent('#vehicle-summary')) ?? '';
    const inner = `${Number((400 / CM_PER_INCH).toFixed(1))} × ${Number((240 / CM_PER_INCH).toFixed(1))} × ${Number((260 / CM_PER_INCH).toFixed(1))} in`;
    t.match(summary, inner, `vehicle size in inches: ${inner}`);
    t.match(summary, `of ${Math.round(3000 / KG_PER_POUND).toLocaleString('en-US')} lb`, 'payload in pounds');
    t.notMatch(summary, /\bcm\b|\bkg\b/, 'no metric units in the summary');
    const weight = (await page.textContent('#weight-summary')) ?? '';
    t.match(weight, /lb\/ft/, `weight chart in lb/ft: ${weight}`);
    t.match(weight, /\d ft/, 'distances in feet');
    t.same(problems, [], 'no page errors');
    await page.close();
  });
}
