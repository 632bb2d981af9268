/**
 * GET /v1/jobs/{id}/loading_list on the real embedded service: the CSV read back with papaparse
 * and the .xlsx with read-excel-file hold the result's placements in loading order (numbers equal
 * to the Result's, to the mm and 0.1 kg) and then the unplaced units; user labels that would run
 * as spreadsheet formulas are neutralised; a two-layer multi-drop plan with float noise in its
 * figures shows them rounded and its group, hazardous and rests-on columns; the errors of
 * GET /v1/jobs/{id}/result and a bad `format`.
 */
import t from 'tap';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { LOADING_LIST_COLUMNS } from '../../api/http/jobs/loading-list.js';

const run = inProcessService(t, 'loading-list');

const FORMULA = '=HYPERLINK("http://example.invalid","x")';
const QUOTED = '+1 drum, "blue"\nsecond line';
const body = {
  reference: 'loading list test',
  vehicles: [
    { id: 'small-van', type: 'truck', name: 'Small van', length: 200, width: 120, height: 100, max_weight: 100 },
  ],
  items: [
    { id: 'crate', label: FORMULA, length: 40, width: 40, height: 40, weight: 10, quantity: 6 },
    { id: '@drum', label: QUOTED, length: 50, width: 50, height: 60, weight: 30, quantity: 4 },
  ],
  options: { packing_mode: 'fleet_only', time_limit: 10 },
};

let key = '';
let jobId = '';
let result: any;

t.before(async () => {
  key = (await orgWithKey(run.service)).key;
  const posted = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', body);
  if (posted.body.status !== 'succeeded') throw new Error(`job: ${JSON.stringify(posted.body)}`);
  jobId = posted.body.id;
  result = (await call(run.service.url, key, 'GET', `/v1/jobs/${jobId}/result`)).body;
});

const get = (path: string, k = key): Promise<Response> =>
  fetch(run.service.url + path, { headers: { authorization: `Bearer ${k}` } });

/** A figure as the list shows it: to one decimal (cm to the mm, kg to 0.1 kg). */
const tenth = (v: number): number => Math.round(v * 10) / 10;

/** Overlap of [a, a + la) and [b, b + lb) by more than a hair. */
const cross = (a: number, la: number, b: number, lb: number): boolean => a < b + lb - 1e-6 && b < a + la - 1e-6;

/** The boxes `p` stands on in `placements` (a top face at its base, footprints sharing area), in step order. */
function restsOn(placements: any[], p: any): string {
  if (p.y <= 1e-6) return '';
  return placements
    .filter(
      (q) =>
        q !== p &&
        Math.abs(q.y + q.height - p.y) <= 1e-6 &&
        cross(q.x, q.length, p.x, p.length) &&
        cross(q.z, q.width, p.z, p.width),
    )
    .sort((a, b) => a.step - b.step)
    .map((q) => `${q.item_id}#${q.instance}`)
    .join(', ');
}

/** The placements of the Result in loading order, then its unplaced units, as rows of the list (no group, none hazardous). */
function expectedRows(): unknown[][] {
  const rows: unknown[][] = [];
  for (const v of [...result.vehicles].sort((a: any, b: any) => a.index - b.index)) {
    for (const p of [...v.placements].sort((a: any, b: any) => a.step - b.step)) {
      rows.push([
        p.step,
        `#${v.index + 1} ${v.name} (${v.vehicle_id}, copy ${v.copy})`,
        p.item_id,
        p.instance,
        p.label,
        tenth(p.x),
        tenth(p.y),
        tenth(p.z),
        tenth(p.length),
        tenth(p.width),
        tenth(p.height),
        p.orientation,
        tenth(p.weight),
        'placed',
        '',
        '',
        'no',
        restsOn(v.placements, p),
      ]);
    }
  }
  for (const u of result.unplaced)
    rows.push([
      '',
      '',
      u.item_id,
      u.instance,
      u.label,
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      'unplaced',
      u.reason,
      '',
      'no',
      '',
    ]);
  return rows;
}

/** A cell as a neutralised export shows user text. */
const shown = (v: unknown): unknown => (typeof v === 'string' && /^[=+\-@]/.test(v) ? `'${v}` : v);

