/** Projections: applying the same event twice leaves the documents unchanged (STYLE). */
import t from 'tap';
import { MemoryReadStore } from '../../adapters/memory/read-store.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import { balancesProjection, BALANCES, type BalanceDocument } from '../../projections/balances/projection.js';
import { jobsProjection } from '../../projections/jobs/projection.js';
import { JOBS, type JobDocument } from '../../projections/jobs/job-document.js';
import { organizationsProjection } from '../../projections/organizations/projection.js';
import { DEFAULT_LIMITS } from '../../domain/organization/limits.js';

const NOW = '2026-11-22T10:00:00.000Z';
let position = 0;
const rec = (stream: string, type: string, data: unknown): RecordedEvent => ({
  id: `e${++position}`,
  type,
  data,
  metadata: {},
  stream,
  revision: 0,
  position,
  recordedAt: NOW,
});

const events: RecordedEvent[] = [
  rec('org-o1', 'OrganizationCreated', {
    orgId: 'o1',
    name: 'O',
    limits: DEFAULT_LIMITS,
    axleAccess: false,
    createdAt: NOW,
  }),
  rec('ledger-o1', 'CreditsPurchased', { amount: 1_000_000, purchasedAt: NOW }),
  rec('ledger-o1', 'JobAdmitted', { jobId: 'j1', reserved: 300_000, maxVehicles: 2, budgetMs: 1000, admittedAt: NOW }),
  rec('job-j1', 'JobQueued', {
    jobId: 'j1',
    orgId: 'o1',
    keyId: 'k',
    memberId: 'u',
    source: 'api',
    reference: 'r',
    createdAt: NOW,
    expiresAt: NOW,
    items: 3,
    maxVehicles: 2,
    budgetMs: 1000,
    reservedMicros: 300_000,
    rateCardVersion: 1,
    warnings: [],
  }),
  rec('ledger-o1', 'JobStarted', { jobId: 'j1', startedAt: NOW }),
  rec('job-j1', 'JobStarted', { jobId: 'j1', startedAt: NOW }),
  rec('job-j1', 'JobSucceeded', {
    jobId: 'j1',
    finishedAt: NOW,
    computeMs: 40,
    warnings: [],
    summary: { items_placed: 3, items_unplaced: 0, vehicles_used: 1, total_weight: 30, volume_utilization: 0.5 },
  }),
  rec('ledger-o1', 'JobSettled', {
    jobId: 'j1',
    outcome: 'succeeded',
    charged: 150_080,
    breakdown: { base: 100_000, vehicles: 50_000, compute: 80, large_load: 0 },
    rateCardVersion: 1,
    fromSubscription: 0,
    fromPurchased: 150_080,
    settledAt: NOW,
  }),
];
const projections = [organizationsProjection, balancesProjection, jobsProjection];

async function applyAll(store: MemoryReadStore, twice: boolean): Promise<void> {
  for (const e of events) {
    for (const p of projections) {
      await p.apply(e, store);
      if (twice) await p.apply(e, store);
    }
  }
}

t.test('the same events applied once or twice give the same read models', async (t) => {
  const once = new MemoryReadStore();
  const twice = new MemoryReadStore();
  await applyAll(once, false);
  await applyAll(twice, true);
  const job = (await once.collection<JobDocument>(JOBS).get('j1'))!;
  t.equal(job.status, 'succeeded');
  t.equal(job.chargedMicros, 150_080);
  t.equal(job.itemsPlaced, 3);
  t.same(await twice.collection<JobDocument>(JOBS).get('j1'), job);
  const balance = (await once.collection<BalanceDocument>(BALANCES).get('o1'))!;
  t.same([balance.purchased, balance.reserved], [1_000_000 - 150_080, 0]);
  t.same(await twice.collection<BalanceDocument>(BALANCES).get('o1'), balance);
});
