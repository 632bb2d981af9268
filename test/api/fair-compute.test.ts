/**
 * Fair compute on the real embedded service: a tiny job of one organization
 * finishes while two others run long jobs (SOLVER_CONCURRENCY); with every solver slot busy a
 * job holding its organization's slot is still waiting: `queue_ms` counts until compute began and
 * the queue timeout fails it (not charged).
 */
import t from 'tap';
import { call } from '../helpers/service-process.js';
import { computing, untilJob } from '../helpers/job-state.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';

/** A load that never fits one van: its search runs the whole budget. */
const long = (seconds: number) => ({
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: Array.from({ length: 200 }, (_, i) => ({
    id: `sku-${i}`,
    length: 20 + (i % 37),
    width: 15 + (i % 23),
    height: 10 + (i % 29),
    weight: 3,
    quantity: 10,
  })),
  options: { packing_mode: 'fleet_only', time_limit: seconds },
});
const tiny = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 1 }],
};
const QUEUE_TIMEOUT_MS = 3000;

const three = inProcessService(t, 'fair-three', { solverConcurrency: 3 });
const one = inProcessService(t, 'fair-one', { solverConcurrency: 1, queueTimeoutMs: QUEUE_TIMEOUT_MS });

/** Posts a tiny job until one succeeds: the solver has warmed its threads. */
async function warm(url: string, key: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    if ((await call(url, key, 'POST', '/v1/pack?wait=60', tiny)).body.status === 'succeeded') return;
  }
}

t.test("three compute slots: B's tiny job succeeds while A's and C's long jobs compute", async (t) => {
  const { service } = three;
  const [a, b, c] = [
    await orgWithKey(service, { name: 'A' }),
    await orgWithKey(service, { name: 'B' }),
    await orgWithKey(service, { name: 'C' }),
  ];
  await warm(service.url, b.key);
  const jobA = (await call(service.url, a.key, 'POST', '/v1/pack', long(60))).body;
  const jobC = (await call(service.url, c.key, 'POST', '/v1/pack', long(60))).body;
  await untilJob(service.services, jobA.id, 'computing', computing);
  await untilJob(service.services, jobC.id, 'computing', computing);
  const jobB = await call(service.url, b.key, 'POST', '/v1/pack?wait=60', tiny);
  t.equal(jobB.status, 200);
  t.equal(jobB.body.status, 'succeeded');
  for (const [o, job] of [
    [a, jobA],
    [c, jobC],
  ] as const) {
    t.equal(
      (await call(service.url, o.key, 'GET', `/v1/jobs/${job.id}`)).body.status,
      'running',
      'the long job still computes',
    );
    t.equal((await call(service.url, o.key, 'DELETE', `/v1/jobs/${job.id}`)).body.status, 'canceled');
  }
});

t.test(
  "one compute slot: a job holding its organization's slot waits; queue_ms grows; queue_timeout fails it, charged 0",
  async (t) => {
    const { service } = one;
    const [a, b] = [await orgWithKey(service, { name: 'A' }), await orgWithKey(service, { name: 'B' })];
    await warm(service.url, b.key);
    const jobA = (await call(service.url, a.key, 'POST', '/v1/pack', long(30))).body;
    const busy = await untilJob(service.services, jobA.id, 'computing', computing);
    const queueA = Date.parse(busy.computeStartedAt!) - Date.parse(busy.createdAt);
    t.equal(
      (await call(service.url, a.key, 'GET', `/v1/jobs/${jobA.id}`)).body.summary.queue_ms,
      queueA,
      'queue_ms of a computing job: until compute began',
    );
    const posted = await call(service.url, b.key, 'POST', '/v1/pack', tiny);
    // B's organization has a free slot, so the job is running, but no solver slot is free.
    const waiting = await untilJob(
      service.services,
      posted.body.id,
      "given its organization's slot",
      (j) => j.status !== 'queued',
    );
    t.equal(waiting.computeStartedAt ?? null, null, 'not computing');
    const ended = await call(service.url, b.key, 'GET', `/v1/jobs/${posted.body.id}?wait=60`);
    t.equal(ended.body.status, 'failed');
    t.equal(ended.body.error.code, 'queue_timeout');
    t.match(ended.body.error.message, /to begin computing/);
    t.ok(
      ended.body.summary.queue_ms >= QUEUE_TIMEOUT_MS,
      `queue_ms ${ended.body.summary.queue_ms} counts the whole wait`,
    );
    t.equal(ended.body.summary.compute_ms, 0);
    t.equal(ended.body.cost.credits, 0, 'not charged');
    t.equal((await call(service.url, a.key, 'DELETE', `/v1/jobs/${jobA.id}`)).body.status, 'canceled');
    t.equal((await call(service.url, b.key, 'GET', '/v1/balance')).body.reserved_credits, 0, 'B holds nothing');
  },
);
