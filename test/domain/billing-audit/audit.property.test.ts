/**
 * Model-based property test of the money path: random sequences of purchases, grants,
 * expiries, admissions, starts, cancellations and outcomes driven through the real command
 * handlers, the process manager's settlement and the SQLite event store. Afterwards: available
 * credits never went below zero, every reservation was released exactly once, each charge ≤ its
 * reservation, and the independent audit replay matches the projections.
 */
import t from 'tap';
import { ACTOR } from '../../helpers/decider-spec.js';
import fc from 'fast-check';
import { InProcessBus } from '../../../adapters/in-process/bus.js';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { auditLog } from '../../../domain/billing-audit/audit.js';
import { DomainError } from '../../../domain/decider/decider.js';
import { handleCommand, loadState } from '../../../domain/decider/handle.js';
import { jobDecider } from '../../../domain/job/decide.js';
import type { JobEvent, JobErrorCode, JobState } from '../../../domain/job/job.js';
import { JobProcess } from '../../../domain/job/process.js';
import { jobStream } from '../../../domain/job/streams.js';
import { ledgerDecider } from '../../../domain/ledger/decide.js';
import { queuedJobIds } from '../../../domain/ledger/ledger.js';
import { CURRENT_RATE_CARD } from '../../../domain/ledger/rate-card.js';
import { ledgerStream } from '../../../domain/ledger/streams.js';
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import type { RecordedEvent } from '../../../domain/ports/event-store.js';
import { compareWithReadModels } from '../../../projections/audit/compare.js';
import { balancesProjection } from '../../../projections/balances/projection.js';
import { jobsProjection } from '../../../projections/jobs/projection.js';
import { organizationsProjection } from '../../../projections/organizations/projection.js';

const ORG = 'org_prop';
const DAY = 86_400_000;
const clock = (): string => new Date().toISOString();

type Step =
  | { kind: 'buy'; credits: number }
  | { kind: 'grant'; credits: number; days: number }
  | { kind: 'expire' }
  | { kind: 'admit'; units: number; vehicles: number; budgetMs: number }
  | { kind: 'start' }
  | { kind: 'end'; job: number; outcome: 'succeeded' | JobErrorCode; computeMs: number; vehicles: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('buy' as const), credits: fc.integer({ min: 1, max: 3_000_000 }) }),
  fc.record({
    kind: fc.constant('grant' as const),
    credits: fc.integer({ min: 0, max: 3_000_000 }),
    days: fc.integer({ min: -3, max: 30 }),
  }),
  fc.record({ kind: fc.constant('expire' as const) }),
  fc.record({
    kind: fc.constant('admit' as const),
    units: fc.integer({ min: 1, max: 2000 }),
    vehicles: fc.integer({ min: 1, max: 20 }),
    budgetMs: fc.integer({ min: 0, max: 90_000 }),
  }),
  fc.record({ kind: fc.constant('start' as const) }),
  fc.record({
    kind: fc.constant('end' as const),
    job: fc.integer({ min: 0, max: 3 }),
    outcome: fc.constantFrom(
      'succeeded',
      'canceled',
      'time_limit_exceeded',
      'engine_failed',
      'queue_timeout',
      'server_restarted',
    ),
    computeMs: fc.integer({ min: 0, max: 120_000 }),
    vehicles: fc.integer({ min: 1, max: 20 }),
  }),
);

