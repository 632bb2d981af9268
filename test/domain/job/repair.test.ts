/**
 * The repair tick (domain/job/repair.ts) on a real SQLite store and read models built by the
 * projections, with a clock the test moves: a hold without a job is released only after
 * `orphanAfterMs`; a queued job past the queue timeout fails `queue_timeout`; a step that fails
 * is reported and does not stop the others; an Idempotency-Key claim left pending is settled only
 * past its timeout, completed when its job was queued and released (the job voided) when not.
 */
import t from 'tap';
import { ACTOR } from '../../helpers/decider-spec.js';
import { InProcessBus } from '../../../adapters/in-process/bus.js';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { provisionOrganization } from '../../../application/provision.js';
import { PROJECTIONS } from '../../../service/server.js';
import { handleCommand } from '../../../domain/decider/handle.js';
import { jobDecider } from '../../../domain/job/decide.js';
import { JobProcess } from '../../../domain/job/process.js';
import { REPAIR_TIMINGS, RepairTick, settleClaimsLeftPending } from '../../../domain/job/repair.js';
import { idempotencyStream, jobStream } from '../../../domain/job/streams.js';
import { claimDecider, IDEMPOTENCY_TIMINGS } from '../../../domain/job/idempotency-claim.js';
import { loadState } from '../../../domain/decider/handle.js';
import { ledgerDecider } from '../../../domain/ledger/decide.js';
import { holdOf } from '../../../domain/ledger/ledger.js';
import { CURRENT_RATE_CARD } from '../../../domain/ledger/rate-card.js';
import { ledgerStream } from '../../../domain/ledger/streams.js';
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import { ProjectProcess } from '../../../domain/project/process.js';
import { BALANCES, type BalanceDocument } from '../../../projections/balances/projection.js';
import { repairReads } from '../../../projections/jobs/repair-reads.js';
import { JOBS, type JobDocument } from '../../../projections/jobs/job-document.js';
import { ProjectionRunner } from '../../../projections/runner.js';

const QUEUE_TIMEOUT_MS = 60_000;

async function world() {
  let nowMs = Date.parse('2026-11-23T10:00:00.000Z');
  const clock = (): string => new Date(nowMs).toISOString();
  const store = new SqliteEventStore(':memory:');
  const reads = new MemoryReadStore();
  const runner = new ProjectionRunner(store, reads, [...PROJECTIONS]);
  await runner.catchUp();
  const bus = new InProcessBus();
  const jobs = new JobProcess({ store, bus, clock, limitsOf: async () => DEFAULT_LIMITS });
  const projects = new ProjectProcess({ store, clock });
  const org = await provisionOrganization(store, {
    name: 'Repair',
    ownerName: 'Owner',
    subscriptionCredits: 100,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now: clock(),
  });
  const admit = async (jobId: string) =>
    handleCommand(store, ledgerStream(org.orgId), ledgerDecider, {
      type: 'AdmitJob',
      data: {
        jobId,
        card: CURRENT_RATE_CARD,
        units: 1,
        minVehicles: 1,
        maxVehicles: 1,
        budgetMs: 1000,
        maxQueuedJobs: 20,
      },
      metadata: { now: clock(), actor: ACTOR },
    });
  const settle = async () => runner.waitFor(await store.headPosition());
  return {
    store,
    reads,
    runner,
    bus,
    jobs,
    projects,
    org,
    clock,
    admit,
    settle,
    advance: (ms: number) => {
      nowMs += ms;
    },
    close: async () => {
      await runner.stop();
      await bus.close();
      await store.close();
    },
  };
}

type World = Awaited<ReturnType<typeof world>>;

