/**
 * Start-up recovery in bulk (domain/job/process.ts `recover`) on a real SQLite event store: a
 * few hundred queued jobs seeded the way the service writes them (scripts/seed-log.ts), plus a
 * job admitted whose request was stored but that was never queued and one admitted with nothing
 * stored, and a recovery that was cut short before (some jobs failed, a few of those settled).
 * After recover every job has exactly one JobFailed{server_restarted} and one JobSettled
 * (nothing charged), no credits stay reserved and the available credits equal those before the
 * admissions; a second recover on the store opened again (a second start) writes nothing.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { newId } from '../../../application/id.js';
import { serviceActor } from '../../../domain/decider/actor.js';
import { handleCommand, loadState } from '../../../domain/decider/handle.js';
import { readJobBody, storeJobRequest } from '../../../domain/job/body.js';
import { jobDecider } from '../../../domain/job/decide.js';
import { JobProcess } from '../../../domain/job/process.js';
import { jobStream } from '../../../domain/job/streams.js';
import { ledgerDecider } from '../../../domain/ledger/decide.js';
import { availableCredits, reservedTotal, type LedgerEvent } from '../../../domain/ledger/ledger.js';
import { CURRENT_RATE_CARD } from '../../../domain/ledger/rate-card.js';
import { ledgerStream } from '../../../domain/ledger/streams.js';
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import type { EventStore } from '../../../domain/ports/event-store.js';
import { repairReads } from '../../../projections/jobs/repair-reads.js';
import { ProjectionRunner } from '../../../projections/runner.js';
import { seedJobLog } from '../../../scripts/seed-log.js';
import { PROJECTIONS } from '../../../service/server.js';

const QUEUED = 300;
const NOW = '2026-11-26T08:00:00.000Z';
const ACTOR = serviceActor('scheduler');
/** Jobs queued here never start: the organization has no compute slot. */
const LIMITS = { ...DEFAULT_LIMITS, concurrency: 0, maxQueuedJobs: 1_000_000 };

const processOf = (store: EventStore): JobProcess =>
  new JobProcess({
    store,
    bus: { publish: async () => {}, signal: async () => {} } as never,
    clock: () => NOW,
    limitsOf: () => Promise.resolve(LIMITS),
  });

/** The held job ids per organization, as the service's start-up reads them (read models caught up). */
async function openReservations(store: EventStore): Promise<{ orgId: string; jobIds: string[] }[]> {
  const reads = new MemoryReadStore();
  await new ProjectionRunner(store, reads, [...PROJECTIONS]).catchUp();
  return (await repairReads(reads).ledgers()).map((l) => ({ orgId: l.orgId, jobIds: l.heldJobIds }));
}

