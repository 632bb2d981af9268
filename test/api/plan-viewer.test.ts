/**
 * The viewer link on the real embedded service: `viewer_url` on the Job and the
 * Result, the page and its hashed assets (content types, caching, no CDN), the plan data with
 * blocked areas, the second deck, items, groups and unplaced units matching the Result, the revision
 * and the resolved model (for the edit mode's checks), and the
 * spec's error envelope for PDF-purpose, tampered, foreign, expired links and a plan past
 * retention.
 */
import t, { type Test } from 'tap';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ensureViewerBuild } from '../../scripts/front-end-builds.js';
import { buildOpenApi } from '../../api/http/openapi/document.js';
import { ROUTE_MODULES } from '../../api/http/routes/index.js';
import { signedPdfPath, signedViewerPath } from '../../api/http/plan-links/plan-links.js';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';

const run = inProcessService(t, 'plan-viewer');
t.before(async () => {
  t.equal(await ensureViewerBuild('stale'), 'fresh', 'the viewer is built');
});

const body = {
  reference: 'viewer test',
  vehicles: [
    {
      id: 'deck-truck',
      type: 'truck',
      name: 'Deck truck',
      length: 400,
      width: 240,
      height: 260,
      max_weight: 3000,
      aux_deck: true,
      aux_deck_height: 130,
      aux_deck_max_weight: 1500,
      blocked_areas: [{ x: 0, z: 0, length: 50, width: 60 }],
    },
  ],
  items: [
    { id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 6, group: 'A' },
    {
      id: 'crate',
      label: 'Crate',
      length: 80,
      width: 60,
      height: 50,
      weight: 30,
      quantity: 2,
      group: 'B',
      color: '#123456',
    },
    { id: 'ingot', label: 'Ingot pallet', length: 100, width: 80, height: 30, weight: 1400, quantity: 3 },
  ],
  groups: [{ name: 'A', color: '#FF0000' }, { name: 'B' }],
  options: { packing_mode: 'fleet_only', time_limit: 10 },
};

let job: any;
let result: any;
const local = (url: string): string => url.replace(/^http:\/\/[^/]+/, run.service.url);

t.before(async () => {
  const o = await orgWithKey(run.service);
  const posted = await call(run.service.url, o.key, 'POST', '/v1/pack?wait=60', body);
  job = posted.body;
  if (job.status !== 'succeeded') throw new Error(`job: ${JSON.stringify(job)}`);
  result = (await call(run.service.url, o.key, 'GET', `/v1/jobs/${job.id}/result`)).body;
});

/** An error answer: status, the envelope's code, and request_id = X-Request-Id. */
async function envelope(t: Test, url: string, status: number, code: string): Promise<void> {
  const res = await fetch(url);
  t.equal(res.status, status, `${url.replace(/signature=\w+/, 'signature=…')} answers ${status}`);
  t.match(res.headers.get('content-type'), /^application\/json/);
  const b = (await res.json()) as any;
  t.equal(b.error?.code, code);
  t.equal(b.error?.request_id, res.headers.get('x-request-id'));
}

t.test('viewer_url sits next to pdf_url on the Job and the Result, with the same expiry', async (t) => {
  t.match(job.viewer_url, /^http:\/\/127\.0\.0\.1:\d+\/viewer\/job_[a-z0-9]+\?expires=\d+&signature=[0-9a-f]{64}$/);
  t.equal(new URL(job.viewer_url).searchParams.get('expires'), new URL(job.pdf_url).searchParams.get('expires'));
  t.equal(Number(new URL(job.viewer_url).searchParams.get('expires')), Math.floor(Date.parse(job.expires_at) / 1000));
  t.not(new URL(job.viewer_url).searchParams.get('signature'), new URL(job.pdf_url).searchParams.get('signature'));
  t.equal(result.viewer_url, job.viewer_url);
  const keys = Object.keys(job);
  t.equal(keys.indexOf('viewer_url'), keys.indexOf('pdf_url') + 1, 'listed right after pdf_url');
});

