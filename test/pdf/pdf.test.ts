import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Plan, UnplacedUnit } from '../../domain/pack/plan.js';
import { type PlanDocument, renderPlanPdf } from '../../pdf/pdf.js';
import { STEP_ROWS_PER_PAGE, stepPageCount } from '../../pdf/step-table.js';
import { buildVehicle, countPdfPages } from './plan-fixture.js';

function twoVehiclePlan(): Plan {
  const inst = new Map<string, number>();
  const a = buildVehicle(
    {
      index: 0,
      id: 'semi',
      name: 'Semi-trailer 13.6 m',
      type: 'trailer',
      length: 1360,
      width: 248,
      height: 270,
      maxWeight: 24000,
    },
    [
      { id: 'pal-bev', label: 'EUR pallet – beverages', length: 120, width: 80, height: 150, weight: 780, count: 12 },
      {
        id: 'pal-dry',
        label: 'EUR pallet – dry goods',
        length: 80,
        width: 120,
        height: 120,
        weight: 420,
        count: 14,
        orientation: 'wlh',
      },
    ],
    inst,
  );
  const b = buildVehicle(
    {
      index: 1,
      id: 'box',
      name: 'Box truck',
      type: 'truck',
      length: 750,
      width: 248,
      height: 260,
      maxWeight: 9000,
      copy: 2,
      autoAdded: true,
    },
    [
      { id: 'ctn-a', label: 'Carton kitchenware', length: 60, width: 40, height: 40, weight: 12, count: 80 },
      {
        id: 'ctn-c',
        label: 'Carton spares',
        length: 30,
        width: 30,
        height: 30,
        weight: 6,
        count: 20,
        orientation: 'hwl',
      },
    ],
    inst,
  );
  const unplaced: UnplacedUnit[] = [
    { item_id: 'ctn-a', instance: 81, label: 'Carton kitchenware', reason: 'no_space' },
    { item_id: 'ctn-a', instance: 82, label: 'Carton kitchenware', reason: 'weight_limit' },
  ];
  return { vehicles: [a.vehicle, b.vehicle], unplaced };
}

const base: Omit<PlanDocument, 'plan'> = {
  jobId: 'job_test01',
  reference: 'PO-4711',
  createdAt: '2024-06-01T08:30:00Z',
  colors: { 'pal-bev': '#1f77b4' },
};

t.test('two vehicles: summary, per vehicle an overview and its instruction pages, then the unit lists', async (t) => {
  const plan = twoVehiclePlan();
  t.equal(plan.vehicles[0]!.placements.length, 26);
  t.equal(plan.vehicles[1]!.placements.length, 100);
  t.equal(STEP_ROWS_PER_PAGE, 42);
  const pdf = await renderPlanPdf({ ...base, plan });
  t.ok(Buffer.isBuffer(pdf));
  t.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  t.match(pdf.subarray(-8).toString('latin1'), /%%EOF/);
  // 1 summary + vehicle 1 (overview, 2 instruction pages: packing list and 2 pictures, then the
  // third) + vehicle 2 (overview, 2 instruction pages: packing list and 2 pictures, then 3 more)
  // + appendix (1 unit-list page for 26 units, 3 for 100 at 42 a page).
  t.equal(countPdfPages(pdf), 11);
  t.equal(countPdfPages(pdf), 1 + (1 + 2) + (1 + 2) + stepPageCount(26) + stepPageCount(100));
  const again = await renderPlanPdf({ ...base, plan });
  t.ok(again.equals(pdf), 'the same plan renders to the same bytes');
});

t.test('no vehicles: the summary alone, continued over pages when the unplaced list is long', async (t) => {
  const unplaced: UnplacedUnit[] = Array.from({ length: 150 }, (_, i) => ({
    item_id: `sku-${i}`,
    instance: 1,
    label: `Item ${i}`,
    reason: 'no_space',
  }));
  const short = await renderPlanPdf({
    jobId: 'job_x',
    createdAt: '2024-06-01T00:00:00Z',
    plan: { vehicles: [], unplaced: unplaced.slice(0, 2) },
  });
  t.equal(countPdfPages(short), 1);
  const long = await renderPlanPdf({
    jobId: 'job_x',
    createdAt: '2024-06-01T00:00:00Z',
    plan: { vehicles: [], unplaced },
  });
  // 150 rows: about 27 fit under the header of page 1, 42 on each continuation page.
  t.equal(countPdfPages(long), 4);
});

