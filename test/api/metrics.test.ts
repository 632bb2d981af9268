/**
 * GET /metrics: Prometheus text with HTTP requests by route pattern and status,
 * jobs by status, queue depth, compute seconds, event-store and read-model positions; one
 * registry per service; no organization id, key, id or query string in it; METRICS_TOKEN.
 */
import t from 'tap';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { untilJob } from '../helpers/job-state.js';
import type { RunningService } from '../../service/server.js';

const open = inProcessService(t, 'metrics');
const guarded = inProcessService(t, 'metrics-token', { metricsToken: 'scrape-secret' });
const slowItems = Array.from({ length: 200 }, (_, i) => ({
  id: `sku-${i}`,
  length: 20 + (i % 37),
  width: 15 + (i % 23),
  height: 10 + (i % 29),
  weight: 3,
  quantity: 10,
}));
const slow = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: slowItems,
  options: { packing_mode: 'fleet_only', time_limit: 60 },
};
const small = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 4 }],
};

/** Samples of the exposition, `name{labels}` → value (labels as written, in order). */
async function scrape(
  service: RunningService,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | null; text: string; samples: Map<string, number> }> {
  const res = await fetch(`${service.url}/metrics`, { headers });
  const text = await res.text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) samples.set(m[1]!, Number(m[2]));
  }
  return { status: res.status, type: res.headers.get('content-type'), text, samples };
}

const requests = (method: string, route: string, status: number) =>
  `packing_http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`;

t.test('requests by route pattern and status, jobs, compute seconds and positions', async (t) => {
  const service = open.service;
  const o = await orgWithKey(service, { name: 'Metered' });
  const packed = await call(service.url, o.key, 'POST', '/v1/pack', small);
  t.equal(packed.status, 202);
  const jobId = packed.body.id as string;
  const job = await untilJob(service.services, jobId, 'succeeded', (j) => j.status === 'succeeded');
  t.ok(job.computeMs > 0, `the job computed ${job.computeMs} ms`);
  t.equal((await call(service.url, o.key, 'GET', `/v1/jobs/${jobId}`)).status, 200);
  t.equal((await call(service.url, o.key, 'GET', `/v1/jobs/${jobId}?signature=hush`)).status, 200);
  t.equal((await call(service.url, o.key, 'GET', '/v1/jobs/job_nosuchjob')).status, 404);
  t.equal((await call(service.url, o.key, 'GET', '/v1/nowhere/at-all')).status, 404);
  t.equal((await call(service.url, null, 'GET', '/v1/balance')).status, 401);
  await service.services.projections.waitFor(await service.services.store.headPosition());

  const m = await scrape(service);
  t.equal(m.status, 200);
  t.equal(m.type, 'text/plain; charset=utf-8; version=0.0.4');
  const s = m.samples;
  t.equal(s.get(requests('POST', '/v1/pack', 202)), 1);
  t.equal(s.get(requests('GET', '/v1/jobs/:id', 200)), 2, 'both reads of the job under its route pattern');
  t.equal(s.get(requests('GET', '/v1/jobs/:id', 404)), 1);
  t.equal(s.get(requests('GET', 'unmatched', 404)), 1, 'an unknown path is one label, not its URL');
  t.equal(s.get(requests('GET', '/v1/balance', 401)), 1);
  t.ok(
    (s.get('packing_http_request_duration_seconds_sum{method="POST",route="/v1/pack",status="202"}') ?? 0) > 0,
    'latency is summed in seconds',
  );
  t.equal(
    s.get('packing_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v1/jobs/:id",status="200"}'),
    2,
  );
  for (const secret of [o.orgId, o.key, o.keyId, jobId, 'job_nosuchjob', 'hush', 'nowhere'])
    t.notOk(m.text.includes(secret), `no ${secret.slice(0, 12)}… in the metrics`);

  t.same(
    ['queued', 'running', 'succeeded', 'failed', 'canceled'].map((status) => s.get(`packing_jobs{status="${status}"}`)),
    [0, 0, 1, 0, 0],
    'jobs by status',
  );
  t.equal(s.get('packing_queue_depth'), 0);
  t.ok(
    Math.abs(s.get('packing_compute_seconds_total')! - job.computeMs / 1000) < 1e-9,
    `compute seconds ${s.get('packing_compute_seconds_total')} = ${job.computeMs} ms`,
  );
  t.equal(s.get('packing_jobs_ended_total{outcome="succeeded"}'), 1);
  const head = await service.services.store.headPosition();
  t.ok(head > 0);
  t.equal(s.get('packing_event_store_head_position'), head);
  t.equal(s.get('packing_read_model_position'), service.services.projections.position);
  t.equal(s.get('packing_projection_lag_events'), head - service.services.projections.position);
  t.equal(s.get('packing_projection_lag_events'), 0, 'the read models caught up');
  t.ok((s.get('process_resident_memory_bytes') ?? 0) > 0, 'process metrics too');
});

t.test("a job waiting behind its organization's running one is the queue depth, counted at scrape time", async (t) => {
  const service = open.service;
  // Concurrency 1 (the default): the second job stays queued while the first computes (60 s budget).
  const o = await orgWithKey(service, { name: 'Queue' });
  const first = await call(service.url, o.key, 'POST', '/v1/pack', slow);
  t.equal(first.status, 202);
  await untilJob(service.services, first.body.id, 'running', (j) => j.status === 'running');
  const second = await call(service.url, o.key, 'POST', '/v1/pack', slow);
  t.equal(second.status, 202);
  await untilJob(service.services, second.body.id, 'queued', (j) => j.status === 'queued');
  const m = await scrape(service);
  t.equal(m.samples.get('packing_queue_depth'), 1);
  t.same(
    ['queued', 'running', 'succeeded'].map((status) => m.samples.get(`packing_jobs{status="${status}"}`)),
    [1, 1, 1],
  );
  for (const job of [second, first])
    t.equal((await call(service.url, o.key, 'DELETE', `/v1/jobs/${job.body.id}`)).status, 200);
  await untilJob(service.services, first.body.id, 'canceled', (j) => j.status === 'canceled');
  const after = await scrape(service);
  t.same([after.samples.get('packing_queue_depth'), after.samples.get('packing_jobs{status="canceled"}')], [0, 2]);
  t.equal(after.samples.get('packing_jobs_ended_total{outcome="canceled"}'), 2, 'ended jobs by outcome');
});

t.test('METRICS_TOKEN: a bearer token, not an API key; each service its own registry', async (t) => {
  const service = guarded.service;
  const o = await orgWithKey(service, { name: 'Customer' });
  const none = await call(service.url, null, 'GET', '/metrics');
  t.same([none.status, none.body.error.code], [401, 'unauthorized']);
  t.equal(none.body.error.request_id, none.headers.get('x-request-id'));
  t.equal((await scrape(service, { authorization: 'Bearer wrong-secret' })).status, 401, 'a wrong token');
  t.equal((await scrape(service, { authorization: `Bearer ${o.key}` })).status, 401, "a customer's API key");
  const ok = await scrape(service, { authorization: 'Bearer scrape-secret' });
  t.equal(ok.status, 200);
  t.equal(ok.samples.get(requests('GET', '/metrics', 401)), 3, 'this service counted its own refusals');
  t.equal(ok.samples.get(requests('POST', '/v1/pack', 202)), undefined, "not the other service's requests");
  t.equal((await scrape(open.service)).status, 200, 'without a token /metrics is open');
});