t.test('the page and its assets: HTML without a CDN, hashed assets cached for a year', async (t) => {
  const res = await fetch(local(job.viewer_url));
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/html/);
  t.equal(res.headers.get('cache-control'), 'no-store');
  t.equal(
    res.headers.get('referrer-policy'),
    'same-origin',
    'the page policy (api/http/page-security.ts): the signed URL never leaves the origin',
  );
  t.match(res.headers.get('content-security-policy'), /default-src 'self'/);
  const html = await res.text();
  t.notMatch(html, /https?:\/\//, 'no CDN: every asset is local');
  const assets = [...html.matchAll(/(?:src|href)="(\/viewer\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  t.ok(
    assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')),
    `script and style: ${assets.join(', ')}`,
  );
  for (const asset of assets) {
    const a = await fetch(run.service.url + asset);
    t.equal(a.status, 200, `${asset} loads`);
    t.match(a.headers.get('content-type'), asset.endsWith('.js') ? /^(text|application)\/javascript/ : /^text\/css/);
    t.match(a.headers.get('cache-control'), /max-age=31536000/);
    t.match(a.headers.get('cache-control'), /immutable/);
    t.ok((await a.arrayBuffer()).byteLength > 1000, `${asset} has content`);
  }
  await envelope(t, `${run.service.url}/viewer/assets/none.js`, 404, 'not_found');
});

t.test('the plan data: the Result plus blocked areas, deck, items, groups, revision and model', async (t) => {
  const url = new URL(local(job.viewer_url));
  const res = await fetch(`${url.origin}${url.pathname}/plan.json${url.search}`);
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.equal(res.headers.get('cache-control'), 'no-store');
  const data = (await res.json()) as any;
  t.equal(data.job_id, job.id);
  t.equal(data.reference, 'viewer test');
  t.equal(data.created_at, job.created_at);
  t.equal(data.expires_at, job.expires_at);
  t.same(
    data.vehicles.map(({ blocked_areas: _b, aux_deck: _d, ...v }: any) => v),
    result.vehicles,
    'vehicles as in the Result',
  );
  t.same(data.vehicles[0].blocked_areas, [{ x: 0, z: 0, length: 50, width: 60 }]);
  t.same(data.vehicles[0].aux_deck, { height: 130, max_weight: 1500 });
  t.same(data.unplaced, result.unplaced);
  t.ok(result.unplaced.length >= 1, `${result.unplaced.length} unplaced (3 × 1,400 kg ingots over a 3,000 kg payload)`);
  t.ok(result.unplaced.every((u: any) => u.item_id === 'ingot' && u.reason === 'weight_limit'));
  t.same(
    data.items,
    [
      {
        id: 'box',
        label: 'Box',
        shape: 'box',
        length: 60,
        width: 40,
        height: 40,
        weight: 10,
        quantity: 6,
        group: 'A',
        color: '#ff0000',
        hazardous: false,
      },
      {
        id: 'crate',
        label: 'Crate',
        shape: 'box',
        length: 80,
        width: 60,
        height: 50,
        weight: 30,
        quantity: 2,
        group: 'B',
        color: '#123456',
        hazardous: false,
      },
      {
        id: 'ingot',
        label: 'Ingot pallet',
        shape: 'box',
        length: 100,
        width: 80,
        height: 30,
        weight: 1400,
        quantity: 3,
        group: null,
        color: null,
        hazardous: false,
      },
    ],
    'every item, the group colour standing in for a missing item colour',
  );
  t.same(data.groups, [
    { name: 'A', order: 1, color: '#ff0000' },
    { name: 'B', order: 2, color: null },
  ]);
  t.same(data.warnings, job.warnings);
  t.equal(data.revision, 0, "revision 0: the job's own plan");
  t.same(
    data.model.items.map((it: any) => [it.id, it.quantity, it.length, it.width, it.height, it.weight]),
    [
      ['box', 6, 60, 40, 40, 10],
      ['crate', 2, 80, 60, 50, 30],
      ['ingot', 3, 100, 80, 30, 1400],
    ],
    'the resolved model: every item with its size, weight and quantity',
  );
  t.ok(
    data.model.items.every((it: any) => Array.isArray(it.orientations) && it.orientations.includes('lwh')),
    'each item with its allowed orientations',
  );
  t.same(
    data.model.vehicles.map((v: any) => [v.id, v.length, v.width, v.height, v.maxWeight, v.auxDeck]),
    [['deck-truck', 400, 240, 260, 3000, { height: 130, maxWeight: 1500 }]],
    'the resolved vehicle with its deck',
  );
  t.equal(data.model.packingMode, 'fleet_only');

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', true);
  ajv.addSchema(buildOpenApi(ROUTE_MODULES), 'openapi');
  const validate = ajv.compile({ $ref: 'openapi#/components/schemas/ViewerPlan' });
  t.ok(validate(data), `matches the documented ViewerPlan schema: ${JSON.stringify(validate.errors)}`);
});

t.test('links that do not open the viewer answer the spec envelope', async (t) => {
  const key = run.service.services.signingKey;
  const url = new URL(local(job.viewer_url));
  const base = run.service.url;
  const pdfQuery = new URL(local(job.pdf_url)).search;
  await envelope(t, `${base}/viewer/${job.id}${pdfQuery}`, 404, 'not_found');
  await envelope(t, `${base}/viewer/${job.id}/plan.json${pdfQuery}`, 404, 'not_found');
  await envelope(t, `${base}/plans/${job.id}.pdf${url.search}`, 404, 'not_found');
  const tampered = url.search.replace(/signature=(.)/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`);
  await envelope(t, `${base}/viewer/${job.id}${tampered}`, 404, 'not_found');
  await envelope(t, `${base}/viewer/${job.id}/plan.json${tampered}`, 404, 'not_found');
  await envelope(t, `${base}/viewer/job_zzzz${url.search}`, 404, 'not_found');
  await envelope(t, `${base}/viewer/${job.id}`, 404, 'not_found');
  await envelope(t, `${base}/viewer/not-a-job${url.search}`, 404, 'not_found');
  const past = new Date(Date.now() - 60_000).toISOString();
  await envelope(t, base + signedViewerPath(key, job.id, past), 404, 'not_found');
  await envelope(t, `${base}${signedViewerPath(key, job.id, past).replace('?', '/plan.json?')}`, 404, 'not_found');
  // The PDF link still opens: the purposes did not change PDF signatures.
  const pdf = await fetch(base + signedPdfPath(key, job.id, job.expires_at));
  t.equal(pdf.status, 200);
});

t.test('a plan past retention: no viewer_url, and a link signed for later answers 410 result_expired', async (t) => {
  const o = await orgWithKey(run.service, { limits: { retentionDays: 0 } });
  const posted = await call(run.service.url, o.key, 'POST', '/v1/pack?wait=60', { ...body, items: [body.items[0]] });
  t.equal(posted.body.status, 'succeeded');
  t.equal(posted.body.pdf_url, '');
  t.equal(posted.body.viewer_url, '', 'empty whenever pdf_url is empty');
  const later = new Date(Date.now() + 3_600_000).toISOString();
  const path = signedViewerPath(run.service.services.signingKey, posted.body.id, later);
  await envelope(t, run.service.url + path, 410, 'result_expired');
  await envelope(t, run.service.url + path.replace('?', '/plan.json?'), 410, 'result_expired');
});
