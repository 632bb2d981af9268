/**
 * GET /v1/jobs/{id}?include=request (our extension, for re-running a job and opening it in the
 * playground): the PackRequest as sent, alone or with `result`, null after retention; any other
 * include value is 422 validation_failed. Documented on the Job schema.
 */
import t from 'tap';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';

const run = inProcessService(t, 'job-include-request');
const body = {
  reference: 'include request',
  vehicles: [{ id: 'van', type: 'truck', name: 'Van', length: 300, width: 180, height: 180, max_weight: 1000 }],
  items: [{ id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 3 }],
  options: { packing_mode: 'fleet_only', time_limit: 10 },
};

t.test('the request as sent, with or without the result', async (t) => {
  const { key } = await orgWithKey(run.service);
  const job = (await call(run.service.url, key, 'POST', '/v1/pack?wait=60', body)).body;
  t.equal(job.status, 'succeeded');
  t.notOk('request' in job, 'not without include');
  const withRequest = (await call(run.service.url, key, 'GET', `/v1/jobs/${job.id}?include=request`)).body;
  t.same(withRequest.request, body, 'the PackRequest as sent');
  t.notOk('result' in withRequest);
  const both = (await call(run.service.url, key, 'GET', `/v1/jobs/${job.id}?include=result,request`)).body;
  t.same(both.request, body);
  t.equal(both.result.job_id, job.id);
  const bad = await call(run.service.url, key, 'GET', `/v1/jobs/${job.id}?include=request,plan`);
  t.same([bad.status, bad.body.error.code, bad.body.error.details[0].path], [422, 'validation_failed', 'include']);

  // A re-run: the request posted again makes a new job with the same content.
  const again = (await call(run.service.url, key, 'POST', '/v1/pack?wait=60', withRequest.request)).body;
  t.not(again.id, job.id);
  t.equal(again.summary.items_placed, job.summary.items_placed);
});

t.test('null after retention', async (t) => {
  const { key } = await orgWithKey(run.service, { name: 'Short', limits: { retentionDays: 0 } });
  const job = (await call(run.service.url, key, 'POST', '/v1/pack?wait=60', body)).body;
  const res = (await call(run.service.url, key, 'GET', `/v1/jobs/${job.id}?include=request`)).body;
  t.equal(res.request, null);
});
