/**
 * GET /v1/jobs/{id} and GET /v1/jobs from memory (projections/read-model-cache.ts jobs,
 * api/http/jobs/job-answer.ts, api/http/jobs/job-list-answers.ts) on the running embedded
 * service: a job document and a list page read again come from memory with the same bytes, and
 * the next event of the job (a cancel, a new job of the organization) is shown by the next
 * request.
 */
import t from 'tap';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';

const running = inProcessService(t, 'hot-job-reads');
const body = {
  vehicles: [{ id: 'van', type: 'truck', name: 'Van', length: 300, width: 180, height: 180, max_weight: 1000 }],
  items: [{ id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 4 }],
  options: { packing_mode: 'fleet_only', time_limit: 5 },
};

t.test('a queued job held in memory is shown canceled by the next GET after its cancel', async (t) => {
  // No compute slot: the job stays queued until it is canceled.
  const o = await orgWithKey(running.service, { limits: { concurrency: 0 } });
  const url = running.service.url;
  const created = await call(url, o.key, 'POST', '/v1/pack', body);
  t.equal(created.status, 202);
  const id = created.body.id as string;
  const cache = running.service.services.readCache!;
  for (let i = 0; i < 2; i++) {
    const got = await call(url, o.key, 'GET', `/v1/jobs/${id}`);
    t.equal(got.body.status, 'queued');
  }
  t.ok(cache.sizes().jobs >= 1, 'the job document is held');
  const listed = await call(url, o.key, 'GET', '/v1/jobs');
  t.same(
    listed.body.data.map((j: { id: string; status: string }) => [j.id, j.status]),
    [[id, 'queued']],
  );
  const canceled = await call(url, o.key, 'DELETE', `/v1/jobs/${id}`);
  t.equal(canceled.status, 200);
  t.equal(canceled.body.status, 'canceled');
  const after = await call(url, o.key, 'GET', `/v1/jobs/${id}`);
  t.equal(after.body.status, 'canceled', 'the held document was dropped by the cancel');
  t.equal(after.body.error.code, 'canceled');
  const listedAfter = await call(url, o.key, 'GET', '/v1/jobs');
  t.same(
    listedAfter.body.data.map((j: { id: string; status: string }) => [j.id, j.status]),
    [[id, 'canceled']],
  );
});

t.test('a succeeded job and a list page read again are the same bytes; a new job shows at once', async (t) => {
  const o = await orgWithKey(running.service);
  const url = running.service.url;
  const done = await call(url, o.key, 'POST', '/v1/pack?wait=30', body);
  t.equal(done.status, 200);
  t.equal(done.body.status, 'succeeded');
  const id = done.body.id as string;
  const first = await call(url, o.key, 'GET', `/v1/jobs/${id}`);
  const second = await call(url, o.key, 'GET', `/v1/jobs/${id}`);
  t.same(second.body, first.body);
  t.equal(second.headers.get('etag'), first.headers.get('etag'));
  t.match(
    first.body.pdf_url,
    /^http:\/\/127\.0\.0\.1:\d+\/plans\/job_[a-z0-9]+\.pdf\?expires=\d+&signature=[0-9a-f]{64}$/,
  );
  const withResult = await call(url, o.key, 'GET', `/v1/jobs/${id}?include=result`);
  t.ok(withResult.body.result, '?include= is answered apart, with its result');
  t.equal(withResult.body.pdf_url, first.body.pdf_url);

  const page = await call(url, o.key, 'GET', '/v1/jobs?status=succeeded&limit=20');
  const again = await call(url, o.key, 'GET', '/v1/jobs?status=succeeded&limit=20');
  t.same(again.body, page.body);
  t.equal(again.headers.get('etag'), page.headers.get('etag'));
  t.same(
    page.body.data.map((j: { id: string }) => j.id),
    [id],
  );
  t.same(page.body.data[0], first.body, 'the list shows the job as GET /v1/jobs/{id} does');

  const next = await call(url, o.key, 'POST', '/v1/pack?wait=30', body);
  t.equal(next.body.status, 'succeeded');
  const grown = await call(url, o.key, 'GET', '/v1/jobs?status=succeeded&limit=20');
  t.same(
    grown.body.data.map((j: { id: string }) => j.id),
    [next.body.id, id],
    'the new job is on the page at once',
  );
  t.not(grown.headers.get('etag'), page.headers.get('etag'));

  // Another organization's page of the same query is its own.
  const other = await orgWithKey(running.service);
  const empty = await call(url, other.key, 'GET', '/v1/jobs?status=succeeded&limit=20');
  t.same(empty.body, { data: [], next_cursor: '' });
});