t.test('a hold with no job behind it is released after orphanAfterMs, not before', async (t) => {
  const w = await world();
  t.teardown(w.close);
  await w.admit('job_orphan');
  await w.settle();
  const tick = new RepairTick({
    store: w.store,
    jobs: w.jobs,
    projects: w.projects,
    reads: repairReads(w.reads),
    clock: w.clock,
    queueTimeoutMs: QUEUE_TIMEOUT_MS,
    pendingClaimStaleMs: IDEMPOTENCY_TIMINGS.pendingStaleAfterMs,
  });
  t.same((await tick.run()).orphansReleased, [], 'first seen: kept');
  w.advance(REPAIR_TIMINGS.orphanAfterMs);
  t.same((await tick.run()).orphansReleased, [], `${REPAIR_TIMINGS.orphanAfterMs} ms later: still kept`);
  w.advance(1);
  const report = await tick.run();
  t.same(report.orphansReleased, ['job_orphan'], 'past orphanAfterMs: released');
  t.same(report.errors, []);
  await w.settle();
  const balance = await w.reads.collection<BalanceDocument>(BALANCES).get(w.org.orgId);
  t.equal(balance!.reserved, 0, 'nothing held any more');
  t.same(await repairReads(w.reads).ledgers(), [], 'no open reservation in the read model');
  t.same((await tick.run()).orphansReleased, [], 'released once');
});

t.test(
  'a queued job past the queue timeout fails queue_timeout; a failing step does not stop the others',
  async (t) => {
    const w = await world();
    t.teardown(w.close);
    await w.admit('job_waiting');
    const createdAt = w.clock();
    await handleCommand(w.store, jobStream('job_waiting'), jobDecider, {
      type: 'QueueJob',
      data: {
        jobId: 'job_waiting',
        orgId: w.org.orgId,
        keyId: 'key_x',
        memberId: w.org.ownerId,
        source: 'api',
        reference: null,
        createdAt,
        expiresAt: '2099-01-01T00:00:00.000Z',
        items: 1,
        maxVehicles: 1,
        budgetMs: 1000,
        reservedMicros: 1,
        rateCardVersion: CURRENT_RATE_CARD.version,
        warnings: [],
      },
      metadata: { now: createdAt, actor: ACTOR },
    });
    await w.admit('job_orphan');
    await w.settle();
    // No slot is given here (no reactions run), so the job stays queued while the clock moves.
    const broken = {
      ...repairReads(w.reads),
      endedUnsettledJobs: async () => Promise.reject(new Error('read store down')),
    };
    const tick = new RepairTick({
      store: w.store,
      jobs: w.jobs,
      projects: w.projects,
      reads: broken,
      clock: w.clock,
      queueTimeoutMs: QUEUE_TIMEOUT_MS,
      pendingClaimStaleMs: IDEMPOTENCY_TIMINGS.pendingStaleAfterMs,
    });
    const early = await tick.run();
    t.equal(early.queueTimeouts, 0, 'within the timeout: still queued');
    w.advance(QUEUE_TIMEOUT_MS + REPAIR_TIMINGS.orphanAfterMs + 1);
    const late = await tick.run();
    t.equal(late.queueTimeouts, 1, 'past the timeout: failed');
    t.same(
      late.errors.map((e) => e.step),
      ['settlements'],
      'the failing step is reported',
    );
    t.same(late.orphansReleased, ['job_orphan'], 'and the steps after it still ran');
    await w.settle();
    const job = await w.reads.collection<JobDocument>(JOBS).get('job_waiting');
    t.equal(job?.status, 'failed');
    t.equal(job?.error?.code, 'queue_timeout');
  },
);