/** Writes `pdf` to a fresh temporary file and returns its path. */
function writePdf(pdf: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'plan-pdf-')), 'plan.pdf');
  writeFileSync(file, pdf);
  return file;
}

/** The text of page `n` of `file`, laid out (pdftotext -layout). */
function pageText(file: string, n: number): string {
  return execFileSync('pdftotext', ['-layout', '-f', String(n), '-l', String(n), file, '-'], { encoding: 'utf8' });
}

function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

t.test(
  'text of the pages (needs pdftotext)',
  { skip: hasPdftotext() ? false : 'pdftotext not installed' },
  async (t) => {
    const file = writePdf(await renderPlanPdf({ ...base, plan: twoVehiclePlan() }));
    const page = (n: number) => pageText(file, n);
    const summary = page(1);
    t.match(summary, /job_test01/);
    t.match(summary, /PO-4711/);
    t.match(summary, /2024-06-01 08:30 UTC/, 'the plan date in the header block');
    t.match(summary, /Seal number/);
    t.match(summary, /Loaded by · signature/);
    t.match(summary, /126 \/ 128/, 'units placed / requested');
    t.match(summary, /Loading metres \(LDM\)[\s\S]*10\.1 m/, 'LDM over both vehicles: 8 m + 2.1 m');
    t.match(summary, /Semi-trailer 13\.6 m.* 8 +2–4/, 'vehicle 1: 8 loading metres, pages 2–4');
    t.match(summary, /Box truck.* 2\.1 +5–7/, 'vehicle 2: 2.1 loading metres, pages 5–7');
    t.match(summary, /pal-bev +EUR pallet – beverages +12 +9,360 +#1: 12/, 'packing list per vehicle');
    t.match(summary, /ctn-a +Carton kitchenware +80 +960 +#2: 80/);
    t.match(summary, /no_space × 1, weight_limit × 1/);
    const v1 = page(2);
    t.match(v1, /Vehicle 1 of 2/);
    t.match(v1, /PO-4711[\s\S]*2024-06-01 08:30 UTC/, 'header block on the vehicle page');
    t.match(v1, /loading metres 8 m/);
    t.match(v1, /Loading instructions: pages 3–4 · unit list: page 8 \(appendix\)/);
    t.match(
      v1,
      /Weight along the length \(kg per metre\): 15,240 kg · centre of gravity 3\.88 m from the front wall, 2\.92 m ahead of the middle/,
    );
    t.match(
      v1,
      /Check: Centre of gravity 2\.92 m ahead of the middle \(21 % of the length; limit 15 %\)/,
      'front-heavy: remarked without axle access',
    );
    t.match(v1, /EUR pallet – beverages \(pal-bev\) × 12 +EUR pallet – dry goods \(pal-dry\) × 14/, 'colour key');
    const ins = page(3);
    t.match(ins, /Packing list · loading metres \(LDM\) 8 m/);
    t.match(ins, /pal-dry +EUR pallet – dry goods +14 +420 +5,880 +2–3/);
    t.match(ins, /1\. Steps 1–12: 12 × EUR pallet – beverages/);
    t.match(ins, /3 across × 1 high × 4 deep · across the full width at the front wall · 9,360 kg/);
    t.match(ins, /2\. Steps 13–24: 12 × EUR pallet – dry goods/);
    t.match(ins, /After step 12[\s\S]*After step 24/);
    t.match(
      page(4),
      /3\. Steps 25–26: 2 × EUR pallet – dry goods[\s\S]*1 across × 2 high × 1 deep · against the right wall from 7\.2 m · 840 kg · turned 90°/,
    );
    const v2 = page(5);
    t.match(v2, /Vehicle 2 of 2/);
    t.match(v2, /AUTO-ADDED/);
    t.match(v2, /FRONT WALL/);
    t.match(v2, /DOOR/);
    t.match(v2, /A light load \(under 25 % of the payload\)/, '1,080 kg at the front of a 9 t truck: no remark');
    t.match(page(6), /1\. Steps 1–72: 72 × Carton kitchenware[\s\S]*6 across × 6 high × 2 deep/);
    const appendix = page(9);
    t.match(appendix, /Appendix: unit list · Vehicle 2 of 2 · Box truck · steps 1–42 of 100/);
    t.match(appendix, /ctn-a#1\b/);
    t.match(appendix, /ctn-a#2\b.*on 1\b/, 'the second carton rests on step 1');
    t.match(page(11), /ctn-c#20\b/, 'the last unit is on the last page');
    t.match(page(11), /Page 11 of 11/);
  },
);

t.test(
  'the colour key lists every item, continued on the next page when long',
  { skip: hasPdftotext() ? false : 'pdftotext not installed' },
  async (t) => {
    const items = Array.from({ length: 30 }, (_, i) => ({
      id: `sku-${String(i).padStart(2, '0')}`,
      label: `Carton of assorted goods number ${i}`,
      length: 40,
      width: 62,
      height: 30,
      weight: 8,
      count: 4,
    }));
    const { vehicle } = buildVehicle(
      {
        index: 0,
        id: 'semi',
        name: 'Semi-trailer',
        type: 'trailer',
        length: 1360,
        width: 248,
        height: 270,
        maxWeight: 24000,
      },
      items,
    );
    t.equal(vehicle.placements.length, 120);
    const pdf = await renderPlanPdf({ ...base, plan: { vehicles: [vehicle], unplaced: [] } });
    const file = writePdf(pdf);
    // The summary's packing list of 30 items takes two pages: the vehicle starts on page 3.
    const overview = pageText(file, 3),
      next = pageText(file, 4);
    t.match(overview, /Vehicle 1 of 1/);
    t.match(overview, /colour key continued on page 4/);
    t.match(next, /Colour key \(continued from page 3\)/);
    const key = (text: string) => [...text.matchAll(/\((sku-\d\d)\) × 4/g)].map((m) => m[1]);
    const listed = [...key(overview), ...key(next)];
    t.same(
      listed,
      items.map((i) => i.id),
      'every item once, in loading order',
    );
    t.ok(key(overview).length >= 4, `${key(overview).length} on the overview page`);
  },
);

t.test('2000 units: the page count, and the render time and size printed for the closing note', async (t) => {
  const { vehicle } = buildVehicle(
    {
      index: 0,
      id: 'semi',
      name: 'Semi-trailer 13.6 m',
      type: 'trailer',
      length: 1360,
      width: 248,
      height: 270,
      maxWeight: 24000,
    },
    [
      { id: 'ctn-s', label: 'Carton small', length: 40, width: 30, height: 25, weight: 5, count: 1000 },
      {
        id: 'ctn-t',
        label: 'Carton tall',
        length: 40,
        width: 30,
        height: 27,
        weight: 7,
        count: 1000,
        orientation: 'lhw',
      },
    ],
  );
  t.equal(vehicle.placements.length, 2000);
  const start = performance.now();
  const pdf = await renderPlanPdf({ ...base, plan: { vehicles: [vehicle], unplaced: [] } });
  const ms = performance.now() - start;
  t.comment(`2000 units: ${ms.toFixed(0)} ms, ${(pdf.length / 1024).toFixed(0)} KiB, ${countPdfPages(pdf)} pages`);
  // Summary, overview, 2 instruction pages (packing list and 4 blocks: 8 × 10 × 12 and 4 × 10 × 1 of each carton), 48 unit-list pages.
  t.equal(countPdfPages(pdf), 1 + 1 + 2 + Math.ceil(2000 / 42));
});
