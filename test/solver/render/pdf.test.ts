import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Plan, UnplacedUnit } from '../../../domain/pack/plan.js';
import { type PlanDocument, renderPlanPdf } from '../../../solver/render/pdf.js';
import { STEP_ROWS_PER_PAGE, stepPageCount } from '../../../solver/render/step-table.js';
import { buildVehicle, countPdfPages } from './plan-fixture.js';

function twoVehiclePlan(): Plan {
  const inst = new Map<string, number>();
  const a = buildVehicle(
    { index: 0, id: 'semi', name: 'Semi-trailer 13.6 m', type: 'trailer', length: 1360, width: 248, height: 270, maxWeight: 24000 },
    [
      { id: 'pal-bev', label: 'EUR pallet – beverages', length: 120, width: 80, height: 150, weight: 780, count: 12 },
      { id: 'pal-dry', label: 'EUR pallet – dry goods', length: 80, width: 120, height: 120, weight: 420, count: 14, orientation: 'wlh' },
    ],
    inst,
  );
  const b = buildVehicle(
    { index: 1, id: 'box', name: 'Box truck', type: 'truck', length: 750, width: 248, height: 260, maxWeight: 9000, copy: 2, autoAdded: true },
    [
      { id: 'ctn-a', label: 'Carton kitchenware', length: 60, width: 40, height: 40, weight: 12, count: 80 },
      { id: 'ctn-c', label: 'Carton spares', length: 30, width: 30, height: 30, weight: 6, count: 20, orientation: 'hwl' },
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

t.test('two vehicles: a PDF with summary + per vehicle overview and step pages', async (t) => {
  const plan = twoVehiclePlan();
  t.equal(plan.vehicles[0]!.placements.length, 26);
  t.equal(plan.vehicles[1]!.placements.length, 100);
  t.equal(STEP_ROWS_PER_PAGE, 42);
  const pdf = await renderPlanPdf({ ...base, plan });
  t.ok(Buffer.isBuffer(pdf));
  t.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  t.match(pdf.subarray(-8).toString('latin1'), /%%EOF/);
  // 1 summary + (1 overview + 1 step page) + (1 overview + 3 step pages: 100 rows at 42 a page)
  t.equal(countPdfPages(pdf), 7);
  t.equal(countPdfPages(pdf), 1 + (1 + stepPageCount(26)) + (1 + stepPageCount(100)));
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
  const short = await renderPlanPdf({ jobId: 'job_x', createdAt: '2024-06-01T00:00:00Z', plan: { vehicles: [], unplaced: unplaced.slice(0, 2) } });
  t.equal(countPdfPages(short), 1);
  const long = await renderPlanPdf({ jobId: 'job_x', createdAt: '2024-06-01T00:00:00Z', plan: { vehicles: [], unplaced } });
  // 150 rows: about 27 fit under the header of page 1, 42 on each continuation page.
  t.equal(countPdfPages(long), 4);
});

function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

t.test('text of the pages (needs pdftotext)', { skip: hasPdftotext() ? false : 'pdftotext not installed' }, async (t) => {
  const pdf = await renderPlanPdf({ ...base, plan: twoVehiclePlan() });
  const dir = mkdtempSync(join(tmpdir(), 'plan-pdf-'));
  const file = join(dir, 'plan.pdf');
  writeFileSync(file, pdf);
  const page = (n: number) => execFileSync('pdftotext', ['-layout', '-f', String(n), '-l', String(n), file, '-'], { encoding: 'utf8' });
  const summary = page(1);
  t.match(summary, /job_test01/);
  t.match(summary, /PO-4711/);
  t.match(summary, /126 \/ 128/, 'units placed / requested');
  t.match(summary, /Semi-trailer 13\.6 m.*2–3/, 'vehicle 1 starts on page 2, steps on 3');
  t.match(summary, /no_space × 1, weight_limit × 1/);
  const v2 = page(4);
  t.match(v2, /Vehicle 2 of 2/);
  t.match(v2, /AUTO-ADDED/);
  t.match(v2, /FRONT WALL/);
  t.match(v2, /DOOR/);
  const steps = page(5);
  t.match(steps, /steps 1–42 of 100/);
  t.match(steps, /ctn-a#1\b/);
  t.match(steps, /ctn-a#2\b.*on 1\b/, 'the second carton rests on step 1');
  t.match(page(7), /ctn-c#20\b/, 'the last unit is on the last page');
  t.match(page(7), /Page 7 of 7/);
});

t.test('2000 units render in reasonable time', async (t) => {
  const { vehicle } = buildVehicle(
    { index: 0, id: 'semi', name: 'Semi-trailer 13.6 m', type: 'trailer', length: 1360, width: 248, height: 270, maxWeight: 24000 },
    [
      { id: 'ctn-s', label: 'Carton small', length: 40, width: 30, height: 25, weight: 5, count: 1000 },
      { id: 'ctn-t', label: 'Carton tall', length: 40, width: 30, height: 27, weight: 7, count: 1000, orientation: 'lhw' },
    ],
  );
  t.equal(vehicle.placements.length, 2000);
  const start = performance.now();
  const pdf = await renderPlanPdf({ ...base, plan: { vehicles: [vehicle], unplaced: [] } });
  const ms = performance.now() - start;
  t.comment(`2000 units: ${ms.toFixed(0)} ms, ${(pdf.length / 1024).toFixed(0)} KiB, ${countPdfPages(pdf)} pages`);
  t.equal(countPdfPages(pdf), 1 + 1 + Math.ceil(2000 / 42));
  t.ok(ms < 15000, `rendered in ${ms.toFixed(0)} ms`);
});
