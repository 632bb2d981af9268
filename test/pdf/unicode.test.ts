/** The PDF embeds a Unicode font: Polish, Greek and Cyrillic labels come out as written. */
import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Plan } from '../../domain/pack/plan.js';
import { renderPlanPdf } from '../../pdf/pdf.js';

const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined;

t.test(
  'labels, names and references outside Latin-1 are readable',
  { skip: hasPdftotext ? false : 'pdftotext (poppler-utils) is not installed' },
  async (t) => {
    const plan: Plan = {
      vehicles: [
        {
          index: 0,
          vehicle_id: 'v',
          copy: 1,
          auto_added: false,
          name: 'Ciężarówka Łódź',
          type: 'truck',
          length: 600,
          width: 240,
          height: 240,
          max_weight: 5000,
          items_placed: 1,
          total_weight: 10,
          volume_utilization: 100 ** 3 / (600 * 240 * 240),
          weight_utilization: 0.002,
          center_of_gravity: { x: 50, y: 50, z: 50 },
          placements: [
            {
              item_id: 'a',
              instance: 1,
              label: 'Żółć Привет Ωμέγα',
              x: 0,
              y: 0,
              z: 0,
              length: 100,
              width: 100,
              height: 100,
              rotated: false,
              orientation: 'lwh',
              step: 1,
              weight: 10,
            },
          ],
        },
      ],
      unplaced: [],
    };
    const dir = mkdtempSync(join(tmpdir(), 'pdf-unicode-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'plan.pdf');
    writeFileSync(
      file,
      await renderPlanPdf({ jobId: 'job_u', reference: 'Zamówienie nr 42', createdAt: '2026-11-22T00:00:00Z', plan }),
    );
    const text = execFileSync('pdftotext', [file, '-']).toString('utf8');
    for (const s of ['Ciężarówka Łódź', 'Żółć Привет Ωμέγα', 'Zamówienie nr 42'])
      t.ok(text.includes(s), `"${s}" is in the PDF text`);
  },
);
