/** The ledger decider: given events, when a command, then events or a refusal. Fixed clock. */
import t from 'tap';
import fc from 'fast-check';
import { DomainError } from '../../../domain/errors.js';
import { decideLedger, ledgerDecider, type LedgerCommand } from '../../../domain/ledger/decide.js';
import {
  availableCredits,
  evolveLedger,
  initialLedger,
  queuedJobIds,
  reservedTotal,
  runningJobIds,
  type LedgerEvent,
} from '../../../domain/ledger/ledger.js';
import { RATE_CARDS } from '../../../domain/ledger/rate-card.js';
import { ACTOR, deciderSpec, NOW } from '../../helpers/decider-spec.js';

const card = RATE_CARDS[1]!;

type AdmitData = Extract<LedgerCommand, { type: 'AdmitJob' }>['data'];
type SettleCommand = Extract<LedgerCommand, { type: 'SettleJob' }>;
const metadata = { now: NOW, actor: ACTOR };
const admit = (jobId: string, extra: Partial<AdmitData> = {}): LedgerCommand => ({
  type: 'AdmitJob',
  data: { jobId, card, units: 10, minVehicles: 1, maxVehicles: 2, budgetMs: 1_000, maxQueuedJobs: 20, ...extra },
  metadata,
});
const settle = (jobId: string, outcome: SettleCommand['data']['outcome'], computeMs = 500): SettleCommand => ({
  type: 'SettleJob',
  data: { jobId, outcome, rateCardVersion: 1, vehicles: 1, computeMs, units: 10, budgetMs: 1_000 },
  metadata,
});
const startNext: LedgerCommand = {
  type: 'StartNextJob',
  data: { concurrency: 1 },
  metadata: { now: NOW, actor: ACTOR },
};

/** 1,000,000 subscription credits (micros) until 2027 and 500,000 purchased. */
const funded: LedgerEvent[] = [
  {
    type: 'SubscriptionCreditsGranted',
    data: { amount: 1_000_000, expiresAt: '2027-01-01T00:00:00.000Z', grantedAt: NOW },
  },
  { type: 'CreditsPurchased', data: { amount: 500_000, purchasedAt: NOW } },
];
/** Base 100,000 + 2 vehicles × 50,000 + 1 s of compute 2,000 at most. */
const admitted = (jobId: string): LedgerEvent => ({
  type: 'JobAdmitted',
  id: `${jobId}:admitted`,
  data: { jobId, reserved: 202_000, maxVehicles: 2, budgetMs: 1_000, admittedAt: NOW },
});
const started = (jobId: string): LedgerEvent => ({
  type: 'JobStarted',
  id: `${jobId}:slot`,
  data: { jobId, startedAt: NOW },
});
const settledSucceeded = (jobId: string): LedgerEvent => ({
  type: 'JobSettled',
  id: `${jobId}:settled`,
  data: {
    jobId,
    outcome: 'succeeded',
    charged: 151_000,
    breakdown: { base: 100_000, vehicles: 50_000, compute: 1_000, large_load: 0 },
    rateCardVersion: 1,
    fromSubscription: 151_000,
    fromPurchased: 0,
    settledAt: NOW,
  },
});

t.test('admission reserves, settlement charges subscription credits first and releases the reservation', async (t) => {
  const { given } = deciderSpec(t, ledgerDecider);
  const a = given(funded)
    .when(admit('j1'))
    .then([admitted('j1')]);
  t.equal(reservedTotal(a.state), 100_000 + 100_000 + 2_000);
  t.equal(availableCredits(a.state, NOW), 1_500_000 - 202_000);
  const running = given(a.history)
    .when(startNext)
    .then([started('j1')]);
  const settled = given(running.history)
    .when(settle('j1', 'succeeded'))
    .then([settledSucceeded('j1')]);
  t.equal(reservedTotal(settled.state), 0);
  t.equal(availableCredits(settled.state, NOW), 1_500_000 - 151_000);
});

t.test('a second settlement of the same job is a no-op', async (t) => {
  const { given } = deciderSpec(t, ledgerDecider);
  const once = given([...funded, admitted('j1')])
    .when(settle('j1', 'canceled'))
    .then([
      {
        type: 'JobSettled',
        id: 'j1:settled',
        data: {
          jobId: 'j1',
          outcome: 'canceled',
          charged: 101_000,
          breakdown: { base: 100_000, vehicles: 0, compute: 1_000, large_load: 0 },
          rateCardVersion: 1,
          fromSubscription: 101_000,
          fromPurchased: 0,
          settledAt: NOW,
        },
      },
    ]);
  t.same(given(once.history).when(settle('j1', 'succeeded')).thenNothing().state, once.state);
});

t.test('402 when the smallest run is not covered; 429 at the queued + running limit', async (t) => {
  const { given } = deciderSpec(t, ledgerDecider);
  given([]).when(admit('j1')).thenThrows('insufficient_credits');
  given([...funded, admitted('a'), admitted('b')])
    .when(admit('c', { maxQueuedJobs: 2 }))
    .thenThrows('too_many_jobs');
});

