/**
 * The largest legal job through the real admission path (in-process service, embedded store):
 * POST /v1/pack accepts it, the solver stores its plan, and GET /v1/jobs/{id}?include=request,result
 * gives both back; every event of its body stream is within MAX_APPEND_BYTES, the limit the
 * EventStoreDB profile has too. Data the store cannot hold even so is a 413 in the error envelope,
 * never a 500 (a project's saved content is stored uncompressed in one event).
 */
import t from 'tap';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { largestJobRequest } from '../helpers/largest-job.js';
import { jobBodyStream } from '../../domain/job/streams.js';
import { eventSize, MAX_APPEND_BYTES } from '../../domain/ports/event-store.js';

const run = inProcessService(t, 'largest-job');

t.test('the largest legal request is admitted, solved and read back whole', async (t) => {
  const { key } = await orgWithKey(run.service);
  const largest = largestJobRequest();
  // One block placement of search per thread: the plan comes at once (the size of the body is what counts).
  const body = { ...largest, options: { ...largest.options, work_limit: 1 } };
  t.ok(JSON.stringify(body).length > MAX_APPEND_BYTES, 'the request alone is over the limit as JSON');
  const posted = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', body);
  t.ok(
    posted.status === 200 || posted.status === 202,
    `admitted (${posted.status} ${JSON.stringify(posted.body).slice(0, 200)})`,
  );
  t.equal(posted.body.status, 'succeeded');
  const job = await call(run.service.url, key, 'GET', `/v1/jobs/${posted.body.id}?include=request,result`);
  t.equal(job.status, 200);
  t.same(job.body.request, body, 'the request as sent');
  const units =
    job.body.result.vehicles.reduce((s: number, v: { placements: unknown[] }) => s + v.placements.length, 0) +
    job.body.result.unplaced.length;
  t.equal(units, 2000, 'every unit is in the plan, placed or unplaced');
  const events = await run.service.services.store.readStream(jobBodyStream(posted.body.id));
  t.ok(events.length >= 3, `the body stream holds ${events.length} events (the request in chunks)`);
  const largestEvent = Math.max(...events.map(eventSize));
  t.ok(largestEvent <= MAX_APPEND_BYTES, `largest event ${largestEvent} bytes`);
});

t.test('saved data the store cannot hold is 413 payload_too_large in the error envelope, not a 500', async (t) => {
  const { key } = await orgWithKey(run.service, { name: 'Projects' });
  const largest = largestJobRequest();
  const items = largest.items.map(({ id: _id, group: _group, ...item }) => item);
  const res = await call(run.service.url, key, 'POST', '/v1/projects', {
    name: 'Everything',
    vehicles: [{ vehicle_id: 'semi-trailer-13-6' }],
    items,
  });
  t.equal(res.status, 413, JSON.stringify(res.body).slice(0, 300));
  t.equal(res.body.error.code, 'payload_too_large');
  t.match(res.body.error.message, /at most 1000000 bytes/);
  t.type(res.body.error.request_id, 'string');
  const list = await call(run.service.url, key, 'GET', '/v1/projects');
  t.same(list.body.data, [], 'nothing was stored');
});
