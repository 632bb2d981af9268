/** Usage projection: a job counts on its creation day; settlements add credits and billed compute; idempotent. */
import t from 'tap';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import type { RecordedEvent } from '../../../domain/ports/event-store.js';
import { USAGE_DAYS, usageProjection, type UsageDay } from '../../../projections/usage/projection.js';

let position = 0;
const rec = (stream: string, type: string, data: unknown): RecordedEvent => ({
  id: `e${++position}`,
  type,
  data,
  metadata: {},
  stream,
  revision: 0,
  position,
  recordedAt: '2026-11-22T00:00:00.000Z',
});
const queued = (jobId: string, createdAt: string, budgetMs: number) =>
  rec(`job-${jobId}`, 'JobQueued', {
    jobId,
    orgId: 'o1',
    keyId: 'k',
    memberId: 'u',
    source: 'api',
    reference: null,
    createdAt,
    expiresAt: createdAt,
    items: 3,
    maxVehicles: 2,
    budgetMs,
    reservedMicros: 300_000,
    rateCardVersion: 1,
    warnings: [],
  });
const settled = (
  jobId: string,
  outcome: string,
  breakdown: { base: number; vehicles: number; compute: number; large_load: number },
) =>
  rec('ledger-o1', 'JobSettled', {
    jobId,
    outcome,
    charged: breakdown.base + breakdown.vehicles + breakdown.compute + breakdown.large_load,
    breakdown,
    rateCardVersion: 1,
    fromSubscription: 0,
    fromPurchased: 0,
    settledAt: '2026-11-23T00:00:01.000Z',
  });

const events: RecordedEvent[] = [
  // j1: created late on the 22nd, ends and is settled on the 23rd: counts on the 22nd.
  queued('j1', '2026-11-22T23:59:59.000Z', 1000),
  rec('ledger-o1', 'JobStarted', { jobId: 'j1', startedAt: '2026-11-22T23:59:59.500Z' }),
  rec('job-j1', 'JobStarted', { jobId: 'j1', startedAt: '2026-11-22T23:59:59.500Z' }),
  rec('job-j1', 'JobProgressed', { jobId: 'j1', stage: 'running', vehiclesDone: 1, placedItems: 2 }),
  rec('job-j1', 'JobSucceeded', {
    jobId: 'j1',
    finishedAt: '2026-11-23T00:00:01.000Z',
    computeMs: 1500,
    warnings: [],
    summary: { items_placed: 3, items_unplaced: 0, vehicles_used: 1, total_weight: 30, volume_utilization: 0.5 },
  }),
  settled('j1', 'succeeded', { base: 100_000, vehicles: 50_000, compute: 2000, large_load: 0 }),
  // j2: on the 23rd, fails with engine_failed: counted, nothing billed.
  queued('j2', '2026-11-23T08:00:00.000Z', 1000),
  rec('job-j2', 'JobStarted', { jobId: 'j2', startedAt: '2026-11-23T08:00:00.000Z' }),
  rec('job-j2', 'JobFailed', {
    jobId: 'j2',
    finishedAt: '2026-11-23T08:00:01.000Z',
    computeMs: 700,
    code: 'engine_failed',
    message: 'x',
  }),
  settled('j2', 'engine_failed', { base: 0, vehicles: 0, compute: 0, large_load: 0 }),
  // j3: on the 23rd, canceled while queued.
  queued('j3', '2026-11-23T09:00:00.000Z', 1000),
  rec('job-j3', 'JobFailed', {
    jobId: 'j3',
    finishedAt: '2026-11-23T09:00:01.000Z',
    computeMs: 0,
    code: 'canceled',
    message: 'x',
  }),
  settled('j3', 'canceled', { base: 100_000, vehicles: 0, compute: 0, large_load: 0 }),
  // j4: on the 23rd, still queued.
  queued('j4', '2026-11-23T10:00:00.000Z', 1000),
];

async function fold(twice: boolean): Promise<UsageDay[]> {
  const store = new MemoryReadStore();
  for (const e of events) {
    await usageProjection.apply(e, store);
    if (twice) await usageProjection.apply(e, store);
  }
  return (await store.collection<UsageDay>(USAGE_DAYS).find()).sort((a, b) => a.date.localeCompare(b.date));
}

t.test('days, statuses, credits and billed compute', async (t) => {
  const [d22, d23, ...rest] = await fold(false);
  t.equal(rest.length, 0);
  t.match(
    d22,
    {
      date: '2026-11-22',
      jobs: 1,
      byStatus: { queued: 0, running: 0, succeeded: 1, failed: 0, canceled: 0 },
      creditsMicros: 152_000,
      byComponent: { base: 100_000, vehicles: 50_000, compute: 2000, large_load: 0 },
      computeMsBilled: 1000,
      itemsPlaced: 3,
      vehiclesUsed: 1,
    },
    'compute billed up to the budget; the job counts on its creation day',
  );
  t.match(
    d23,
    {
      date: '2026-11-23',
      jobs: 3,
      byStatus: { queued: 1, running: 0, succeeded: 0, failed: 1, canceled: 1 },
      creditsMicros: 100_000,
      computeMsBilled: 0,
      itemsPlaced: 0,
      vehiclesUsed: 0,
    },
    'engine_failed bills nothing; a queued cancel bills the base fee',
  );
});

t.test('applying every event twice changes nothing', async (t) => {
  t.same(await fold(true), await fold(false));
});

t.test('a stop between the two writes of one event is repaired by the replayed event, counted once', async (t) => {
  const whole = new MemoryReadStore();
  for (const e of events) await usageProjection.apply(e, whole);
  const expected = await whole.collection<UsageDay>(USAGE_DAYS).find({ sortBy: 'id' });
  for (let stopAt = 0; stopAt < events.length; stopAt++) {
    const store = new MemoryReadStore();
    for (const [i, e] of events.entries()) {
      if (i === stopAt) {
        // The process stops after the event's first document write, before its second.
        let writes = 0;
        const torn = Object.create(store) as MemoryReadStore;
        torn.collection = <T extends { id: string }>(name: string) => {
          const c = store.collection<T>(name);
          return {
            get: c.get.bind(c),
            find: c.find.bind(c),
            count: c.count.bind(c),
            delete: c.delete.bind(c),
            put: async (doc: T) => {
              if (++writes > 1) throw new Error('stopped');
              await c.put(doc);
            },
          };
        };
        await usageProjection.apply(e, torn).catch(() => undefined);
      }
      await usageProjection.apply(e, store);
    }
    t.same(
      await store.collection<UsageDay>(USAGE_DAYS).find({ sortBy: 'id' }),
      expected,
      `stopped at event ${stopAt + 1} (${events[stopAt]!.type})`,
    );
  }
});
