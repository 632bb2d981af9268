/**
 * Retention of plan revisions (spec Job.expires_at, Limits rule 4): when the job's bodies are
 * deleted, its revision stream goes with them, and every revision route answers 410
 * result_expired afterwards. The organization keeps its jobs 0.0002 days (17 s), so a revision
 * saved right after the job ends is deleted by the repair tick soon after.
 */
import t from 'tap';
import { jobRevisionStream } from '../../domain/job/streams.js';
import type { JobDocument } from '../../projections/jobs/job-document.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { untilJob } from '../helpers/job-state.js';
import { call } from '../helpers/service-process.js';

// A short queue timeout makes the repair tick (which deletes bodies) run every 2 s.
const run = inProcessService(t, 'plan-revisions-retention', { queueTimeoutMs: 8000 });

t.test('retention deletes the revisions with the bodies; 410 afterwards', async (t) => {
  const { key } = await orgWithKey(run.service, { name: 'Short retention', limits: { retentionDays: 0.0002 } });
  const posted = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', {
    vehicles: [{ vehicle_id: 'van-3-5t' }],
    items: [{ id: 'box', length: 40, width: 30, height: 30, weight: 5, quantity: 3 }],
    options: { time_limit: 5 },
  });
  t.equal(posted.body.status, 'succeeded');
  const id = posted.body.id as string;
  // The unit with the highest top: nothing stands on it, so removing it leaves a valid plan.
  const placement = [...posted.body.result.vehicles[0].placements].sort(
    (a: any, b: any) => b.y + b.height - (a.y + a.height),
  )[0];
  const saved = await call(run.service.url, key, 'POST', `/v1/jobs/${id}/revisions`, {
    base_revision: 0,
    operations: [{ op: 'remove', item_id: placement.item_id, instance: placement.instance }],
  });
  t.equal(saved.status, 201, JSON.stringify(saved.body));
  t.equal((await run.service.services.store.readStream(jobRevisionStream(id))).length, 1);

  await untilJob(run.service.services, id, 'bodies deleted', (j: JobDocument) => Boolean(j.bodyDeletedAt));
  t.same(await run.service.services.store.readStream(jobRevisionStream(id)), [], 'the revision stream is gone');
  for (const path of [`/v1/jobs/${id}/revisions`, `/v1/jobs/${id}/result?revision=1`]) {
    const res = await call(run.service.url, key, 'GET', path);
    t.same([res.status, res.body.error.code], [410, 'result_expired'], path);
  }
  const late = await call(run.service.url, key, 'POST', `/v1/jobs/${id}/revisions`, {
    base_revision: 1,
    operations: [{ op: 'remove', item_id: placement.item_id, instance: placement.instance }],
  });
  t.same([late.status, late.body.error.code], [410, 'result_expired']);
  const url = (saved.body.result.pdf_url as string).replace(/^https?:\/\/[^/]+/, run.service.url);
  // Its links expire with the job (expires = expires_at), like the job's own: 404 not_found.
  t.equal((await fetch(url)).status, 404, "the revision's PDF link has expired");
});
