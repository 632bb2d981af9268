/**
 * Retention (spec Job.expires_at, Limits rule 4): once a job is past expires_at its request and
 * result bodies are deleted from the event store for good, `JobBodyDeleted` is recorded, and the
 * job's status, summary and charge stay, also across a restart. Jobs inside retention keep theirs.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../api/server.js';
import { createApiKey, provisionOrganization } from '../../api/provision.js';
import { jobBodyStream } from '../../domain/job/streams.js';
import { JOBS, type JobDocument } from '../../projections/jobs/job-document.js';
import { untilJob } from '../helpers/job-state.js';
import { call } from '../helpers/service-process.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-retention-'));
// A short queue timeout makes the repair tick (which deletes bodies) run every 500 ms.
const start = () => startService({ port: 0, host: '127.0.0.1', dataDir: dir, solverThreads: 1, queueTimeoutMs: 2000, log: pino({ level: 'silent' }) });
let service: RunningService;
t.before(async () => {
  service = await start();
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

async function org(retentionDays: number): Promise<string> {
  const now = new Date().toISOString();
  const o = await provisionOrganization(service.services.store, {
    name: `Retention ${retentionDays}`, ownerName: 'O', subscriptionCredits: 100, expiresAt: '2099-01-01T00:00:00.000Z', now,
    limits: { retentionDays, rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 } },
  });
  const k = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'k', now });
  await service.services.projections.waitFor(k.position);
  return k.secret;
}

const small = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: [{ id: 'box', length: 40, width: 30, height: 30, weight: 5, quantity: 10 }],
  options: { time_limit: 20 },
};

t.test('past retention the bodies are deleted; metadata and charge stay, also after a restart', async (t) => {
  const expiring = await org(0);
  const kept = await org(14);
  const gone = await call(service.url, expiring, 'POST', '/v1/pack?wait=60', small);
  const stays = await call(service.url, kept, 'POST', '/v1/pack?wait=60', small);
  t.same([gone.body.status, stays.body.status], ['succeeded', 'succeeded']);
  const id = gone.body.id as string;

  const doc = await untilJob(service.services, id, 'bodies deleted and charge settled', (j: JobDocument) => Boolean(j.bodyDeletedAt) && j.chargedMicros !== null);
  t.ok(doc.bodyDeletedAt! >= doc.expiresAt, `deleted at ${doc.bodyDeletedAt}, after expires_at ${doc.expiresAt}`);
  t.same(await service.services.store.readStream(jobBodyStream(id)), [], 'request, model and plan are gone from the event store');
  t.ok((await service.services.store.readStream(jobBodyStream(stays.body.id))).length >= 2, 'a job inside retention keeps its bodies');

  const job = await call(service.url, expiring, 'GET', `/v1/jobs/${id}`);
  t.equal(job.body.status, 'succeeded');
  t.equal(job.body.summary.items_placed, 10, 'the summary stays');
  t.ok(job.body.cost.credits > 0, `the charge stays: ${job.body.cost.credits} credits`);
  t.equal((await call(service.url, expiring, 'GET', `/v1/jobs/${id}/result`)).body.error.code, 'result_expired');

  await service.close();
  service = await start();
  const after = (await service.services.reads.collection<JobDocument>(JOBS).get(id))!;
  t.equal(after.bodyDeletedAt, doc.bodyDeletedAt, 'the deletion is in the log: replay shows it');
  t.same(await service.services.store.readStream(jobBodyStream(id)), []);
  const again = await call(service.url, expiring, 'GET', `/v1/jobs/${id}`);
  t.same([again.body.status, again.body.cost.credits], ['succeeded', job.body.cost.credits]);
});