t.test('recover fails and settles every held job exactly once, also run twice', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'recover-bulk-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const seeded = await seedJobLog(dir, { jobs: 0, queued: QUEUED, credits: 10_000, limits: LIMITS });
  t.equal(seeded.queuedIds.length, QUEUED, 'seeded queued jobs');
  const file = join(dir, 'events.db');
  let store = new SqliteEventStore(file);
  t.teardown(() => store.close());
  const { orgId } = seeded;

  // The available credits before any admission: the ledger folded up to its first JobAdmitted.
  const ledgerEvents = await store.readStream(ledgerStream(orgId));
  let before = ledgerDecider.initialState();
  for (const e of ledgerEvents) {
    if (e.type === 'JobAdmitted') break;
    before = ledgerDecider.evolve(before, { type: e.type, data: e.data } as LedgerEvent);
  }
  const reference = availableCredits(before, NOW);
  t.ok(reference > 0, 'the organization had credits');

  // Two admissions that stopped half way: one stored its request but never queued, one stored nothing.
  const stored = (await readJobBody(store, seeded.queuedIds[0]!)).request!;
  const admit = async (jobId: string): Promise<void> => {
    const { events } = await handleCommand(store, ledgerStream(orgId), ledgerDecider, {
      type: 'AdmitJob',
      data: {
        jobId,
        card: CURRENT_RATE_CARD,
        units: stored.queued.items,
        minVehicles: 1,
        maxVehicles: stored.queued.maxVehicles,
        budgetMs: stored.queued.budgetMs,
        maxQueuedJobs: LIMITS.maxQueuedJobs,
      },
      metadata: { now: NOW, actor: ACTOR },
    });
    t.equal(events.length, 1, `${jobId} admitted`);
  };
  const requestOnly = newId('job');
  const nothingStored = newId('job');
  await admit(requestOnly);
  await storeJobRequest(store, requestOnly, { ...stored, queued: { ...stored.queued, jobId: requestOnly } });
  await admit(nothingStored);

  // A recovery cut short: 50 jobs failed already, 20 of them settled too.
  const cutShort = processOf(store);
  for (const jobId of seeded.queuedIds.slice(0, 50)) {
    await handleCommand(store, jobStream(jobId), jobDecider, {
      type: 'FailJob',
      data: { jobId, computeMs: 0, code: 'server_restarted', message: 'the service restarted' },
      metadata: { now: NOW, actor: ACTOR },
    });
  }
  for (const jobId of seeded.queuedIds.slice(0, 20)) await cutShort.settle(jobId);

  const open = await openReservations(store);
  t.same(
    open.map((o) => ({ orgId: o.orgId, held: o.jobIds.length })),
    [{ orgId, held: QUEUED + 2 - 20 }],
    'the read models list every job still held',
  );
  const first = await processOf(store).recover(open);
  t.same(first, { restarted: QUEUED - 50 + 1, settled: QUEUED - 20 + 1 }, 'failed and settled by this recovery');
  // (the job with nothing stored is released by a settlement of its own, after the batch)

  const check = async (label: string): Promise<void> => {
    const settledBy = new Map<string, number>();
    let charged = 0;
    for (const e of await store.readStream(ledgerStream(orgId))) {
      if (e.type !== 'JobSettled') continue;
      const data = e.data as { jobId: string; outcome: string; charged: number };
      settledBy.set(data.jobId, (settledBy.get(data.jobId) ?? 0) + 1);
      charged += data.charged;
      if (data.outcome !== 'server_restarted') t.fail(`${label}: ${data.jobId} settled ${data.outcome}`);
    }
    const held = [...seeded.queuedIds, requestOnly, nothingStored];
    t.equal(settledBy.size, held.length, `${label}: every held job settled`);
    t.ok(
      held.every((id) => settledBy.get(id) === 1),
      `${label}: each exactly once`,
    );
    t.equal(charged, 0, `${label}: nothing charged`);
    const failures = await Promise.all(
      [...seeded.queuedIds, requestOnly].map(async (id) =>
        (await store.readStream(jobStream(id))).filter((e) => e.type === 'JobFailed').map((e) => e.data),
      ),
    );
    t.ok(
      failures.every((f) => f.length === 1 && (f[0] as { code: string }).code === 'server_restarted'),
      `${label}: one JobFailed{server_restarted} per job`,
    );
    const voided = await store.readStream(jobStream(nothingStored));
    t.same(
      voided.map((e) => e.type),
      ['JobVoided'],
      `${label}: the job with nothing stored is voided, not failed`,
    );
    const { state } = await loadState(store, ledgerStream(orgId), ledgerDecider);
    t.equal(reservedTotal(state), 0, `${label}: no credits reserved`);
    t.equal(availableCredits(state, NOW), reference, `${label}: available credits as before the admissions`);
  };
  await check('after recover');

  // A second start: the store opened again (no state cached), the same list of holds (read models behind).
  const head = await store.headPosition();
  await store.close();
  store = new SqliteEventStore(file);
  const second = await processOf(store).recover(open);
  t.same(second, { restarted: 0, settled: 0 }, 'the second recovery fails and settles nothing');
  t.equal(await store.headPosition(), head, 'and writes no event');
  t.same(
    (await openReservations(store)).flatMap((o) => o.jobIds),
    [],
    'the read models hold nothing any more',
  );
  await check('after the second recover');
});
