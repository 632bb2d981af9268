/**
 * The typed client's getJobLoadingList (GET /v1/jobs/{id}/loading_list) against the real service:
 * CSV text by default, the .xlsx bytes with `format: 'xlsx'` (read back with read-excel-file),
 * the same rows in both; a job without a result throws the typed error.
 */
import t from 'tap';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import { ConflictError, PackingClient, type PackRequest } from '../../clients/typescript/src/index.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';

const run = inProcessService(t, 'client-loading-list');
const request: PackRequest = {
  vehicles: [{ id: 'van', type: 'truck', name: 'Van', length: 300, width: 180, height: 180, max_weight: 1000 }],
  items: [{ id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 5 }],
  options: { packing_mode: 'fleet_only', time_limit: 10 },
};

t.test('CSV text and .xlsx bytes with the same rows', async (t) => {
  const api = new PackingClient({ baseUrl: run.service.url, apiKey: (await orgWithKey(run.service)).key });
  const job = await api.pack(request, { wait: true });
  t.equal(job.status, 'succeeded');
  const csv = await api.getJobLoadingList(job.id);
  t.type(csv, 'string');
  const rows = Papa.parse<string[]>(csv.trimEnd()).data;
  t.equal(rows[0]![0], 'step');
  t.equal(rows.length, 1 + 5, 'the header and one row per unit');
  const xlsx = await api.getJobLoadingList(job.id, { format: 'xlsx' });
  t.ok(xlsx instanceof Uint8Array);
  const sheet = (await readXlsxFile(Buffer.from(xlsx)))[0]!.data;
  t.same(
    sheet.map((r) => r.map((c) => (c === null ? '' : String(c)))),
    rows,
    'the same cells',
  );

  // A compute budget of 1 ms on many items ends before any vehicle is packed: failed.
  const many = Array.from({ length: 150 }, (_, i) => ({
    id: `sku-${i}`,
    length: 20 + (i % 37),
    width: 15 + (i % 23),
    height: 10 + (i % 29),
    weight: 3,
    quantity: 10,
  }));
  const failing = await api.createPackJob(
    {
      vehicles: [{ vehicle_id: 'van-3-5t' }],
      items: many,
      options: { packing_mode: 'fleet_only', time_limit: 0.001 },
    },
    { wait: 60 },
  );
  t.equal(failing.status, 'failed');
  const err = await api.getJobLoadingList(failing.id).catch((e: unknown) => e);
  t.ok(err instanceof ConflictError, 'a failed job: ConflictError');
  t.equal((err as ConflictError).code, 'job_failed');
});
