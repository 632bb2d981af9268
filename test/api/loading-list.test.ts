/**
 * GET /v1/jobs/{id}/loading_list on the real embedded service: the CSV read back with papaparse
 * and the .xlsx with read-excel-file hold the result's placements in loading order (numbers equal
 * to the Result's) and then the unplaced units; user labels that would run as spreadsheet
 * formulas are neutralised; the errors of GET /v1/jobs/{id}/result and a bad `format`.
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

/** The placements of the Result in loading order, then its unplaced units, as rows of the list. */
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
        p.x,
        p.y,
        p.z,
        p.length,
        p.width,
        p.height,
        p.orientation,
        p.weight,
        'placed',
        '',
      ]);
    }
  }
  for (const u of result.unplaced)
    rows.push(['', '', u.item_id, u.instance, u.label, '', '', '', '', '', '', '', '', 'unplaced', u.reason]);
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