async function runSteps(steps: Step[], seq: number): Promise<RecordedEvent[]> {
  const store = new SqliteEventStore(':memory:');
  const bus = new InProcessBus();
  const jobProcess = new JobProcess({
    store,
    bus,
    clock,
    limitsOf: async () => ({ ...DEFAULT_LIMITS, concurrency: 2, maxQueuedJobs: 5 }),
  });
  const jobIds: string[] = [];
  for (const s of steps) {
    try {
      if (s.kind === 'buy')
        await handleCommand(store, ledgerStream(ORG), ledgerDecider, {
          type: 'PurchaseCredits',
          data: { amount: s.credits },
          metadata: { now: clock(), actor: ACTOR },
        });
      else if (s.kind === 'grant') {
        const expiresAt = new Date(Date.now() + s.days * DAY).toISOString();
        await handleCommand(store, ledgerStream(ORG), ledgerDecider, {
          type: 'GrantSubscriptionCredits',
          data: { amount: s.credits, expiresAt },
          metadata: { now: clock(), actor: ACTOR },
        });
      } else if (s.kind === 'expire')
        await handleCommand(store, ledgerStream(ORG), ledgerDecider, {
          type: 'ExpireSubscriptionCredits',
          data: {},
          metadata: { now: clock(), actor: ACTOR },
        });
      else if (s.kind === 'admit') {
        const jobId = `job_${seq}_${jobIds.length}`;
        jobIds.push(jobId);
        const now = clock();
        const admitted = await handleCommand(store, ledgerStream(ORG), ledgerDecider, {
          type: 'AdmitJob',
          data: {
            jobId,
            card: CURRENT_RATE_CARD,
            units: s.units,
            minVehicles: 1,
            maxVehicles: s.vehicles,
            budgetMs: s.budgetMs,
            maxQueuedJobs: 5,
          },
          metadata: { now, actor: ACTOR },
        });
        const e = admitted.events[0];
        if (e?.type !== 'JobAdmitted') continue;
        await handleCommand(store, jobStream(jobId), jobDecider, {
          type: 'QueueJob',
          data: {
            jobId,
            orgId: ORG,
            keyId: 'k',
            memberId: 'u',
            source: 'api',
            reference: null,
            createdAt: now,
            expiresAt: now,
            items: s.units,
            maxVehicles: e.data.maxVehicles,
            budgetMs: e.data.budgetMs,
            reservedMicros: e.data.reserved,
            rateCardVersion: 1,
            warnings: [],
          },
          metadata: { now, actor: ACTOR },
        });
      } else if (s.kind === 'start') {
        const { state } = await loadState(store, ledgerStream(ORG), ledgerDecider);
        await jobProcess.startJobs(ORG);
        for (const jobId of queuedJobIds(state))
          await handleCommand(store, jobStream(jobId), jobDecider, {
            type: 'StartJob',
            data: { jobId },
            metadata: { now: clock(), actor: ACTOR },
          });
      } else {
        if (jobIds.length === 0) continue;
        const jobId: string = jobIds[s.job % jobIds.length]!;
        const { state } = await loadState<JobState, JobEvent>(store, jobStream(jobId), jobDecider);
        if (s.outcome === 'succeeded') {
          const summary = {
            items_placed: 1,
            items_unplaced: 0,
            vehicles_used: Math.min(s.vehicles, state.queued?.maxVehicles ?? 1),
            total_weight: 1,
            volume_utilization: 0.5,
          };
          await handleCommand(store, jobStream(jobId), jobDecider, {
            type: 'SucceedJob',
            data: { jobId, computeMs: s.computeMs, summary, warnings: [], stopReason: 'time_limit' },
            metadata: { now: clock(), actor: ACTOR },
          });
        } else if (s.outcome === 'canceled' && state.status !== 'none') {
          await handleCommand(store, jobStream(jobId), jobDecider, {
            type: 'CancelJob',
            data: { jobId, computeMs: s.computeMs },
            metadata: { now: clock(), actor: ACTOR },
          });
        } else {
          await handleCommand(store, jobStream(jobId), jobDecider, {
            type: 'FailJob',
            data: { jobId, computeMs: s.computeMs, code: s.outcome, message: s.outcome },
            metadata: { now: clock(), actor: ACTOR },
          });
        }
        await jobProcess.settle(jobId);
        await jobProcess.settle(jobId); // a repeated step (crash and retry) must not charge twice
      }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err; // 402, 429, 409 are refusals, not failures
    }
  }
  const events = await store.readAll(0, 1_000_000);
  await store.close();
  await bus.close();
  return events;
}

t.test('ledger invariants hold and the audit replay matches the projections', async (t) => {
  let seq = 0;
  let settledTotal = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 50 }), async (steps) => {
      const funded: Step[] = [
        { kind: 'grant', credits: 1_500_000, days: 10 },
        { kind: 'buy', credits: 500_000 },
      ];
      const events = await runSteps([...funded, ...steps], ++seq);
      const report = auditLog(events);
      if (report.problems.length > 0) throw new Error(report.problems.join('\n'));
      const settlements = new Map<string, number>();
      const reservations = new Map<string, number>();
      for (const e of events) {
        const d = e.data as { jobId: string; reserved: number; charged: number };
        if (e.type === 'JobAdmitted') reservations.set(d.jobId, d.reserved);
        if (e.type === 'JobSettled') {
          settlements.set(d.jobId, (settlements.get(d.jobId) ?? 0) + 1);
          if (d.charged > reservations.get(d.jobId)!) throw new Error(`charge above reservation for ${d.jobId}`);
        }
      }
      for (const [jobId, n] of settlements) if (n !== 1) throw new Error(`${jobId} settled ${n} times`);
      settledTotal += settlements.size;
      const reads = new MemoryReadStore();
      for (const e of events)
        for (const p of [organizationsProjection, balancesProjection, jobsProjection]) await p.apply(e, reads);
      const lines = await compareWithReadModels(report, reads);
      const differences = lines.flatMap((l) => l.differences);
      if (differences.length > 0) throw new Error(differences.join('\n'));
    }),
    { numRuns: 200, includeErrorInReport: true },
  );
  t.ok(settledTotal > 100, `the runs settled ${settledTotal} jobs in all`);
});

t.test('the audit catches a tampered settlement', async (t) => {
  const events = await runSteps(
    [
      { kind: 'buy', credits: 5_000_000 },
      { kind: 'admit', units: 700, vehicles: 3, budgetMs: 10_000 },
      { kind: 'start' },
      { kind: 'end', job: 0, outcome: 'succeeded', computeMs: 2_000, vehicles: 2 },
    ],
    9999,
  );
  t.same(auditLog(events).problems, []);
  const settled = events.find((e) => e.type === 'JobSettled')!;
  const data = settled.data as { breakdown: { vehicles: number }; charged: number; fromPurchased: number };
  t.same(data.breakdown, { base: 100_000, vehicles: 100_000, compute: 4_000, large_load: 200_000 });
  const tampered = events.map((e) =>
    e === settled
      ? {
          ...e,
          data: {
            ...data,
            breakdown: { ...data.breakdown, vehicles: 150_000 },
            charged: data.charged + 50_000,
            fromPurchased: data.fromPurchased + 50_000,
          },
        }
      : e,
  );
  const problems = auditLog(tampered).problems;
  t.ok(
    problems.some((p) => p.includes('differs from the rules')),
    problems.join('; '),
  );
  const doubled = [...events, { ...settled, position: settled.position + 1000, id: 'dup' }];
  t.ok(auditLog(doubled).problems.some((p) => p.includes('settled without an open reservation')));
});
