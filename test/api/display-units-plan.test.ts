/**
 * The plan in the organization's display units (OrganizationDocument.displayUnits) on the real
 * embedded service: the viewer's plan.json says `display_units` (metric when the organization
 * has no preference), and the PDF of an imperial organization prints inches and pounds whose
 * figures are the plan's cm and kg converted (1 in = 2.54 cm, 1 lb = 0.45359237 kg), where a
 * metric organization's PDF prints cm and kg. Labels in Chinese, Arabic and emoji come through
 * the PDF link (pdftotext).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../../projections/organizations/projection.js';
import { CM_PER_INCH, KG_PER_POUND } from '../../display/units.js';
import { formatNumber } from '../../pdf/page.js';

const run = inProcessService(t, 'display-units');
const local = (url: string): string => url.replace(/^http:\/\/[^/]+/, run.service.url);

const body = {
  reference: 'units',
  vehicles: [{ id: 'truck', type: 'truck', name: 'Truck', length: 400, width: 240, height: 260, max_weight: 3000 }],
  items: [
    { id: 'cjk', label: '货物', length: 60, width: 40, height: 40, weight: 12.5, quantity: 2 },
    { id: 'ar', label: 'صندوق', length: 80, width: 60, height: 50, weight: 30, quantity: 2 },
    { id: 'emoji', label: '📦 parcel', length: 50, width: 50, height: 50, weight: 8, quantity: 1 },
  ],
  options: { time_limit: 5 },
};

/** A succeeded job of a new organization whose read model says `units` (or nothing). */
async function jobOf(units: 'metric' | 'imperial' | undefined): Promise<any> {
  const o = await orgWithKey(run.service);
  const posted = await call(run.service.url, o.key, 'POST', '/v1/pack?wait=60', body);
  if (posted.body.status !== 'succeeded') throw new Error(`job: ${JSON.stringify(posted.body)}`);
  if (units !== undefined) {
    // The setting's own command belongs to the account page; the plan links read the read model
    // when they are opened, so the preference is written there once the job's events are applied.
    const orgs = run.service.services.reads.collection<OrganizationDocument>(ORGANIZATIONS);
    const doc = (await orgs.get(o.orgId))!;
    // (A write must carry a later position than the stored one to replace it.)
    await orgs.put({ ...doc, displayUnits: units, position: doc.position + 0.5 });
  }
  return posted.body;
}

async function planJson(job: any): Promise<any> {
  const url = new URL(local(job.viewer_url));
  const res = await fetch(`${url.origin}${url.pathname}/plan.json${url.search}`);
  if (res.status !== 200) throw new Error(`plan.json: ${res.status}`);
  return res.json();
}

const hasPdftotext = (): boolean => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

async function pdfText(job: any): Promise<string> {
  const res = await fetch(local(job.pdf_url));
  if (res.status !== 200) throw new Error(`PDF: ${res.status}`);
  const file = join(mkdtempSync(join(tmpdir(), 'units-pdf-')), 'plan.pdf');
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  // -raw: the text in drawing order, one line per drawn line.
  return execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
}

t.test("plan.json carries the organization's display units", async (t) => {
  t.equal((await planJson(await jobOf(undefined))).display_units, 'metric', 'no preference: metric');
  t.equal((await planJson(await jobOf('metric'))).display_units, 'metric');
  t.equal((await planJson(await jobOf('imperial'))).display_units, 'imperial');
});

t.test(
  'the PDF prints in and lb for an imperial organization, cm and kg otherwise',
  { skip: hasPdftotext() ? false : 'pdftotext not installed' },
  async (t) => {
    const imperialJob = await jobOf('imperial');
    const plan = await planJson(imperialJob);
    const v = plan.vehicles[0];
    const imperial = await pdfText(imperialJob);
    const inner = `${formatNumber(400 / CM_PER_INCH, 1)} × ${formatNumber(240 / CM_PER_INCH, 1)} × ${formatNumber(260 / CM_PER_INCH, 1)} in`;
    t.match(imperial, inner, `inner size in inches: ${inner}`);
    const total = `${formatNumber(v.total_weight / KG_PER_POUND, 1)} lb`;
    t.match(imperial, total, `total weight ${v.total_weight} kg in pounds: ${total}`);
    t.match(imperial, `payload ${formatNumber(3000 / KG_PER_POUND, 1)} lb`, 'payload in pounds');
    t.match(imperial, 'lb/ft', 'weight per foot in the diagram');
    t.match(imperial, 'Position x / y / z in', 'unit-list column in inches');
    t.match(imperial, /0 ft 5 ft 10 ft/, "the floor plan's scale in feet");
    t.notMatch(imperial, / kg\b/, 'no kilograms printed');
    t.notMatch(imperial, /\d cm\b/, 'no centimetres printed');

    const metric = await pdfText(await jobOf(undefined));
    t.match(metric, '400 × 240 × 260 cm');
    t.match(metric, `payload 3,000 kg`);
    t.notMatch(metric, / lb\b/, 'a metric PDF has no pounds');

    for (const label of ['货物', '📦']) t.match(imperial, label, `the label ${label} extracts`);
    t.ok(imperial.includes('صندوق') || imperial.includes([...'صندوق'].reverse().join('')), 'the Arabic label extracts');
  },
);
