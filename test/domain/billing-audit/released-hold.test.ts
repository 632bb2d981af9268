/**
 * The billing audit (domain/billing-audit/audit.ts) over a hold released for a job that was
 * admitted but never queued (an admission cut off half way, released by the repair tick:
 * domain/ledger/release.ts): nothing charged, and the audit agrees: no problem, no difference.
 */
import t from 'tap';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { provisionOrganization } from '../../../application/provision.js';
import { serviceActor } from '../../../domain/decider/actor.js';
import { handleCommand } from '../../../domain/decider/handle.js';
import { auditLog } from '../../../domain/billing-audit/audit.js';
import { ledgerDecider } from '../../../domain/ledger/decide.js';
import { CURRENT_RATE_CARD } from '../../../domain/ledger/rate-card.js';
import { releaseUnqueuedJob } from '../../../domain/ledger/release.js';
import { ledgerStream } from '../../../domain/ledger/streams.js';
import { readLog } from '../../../domain/ports/log-pages.js';
import { compareWithReadModels } from '../../../projections/audit/compare.js';
import { balancesProjection } from '../../../projections/balances/projection.js';
import { jobsProjection } from '../../../projections/jobs/projection.js';
import { organizationsProjection } from '../../../projections/organizations/projection.js';

t.test('a released hold of a job never queued costs nothing, and the audit finds no difference', async (t) => {
  const store = new SqliteEventStore(':memory:');
  const now = new Date().toISOString();
  const org = await provisionOrganization(store, {
    name: 'Cut Off',
    ownerName: 'O',
    subscriptionCredits: 50,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
  });
  const actor = serviceActor('admission');
  await handleCommand(store, ledgerStream(org.orgId), ledgerDecider, {
    type: 'AdmitJob',
    data: {
      jobId: 'job_cut',
      card: CURRENT_RATE_CARD,
      units: 20,
      minVehicles: 1,
      maxVehicles: 2,
      budgetMs: 10_000,
      maxQueuedJobs: 10,
    },
    metadata: { now, actor },
  });
  t.equal(await releaseUnqueuedJob(store, org.orgId, 'job_cut', now, serviceActor('repair')), 1, 'released');
  const events = await readLog(store);
  const report = auditLog(events);
  t.same(report.problems, [], 'no problem in the log');
  t.same(
    report.jobs.get('job_cut')?.expected,
    { base: 0, vehicles: 0, compute: 0, large_load: 0 },
    'the rules say it costs nothing',
  );
  const reads = new MemoryReadStore();
  for (const e of events)
    for (const p of [organizationsProjection, balancesProjection, jobsProjection]) await p.apply(e, reads);
  const lines = await compareWithReadModels(report, reads);
  t.same(
    lines.flatMap((l) => l.differences),
    [],
    'no difference against the read models',
  );
  t.equal(lines[0]?.reserved, 0, 'nothing held any more');
  t.equal(lines[0]?.available, lines[0]?.subscription, 'every credit available again');
  await store.close();
});