t.test('the fixture has placed and unplaced units', async (t) => {
  const placed = result.vehicles.reduce((n: number, v: any) => n + v.placements.length, 0);
  t.ok(placed >= 3, `${placed} placed`);
  t.ok(result.unplaced.length >= 1, `${result.unplaced.length} unplaced (payload 100 kg)`);
});

t.test('CSV: headers, attachment name, rows in loading order equal to the Result', async (t) => {
  const res = await get(`/v1/jobs/${jobId}/loading_list`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.equal(res.headers.get('content-disposition'), `attachment; filename="${jobId}-loading-list.csv"`);
  const text = await res.text();
  t.match(text, /\r\n$/, 'CRLF line ends');
  const parsed = Papa.parse<string[]>(text.trimEnd(), { dynamicTyping: false });
  t.same(parsed.errors, []);
  const [header, ...rows] = parsed.data;
  t.same(header, [...LOADING_LIST_COLUMNS]);
  const expected = expectedRows();
  t.equal(rows.length, expected.length, 'one row per unit, placed and unplaced');
  const placedCount = result.vehicles.reduce((n: number, v: any) => n + v.placements.length, 0);
  t.equal(rows.filter((r) => r[13] === 'placed').length, placedCount, 'placed rows = placed units');
  for (const [i, row] of rows.entries()) {
    const want = expected[i]!;
    t.same(
      row.map((cell, c) => (typeof want[c] === 'number' ? Number(cell) : cell)),
      want.map(shown),
      `row ${i + 1}`,
    );
  }
});

t.test('CSV injection: user text starting a formula is prefixed; numbers stay numbers', async (t) => {
  const text = await (await get(`/v1/jobs/${jobId}/loading_list?format=csv`)).text();
  const rows = Papa.parse<string[]>(text.trimEnd()).data.slice(1);
  const crate = rows.find((r) => r[2] === 'crate')!;
  t.equal(crate[4], `'${FORMULA}`, 'the = label is neutralised');
  const drum = rows.find((r) => r[2] === "'@drum")!;
  t.ok(drum, 'an item id starting with @ is neutralised too');
  t.equal(drum[4], `'${QUOTED}`, 'quotes, comma and line break survive RFC 4180 quoting');
  t.notOk(
    rows.some((r) => /^[=+\-@]/.test(r[4]!)),
    'no label cell starts a formula',
  );
  t.match(text, /\r\n1,/, 'the first data row starts with the number 1, unquoted');
});

t.test('XLSX: one sheet, header row, numeric cells, same content as the CSV', async (t) => {
  const res = await get(`/v1/jobs/${jobId}/loading_list?format=xlsx`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  t.equal(res.headers.get('content-disposition'), `attachment; filename="${jobId}-loading-list.xlsx"`);
  const sheets = await readXlsxFile(Buffer.from(await res.arrayBuffer()));
  t.equal(sheets.length, 1);
  t.equal(sheets[0]!.sheet, 'Loading list');
  const [header, ...rows] = sheets[0]!.data;
  t.same(header, [...LOADING_LIST_COLUMNS]);
  const expected = expectedRows().map((r) => r.map((v) => (v === '' ? null : shown(v))));
  t.same(rows, expected, 'every row, numbers as numbers, empty cells empty');
  t.equal(typeof rows[0]![5], 'number', 'x is a numeric cell');
});

/**
 * A multi-drop plan in two layers with float noise in its figures, every unit pinned where it
 * stands (Vehicle.loaded): three pallets of stop 1 side by side across the width (61.4906 cm
 * wide, the third at z = 122.98120000000002 cm as a sum of widths reads, 600.011987036 kg each),
 * a crate of stop 2 on the first two, a hazardous drum without a group on the floor; a unit too
 * heavy for the payload left is unplaced.
 */
const PALLET_WIDTH = 61.4906;
const NOISY_Z = 122.98120000000002;
const twoLayers = {
  reference: 'two layers',
  vehicles: [
    {
      id: 'truck',
      type: 'truck',
      name: 'Truck',
      length: 400,
      width: 200,
      height: 200,
      max_weight: 5000,
      loaded: [
        { item_id: 'pallet', x: 0, y: 0, z: 0, orientation: 'lwh' },
        { item_id: 'pallet', x: 0, y: 0, z: PALLET_WIDTH, orientation: 'lwh' },
        { item_id: 'pallet', x: 0, y: 0, z: NOISY_Z, orientation: 'lwh' },
        { item_id: 'crate', x: 0, y: 50, z: 0, orientation: 'lwh' },
        { item_id: 'acid', x: 200, y: 0, z: 0, orientation: 'lwh' },
      ],
    },
  ],
  items: [
    {
      id: 'pallet',
      label: 'Pallet',
      length: 100,
      width: PALLET_WIDTH,
      height: 50,
      weight: 600.011987036,
      quantity: 3,
      group: 'Stop 1',
    },
    { id: 'crate', label: 'Crate', length: 100, width: 100, height: 40, weight: 20.06, quantity: 1, group: 'Stop 2' },
    { id: 'acid', label: 'Acid', length: 50, width: 50, height: 50, weight: 30, quantity: 1, hazardous: true },
    { id: 'anvil', label: 'Anvil', length: 50, width: 50, height: 50, weight: 4000, quantity: 1, group: 'Stop 2' },
  ],
  groups: [
    { name: 'Stop 1', order: 1 },
    { name: 'Stop 2', order: 2 },
  ],
  options: { packing_mode: 'fleet_only', group_routing: 'routing', seed: 5, work_limit: 3000, time_limit: 10 },
};

let twoLayerJob = '';
/** The two-layer job, packed once. */
async function twoLayerJobId(): Promise<string> {
  if (twoLayerJob) return twoLayerJob;
  const posted = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', twoLayers);
  if (posted.body.status !== 'succeeded') throw new Error(`job: ${JSON.stringify(posted.body)}`);
  const pallet3 = posted.body.result.vehicles[0].placements.find(
    (p: any) => p.item_id === 'pallet' && p.instance === 3,
  );
  if (pallet3?.z !== NOISY_Z) throw new Error(`the plan lost the noisy z: ${JSON.stringify(pallet3)}`);
  twoLayerJob = posted.body.id;
  return twoLayerJob;
}

/** What follows `step,vehicle,` on each placed row of the two-layer plan (the step depends on the loading order). */
const TWO_LAYER_ROWS = {
  pallet1: 'pallet,1,Pallet,0,0,0,100,61.5,50,lwh,600,placed,,Stop 1,no,',
  pallet2: 'pallet,2,Pallet,0,0,61.5,100,61.5,50,lwh,600,placed,,Stop 1,no,',
  pallet3: 'pallet,3,Pallet,0,0,123,100,61.5,50,lwh,600,placed,,Stop 1,no,',
  crate: 'crate,1,Crate,0,50,0,100,100,40,lwh,20.1,placed,,Stop 2,no,"pallet#1, pallet#2"',
  acid: 'acid,1,Acid,200,0,0,50,50,50,lwh,30,placed,,,yes,',
};

t.test('CSV of a two-layer multi-drop plan: figures rounded; group, hazardous and rests_on', async (t) => {
  const id = await twoLayerJobId();
  const text = await (await get(`/v1/jobs/${id}/loading_list`)).text();
  const [header, ...lines] = text.trimEnd().split('\r\n');
  t.equal(
    header,
    'step,vehicle,item_id,instance,label,x_cm,y_cm,z_cm,length_cm,width_cm,height_cm,orientation,weight_kg,status,unplaced_reason,group,hazardous,rests_on',
    'the original columns in their order, then group, hazardous, rests_on',
  );
  const placed = lines.filter((l) => /^\d+,/.test(l)).map((l) => l.replace(/^\d+,"#1 Truck \(truck, copy 1\)",/, ''));
  t.same(
    [...placed].sort(),
    Object.values(TWO_LAYER_ROWS).sort(),
    'every placed unit: mm and 0.1 kg, its stop, hazardous or not, the pallets under the crate',
  );
  t.notMatch(text, /122\.98|61\.49|600\.01|20\.06/, 'no float noise or unrounded figure anywhere');
  const crateStep = Number(lines.find((l) => l.includes(',crate,1,'))!.split(',')[0]);
  const palletSteps = lines.filter((l) => /,pallet,[12],/.test(l)).map((l) => Number(l.split(',')[0]));
  t.ok(
    palletSteps.every((s) => s < crateStep),
    'the units the crate rests on are loaded before it',
  );
  t.match(lines.at(-1), /^,,anvil,1,Anvil,,,,,,,,,unplaced,[a-z_]+,Stop 2,no,$/, 'the unplaced unit keeps its stop');
});

t.test('XLSX of the two-layer plan: rounded numeric cells and the same new columns', async (t) => {
  const id = await twoLayerJobId();
  const res = await get(`/v1/jobs/${id}/loading_list?format=xlsx`);
  t.equal(res.status, 200);
  const [header, ...rows] = (await readXlsxFile(Buffer.from(await res.arrayBuffer())))[0]!.data;
  t.same(header!.slice(-3), ['group', 'hazardous', 'rests_on']);
  const row = (itemId: string, instance: number) => rows.find((r) => r[2] === itemId && r[3] === instance)!;
  t.same(row('pallet', 3).slice(5, 13), [0, 0, 123, 100, 61.5, 50, 'lwh', 600], 'numbers rounded, still numbers');
  t.same(row('pallet', 3).slice(15), ['Stop 1', 'no', null], 'on the floor: rests on nothing');
  t.same(row('crate', 1).slice(12), [20.1, 'placed', null, 'Stop 2', 'no', 'pallet#1, pallet#2']);
  t.same(row('acid', 1).slice(15), [null, 'yes', null], 'no group, hazardous');
  t.equal(row('anvil', 1)[13], 'unplaced');
  t.same(row('anvil', 1).slice(15), ['Stop 2', 'no', null], 'unplaced: its stop kept, rests on nothing');
  t.equal(typeof row('pallet', 3)[7], 'number', 'z is a numeric cell');
});

t.test('errors: bad format, unknown job, failed job, unfinished job', async (t) => {
  const bad = await get(`/v1/jobs/${jobId}/loading_list?format=pdf`);
  t.equal(bad.status, 422);
  const badBody = (await bad.json()) as any;
  t.equal(badBody.error.code, 'validation_failed');
  t.equal(badBody.error.details[0].path, 'format');
  t.equal(badBody.error.request_id, bad.headers.get('x-request-id'));

  const unknown = await get('/v1/jobs/job_nosuchjob/loading_list');
  t.equal(unknown.status, 404);
  t.equal(((await unknown.json()) as any).error.code, 'job_not_found');

  const other = await orgWithKey(run.service, { name: 'Other' });
  const foreign = await get(`/v1/jobs/${jobId}/loading_list`, other.key);
  t.equal(foreign.status, 404, "another organization's job is invisible");

  // A compute budget of 1 ms on many items ends before any vehicle is packed: failed.
  const many = Array.from({ length: 150 }, (_, i) => ({
    id: `sku-${i}`,
    length: 20 + (i % 37),
    width: 15 + (i % 23),
    height: 10 + (i % 29),
    weight: 3,
    quantity: 10,
  }));
  const slow = {
    vehicles: [{ vehicle_id: 'van-3-5t' }],
    items: many,
    options: { packing_mode: 'fleet_only', time_limit: 0.001 },
  };
  const failed = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', slow);
  t.equal(failed.body.status, 'failed');
  const f = await get(`/v1/jobs/${failed.body.id}/loading_list`);
  t.equal(f.status, 409);
  t.equal(((await f.json()) as any).error.code, 'job_failed');

  // One compute slot: a long job runs, the next one waits (queued).
  const running = await call(run.service.url, key, 'POST', '/v1/pack', {
    ...slow,
    options: { packing_mode: 'fleet_only', time_limit: 60 },
  });
  const queued = await call(run.service.url, key, 'POST', '/v1/pack', body);
  const q = await get(`/v1/jobs/${queued.body.id}/loading_list?format=xlsx`);
  t.equal(q.status, 409);
  t.equal(((await q.json()) as any).error.code, 'job_not_finished');
  t.equal((await call(run.service.url, key, 'DELETE', `/v1/jobs/${queued.body.id}`)).body.status, 'canceled');
  const c = await get(`/v1/jobs/${queued.body.id}/loading_list`);
  t.equal(((await c.json()) as any).error.code, 'job_canceled');
  await call(run.service.url, key, 'DELETE', `/v1/jobs/${running.body.id}`);
});
