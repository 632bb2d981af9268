/**
 * Retention (spec Job.expires_at, Limits rule 4): once a job is past expires_at its request and
 * result bodies are deleted from the event store for good, `JobBodyDeleted` is recorded, and the
 * job's status, summary and charge stay, also across a restart. Jobs inside retention keep theirs.
 */
import t from 'tap';
import { jobBodyStream } from '../../domain/job/streams.js';
import { JOBS, type JobDocument } from '../../projections/jobs/job-document.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { untilJob } from '../helpers/job-state.js';
import { call } from '../helpers/service-process.js';

// A short queue timeout makes the repair tick (which deletes bodies) run every 2 s; long enough
// for the jobs posted while the solver warms its thread not to expire.
const run = inProcessService(t, 'retention', { queueTimeoutMs: 8000 });
const org = async (retentionDays: number): Promise<string> =>
  (await orgWithKey(run.service, { name: `Retention ${retentionDays}`, limits: { retentionDays } })).key;

const small = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: [{ id: 'box', length: 40, width: 30, height: 30, weight: 5, quantity: 10 }],
  options: { time_limit: 20 },
};

t.test('past retention the bodies are deleted; metadata and charge stay, also after a restart', async (t) => {
  const expiring = await org(0);
  const kept = await org(14);
  const gone = await call(run.service.url, expiring, 'POST', '/v1/pack?wait=60', small);
  const stays = await call(run.service.url, kept, 'POST', '/v1/pack?wait=60', small);
  t.same([gone.body.status, stays.body.status], ['succeeded', 'succeeded']);
  const id = gone.body.id as string;

  const doc = await untilJob(
    run.service.services,
    id,
    'bodies deleted and charge settled',
    (j: JobDocument) => Boolean(j.bodyDeletedAt) && j.chargedMicros !== null,
  );
  t.ok(doc.bodyDeletedAt! >= doc.expiresAt, `deleted at ${doc.bodyDeletedAt}, after expires_at ${doc.expiresAt}`);
  t.same(
    await run.service.services.store.readStream(jobBodyStream(id)),
    [],
    'request, model and plan are gone from the event store',
  );
  t.ok(
    (await run.service.services.store.readStream(jobBodyStream(stays.body.id))).length >= 2,
    'a job inside retention keeps its bodies',
  );

  const job = await call(run.service.url, expiring, 'GET', `/v1/jobs/${id}`);
  t.equal(job.body.status, 'succeeded');
  t.equal(job.body.summary.items_placed, 10, 'the summary stays');
  t.ok(job.body.cost.credits > 0, `the charge stays: ${job.body.cost.credits} credits`);
  t.equal((await call(run.service.url, expiring, 'GET', `/v1/jobs/${id}/result`)).body.error.code, 'result_expired');

  await run.restart();
  const after = (await run.service.services.reads.collection<JobDocument>(JOBS).get(id))!;
  t.equal(after.bodyDeletedAt, doc.bodyDeletedAt, 'the deletion is in the log: replay shows it');
  t.same(await run.service.services.store.readStream(jobBodyStream(id)), []);
  const again = await call(run.service.url, expiring, 'GET', `/v1/jobs/${id}`);
  t.same([again.body.status, again.body.cost.credits], ['succeeded', job.body.cost.credits]);
});