t.test('compute slots: running ≤ concurrency, oldest queued job first', async (t) => {
  const { given } = deciderSpec(t, ledgerDecider);
  const first = given([...funded, admitted('a'), admitted('b')])
    .when(startNext)
    .then([started('a')]);
  const full = given(first.history).when(startNext).thenNothing('no second slot');
  t.same(runningJobIds(full.state), ['a']);
  t.same(queuedJobIds(full.state), ['b']);
  const freed = given(full.history)
    .when(settle('a', 'succeeded'))
    .then([settledSucceeded('a')]);
  t.same(
    runningJobIds(
      given(freed.history)
        .when(startNext)
        .then([started('b')]).state,
    ),
    ['b'],
  );
});

t.test('expired subscription credits are not available; purchased credits never expire', async (t) => {
  t.equal(availableCredits(deciderSpec(t, ledgerDecider).given(funded).state, '2027-01-01T00:00:00.000Z'), 500_000);
});

t.test('property: never below zero available, each reservation released once, charge ≤ reservation', async () => {
  const outcomes = [
    'succeeded',
    'canceled',
    'time_limit_exceeded',
    'engine_failed',
    'queue_timeout',
    'server_restarted',
  ] as const;
  const step = fc.oneof(
    fc.record({ kind: fc.constant('buy' as const), amount: fc.integer({ min: 1, max: 2_000_000 }) }),
    fc.record({
      kind: fc.constant('admit' as const),
      job: fc.integer({ min: 0, max: 9 }),
      vehicles: fc.integer({ min: 1, max: 20 }),
      budget: fc.integer({ min: 0, max: 90_000 }),
      units: fc.integer({ min: 1, max: 2000 }),
    }),
    fc.record({ kind: fc.constant('start' as const) }),
    fc.record({
      kind: fc.constant('settle' as const),
      job: fc.integer({ min: 0, max: 9 }),
      outcome: fc.constantFrom(...outcomes),
      computeMs: fc.integer({ min: 0, max: 100_000 }),
    }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
      let state = initialLedger();
      const reserved = new Map<string, number>();
      const released = new Set<string>();
      for (const s of steps) {
        let cmd: LedgerCommand;
        if (s.kind === 'buy')
          cmd = { type: 'PurchaseCredits', data: { amount: s.amount }, metadata: { now: NOW, actor: ACTOR } };
        // Job ids are never reused (newId): a settled job is not admitted again.
        else if (s.kind === 'admit' && released.has(`j${s.job}`)) continue;
        else if (s.kind === 'admit')
          cmd = admit(`j${s.job}`, { maxVehicles: s.vehicles, budgetMs: s.budget, units: s.units });
        else if (s.kind === 'start')
          cmd = { type: 'StartNextJob', data: { concurrency: 2 }, metadata: { now: NOW, actor: ACTOR } };
        else {
          const settling = settle(`j${s.job}`, s.outcome, s.computeMs);
          cmd = { ...settling, data: { ...settling.data, budgetMs: 90_000 } };
        }
        let events: LedgerEvent[];
        try {
          events = decideLedger(cmd, state);
        } catch (e) {
          if (e instanceof DomainError && ['insufficient_credits', 'too_many_jobs'].includes(e.code)) continue;
          throw e;
        }
        for (const e of events) {
          if (e.type === 'JobAdmitted') reserved.set(e.data.jobId, e.data.reserved);
          if (e.type === 'JobSettled') {
            if (released.has(e.data.jobId)) throw new Error(`released twice: ${e.data.jobId}`);
            if (e.data.charged > reserved.get(e.data.jobId)!) throw new Error('charge above reservation');
            released.add(e.data.jobId);
            reserved.delete(e.data.jobId);
          }
          state = evolveLedger(state, e);
        }
        if (availableCredits(state, NOW) < 0) throw new Error(`available below zero: ${availableCredits(state, NOW)}`);
        if (state.running > 2) throw new Error('more running than concurrency');
        if (reservedTotal(state) !== [...reserved.values()].reduce((a, b) => a + b, 0))
          throw new Error('reservations drifted');
      }
    }),
    { numRuns: 300 },
  );
});

t.test('402 states the smallest useful run; a balance-limited admission holds only its reduced run', async (t) => {
  const { given } = deciderSpec(t, ledgerDecider);
  const half: LedgerEvent[] = [
    {
      type: 'SubscriptionCreditsGranted',
      data: { amount: 500_000, expiresAt: '2027-01-01T00:00:00.000Z', grantedAt: NOW },
    },
  ];
  // The case: 0.5 credits and a load that needs 8 vehicles: refused, not "8 vehicles and 0 ms".
  const refused = given(half)
    .when(admit('j1', { minVehicles: 8, maxVehicles: 20, budgetMs: 30_000 }))
    .thenThrows('insufficient_credits');
  t.equal(
    refused?.message,
    'available credits (0.5) do not cover the smallest useful run of this job: 8 vehicles and 1000 ms of compute, 0.502 credits; nothing was charged',
  );
  // 0.5 credits, 1 vehicle needed, 20 asked, 3 s budget: 7 vehicles and the full budget; 0.024 credits stay available.
  const thin = given(half)
    .when(admit('j2', { minVehicles: 1, maxVehicles: 20, budgetMs: 3_000 }))
    .then([
      {
        type: 'JobAdmitted',
        id: 'j2:admitted',
        data: { jobId: 'j2', reserved: 100_000 + 7 * 50_000 + 6_000, maxVehicles: 7, budgetMs: 3_000, admittedAt: NOW },
      },
    ]);
  t.equal(
    availableCredits(thin.state, NOW),
    44_000,
    "the reservation is the reduced run's worst case, not the whole balance",
  );
});