t.test(
  'a job holding its slot but not computing past the queue timeout fails queue_timeout; a computing one does not',
  async (t) => {
    const w = await world();
    t.teardown(w.close);
    const createdAt = w.clock();
    for (const jobId of ['job_stuck', 'job_computing']) {
      await w.admit(jobId);
      await handleCommand(w.store, jobStream(jobId), jobDecider, {
        type: 'QueueJob',
        data: {
          jobId,
          orgId: w.org.orgId,
          keyId: 'key_x',
          memberId: w.org.ownerId,
          source: 'api',
          reference: null,
          createdAt,
          expiresAt: '2099-01-01T00:00:00.000Z',
          items: 1,
          maxVehicles: 1,
          budgetMs: 1000,
          reservedMicros: 1,
          rateCardVersion: CURRENT_RATE_CARD.version,
          warnings: [],
        },
        metadata: { now: createdAt, actor: ACTOR },
      });
      // The organization's slot is given (status running), but every solver slot is busy.
      await handleCommand(w.store, jobStream(jobId), jobDecider, {
        type: 'StartJob',
        data: { jobId },
        metadata: { now: createdAt, actor: ACTOR },
      });
    }
    await handleCommand(w.store, jobStream('job_computing'), jobDecider, {
      type: 'ReportProgress',
      data: { jobId: 'job_computing', stage: 'computing', vehiclesDone: 0, placedItems: 0 },
      metadata: { now: createdAt, actor: ACTOR },
    });
    await w.settle();
    const tick = new RepairTick({
      store: w.store,
      jobs: w.jobs,
      projects: w.projects,
      reads: repairReads(w.reads),
      clock: w.clock,
      queueTimeoutMs: QUEUE_TIMEOUT_MS,
      pendingClaimStaleMs: IDEMPOTENCY_TIMINGS.pendingStaleAfterMs,
    });
    t.equal((await tick.run()).queueTimeouts, 0, 'within the timeout');
    w.advance(QUEUE_TIMEOUT_MS + 1);
    t.equal((await tick.run()).queueTimeouts, 1, 'past the timeout: only the one not computing');
    await w.settle();
    const jobs = w.reads.collection<JobDocument>(JOBS);
    const stuck = await jobs.get('job_stuck');
    t.same([stuck?.status, stuck?.error?.code], ['failed', 'queue_timeout']);
    t.match(stuck?.error?.message, /waited more than 60 s to begin computing/);
    t.equal((await jobs.get('job_computing'))?.status, 'running');
  },
);

/**
 * Two Idempotency-Key claims left pending: one whose admission got as far as JobQueued and
 * stopped before completing its claim (`job_queued`), one that stopped after its hold (`job_lost`).
 */
async function twoClaimsLeftPending(w: World) {
  const claim = async (stream: string, jobId: string) =>
    handleCommand(w.store, stream, claimDecider, {
      type: 'ClaimKey',
      data: { jobId, bodyHash: 'b' },
      metadata: { now: w.clock(), actor: ACTOR },
    });
  const queuedKey = idempotencyStream(w.org.orgId, 'queued');
  const lostKey = idempotencyStream(w.org.orgId, 'lost');
  await claim(queuedKey, 'job_queued');
  await claim(lostKey, 'job_lost');
  // The first admission got as far as JobQueued and stopped before completing its claim; the second stopped after its hold.
  await w.admit('job_queued');
  const queued = {
    jobId: 'job_queued',
    orgId: w.org.orgId,
    keyId: 'key_1',
    memberId: w.org.ownerId,
    source: 'api' as const,
    reference: null,
    createdAt: w.clock(),
    expiresAt: '2099-01-01T00:00:00.000Z',
    items: 1,
    maxVehicles: 1,
    budgetMs: 1000,
    reservedMicros: 0,
    rateCardVersion: CURRENT_RATE_CARD.version,
    warnings: [],
  };
  await handleCommand(w.store, jobStream('job_queued'), jobDecider, {
    type: 'QueueJob',
    data: queued,
    metadata: { now: w.clock(), actor: ACTOR },
  });
  await w.admit('job_lost');
  await w.settle();
  return { queuedKey, lostKey, queued };
}

t.test(
  'a pending Idempotency-Key claim is settled past its timeout: completed with a queued job, released with its job voided',
  async (t) => {
    const w = await world();
    t.teardown(w.close);
    const { queuedKey, lostKey, queued } = await twoClaimsLeftPending(w);
    const tick = new RepairTick({
      store: w.store,
      jobs: w.jobs,
      projects: w.projects,
      reads: repairReads(w.reads),
      clock: w.clock,
      queueTimeoutMs: QUEUE_TIMEOUT_MS,
      pendingClaimStaleMs: IDEMPOTENCY_TIMINGS.pendingStaleAfterMs,
    });
    t.same((await tick.run()).claimsSettled, [], 'within the timeout: both left pending');
    w.advance(IDEMPOTENCY_TIMINGS.pendingStaleAfterMs);
    const report = await tick.run();
    t.same(
      [...report.claimsSettled].sort((a, b) => a.jobId.localeCompare(b.jobId)),
      [
        { stream: lostKey, jobId: 'job_lost', outcome: 'released' },
        { stream: queuedKey, jobId: 'job_queued', outcome: 'completed' },
      ],
    );
    t.same(report.errors, []);
    t.equal((await loadState(w.store, queuedKey, claimDecider)).state.claim?.status, 'completed');
    t.equal((await loadState(w.store, lostKey, claimDecider)).state.claim?.status, 'released');
    // The stalled admission of job_lost comes back: its QueueJob writes nothing.
    const late = await handleCommand(w.store, jobStream('job_lost'), jobDecider, {
      type: 'QueueJob',
      data: { ...queued, jobId: 'job_lost' },
      metadata: { now: w.clock(), actor: ACTOR },
    });
    t.same(late.events, [], 'a voided job is never queued');
    t.equal(late.state.status, 'none');
    await w.settle();
    t.same((await tick.run()).claimsSettled, [], 'settled claims leave the read model');
  },
);

t.test('start-up recovery settles every pending claim at once, within the timeout', async (t) => {
  const w = await world();
  t.teardown(w.close);
  const { queuedKey, lostKey } = await twoClaimsLeftPending(w);
  const settled = await settleClaimsLeftPending({ store: w.store, reads: repairReads(w.reads), clock: w.clock });
  t.same(
    [...settled].sort((a, b) => a.jobId.localeCompare(b.jobId)),
    [
      { stream: lostKey, jobId: 'job_lost', outcome: 'released' },
      { stream: queuedKey, jobId: 'job_queued', outcome: 'completed' },
    ],
  );
  t.equal((await loadState(w.store, queuedKey, claimDecider)).state.claim?.status, 'completed');
  t.equal((await loadState(w.store, lostKey, claimDecider)).state.claim?.status, 'released');
  await w.settle();
  t.same(
    await settleClaimsLeftPending({ store: w.store, reads: repairReads(w.reads), clock: w.clock }),
    [],
    'settled claims leave the read model: a second start settles nothing',
  );
});

t.test(
  'releasing an orphan hold voids its job first: a late QueueJob writes nothing, and a job queued after all keeps its hold',
  async (t) => {
    const w = await world();
    t.teardown(w.close);
    const queued = (jobId: string) => ({
      jobId,
      orgId: w.org.orgId,
      keyId: 'key_1',
      memberId: w.org.ownerId,
      source: 'api' as const,
      reference: null,
      createdAt: w.clock(),
      expiresAt: '2099-01-01T00:00:00.000Z',
      items: 1,
      maxVehicles: 1,
      budgetMs: 1000,
      reservedMicros: 0,
      rateCardVersion: CURRENT_RATE_CARD.version,
      warnings: [],
    });
    await w.admit('job_stalled');
    t.equal(await w.jobs.releaseOrphan(w.org.orgId, 'job_stalled'), true, 'a job never queued: released');
    const late = await handleCommand(w.store, jobStream('job_stalled'), jobDecider, {
      type: 'QueueJob',
      data: queued('job_stalled'),
      metadata: { now: w.clock(), actor: ACTOR },
    });
    t.same(late.events, [], 'the stalled admission cannot queue it any more');

    await w.admit('job_raced');
    await handleCommand(w.store, jobStream('job_raced'), jobDecider, {
      type: 'QueueJob',
      data: queued('job_raced'),
      metadata: { now: w.clock(), actor: ACTOR },
    });
    t.equal(
      await w.jobs.releaseOrphan(w.org.orgId, 'job_raced'),
      false,
      'queued after all (the read model lagged): not released',
    );
    const { state } = await loadState(w.store, ledgerStream(w.org.orgId), ledgerDecider);
    t.ok(holdOf(state, 'job_raced'), 'its credits stay held for it');
    t.notOk(holdOf(state, 'job_stalled'), 'the voided one holds nothing');
  },
);
