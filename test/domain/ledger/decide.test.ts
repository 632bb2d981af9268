import t from 'tap';
import fc from 'fast-check';
import { DomainError } from '../../../domain/decider/decider.js';
import { decideLedger, type LedgerCommand } from '../../../domain/ledger/decide.js';
import { availableCredits, evolveLedger, initialLedger, reservedTotal, type LedgerEvent, type LedgerState } from '../../../domain/ledger/ledger.js';
import { RATE_CARDS } from '../../../domain/ledger/rate-card.js';

const card = RATE_CARDS[1]!;
const NOW = '2026-11-22T10:00:00.000Z';

function run(state: LedgerState, ...commands: LedgerCommand[]): { state: LedgerState; events: LedgerEvent[] } {
  const events: LedgerEvent[] = [];
  for (const c of commands) {
    const out = decideLedger(c, state);
    events.push(...out);
    state = out.reduce(evolveLedger, state);
  }
  return { state, events };
}

const admit = (jobId: string, extra: Partial<Extract<LedgerCommand, { type: 'AdmitJob' }>> = {}): LedgerCommand => ({
  type: 'AdmitJob',
  jobId,
  now: NOW,
  card,
  units: 10,
  minVehicles: 1,
  maxVehicles: 2,
  budgetMs: 1_000,
  maxQueuedJobs: 20,
  ...extra,
});
const settle = (jobId: string, outcome: Extract<LedgerCommand, { type: 'SettleJob' }>['outcome'], computeMs = 500): Extract<LedgerCommand, { type: 'SettleJob' }> => ({
  type: 'SettleJob',
  jobId,
  outcome,
  rateCardVersion: 1,
  vehicles: 1,
  computeMs,
  units: 10,
  budgetMs: 1_000,
  now: NOW,
});
const funded = run(initialLedger(), { type: 'GrantSubscriptionCredits', amount: 1_000_000, expiresAt: '2027-01-01T00:00:00.000Z', now: NOW }, { type: 'PurchaseCredits', amount: 500_000, now: NOW }).state;

t.test('admission reserves, settlement charges subscription credits first and releases the reservation', async (t) => {
  const admitted = run(funded, admit('j1'));
  t.equal(admitted.events[0]!.type, 'JobAdmitted');
  t.equal(reservedTotal(admitted.state), 100_000 + 100_000 + 2_000);
  t.equal(availableCredits(admitted.state, NOW), 1_500_000 - 202_000);
  const settled = run(admitted.state, { type: 'StartNextJob', concurrency: 1, now: NOW }, settle('j1', 'succeeded'));
  const ev = settled.events.find((e) => e.type === 'JobSettled')!;
  t.same(ev.data, {
    jobId: 'j1',
    outcome: 'succeeded',
    charged: 151_000,
    breakdown: { base: 100_000, vehicles: 50_000, compute: 1_000, large_load: 0 },
    rateCardVersion: 1,
    fromSubscription: 151_000,
    fromPurchased: 0,
    settledAt: NOW,
  });
  t.equal(reservedTotal(settled.state), 0);
  t.equal(availableCredits(settled.state, NOW), 1_500_000 - 151_000);
});

t.test('a second settlement of the same job is a no-op', async (t) => {
  const once = run(funded, admit('j1'), settle('j1', 'canceled'));
  const twice = run(once.state, settle('j1', 'succeeded'));
  t.same(twice.events, []);
  t.same(twice.state, once.state);
});

t.test('402 when the smallest run is not covered; 429 at the queued + running limit', async (t) => {
  t.throws(() => run(initialLedger(), admit('j1')), new DomainError('insufficient_credits', ''));
  const err = (() => {
    try {
      run(funded, admit('a', { maxQueuedJobs: 2 }), admit('b', { maxQueuedJobs: 2 }), admit('c', { maxQueuedJobs: 2 }));
    } catch (e) {
      return e as DomainError;
    }
    return null;
  })();
  t.equal(err?.code, 'too_many_jobs');
});

t.test('compute slots: running ≤ concurrency, oldest queued job first', async (t) => {
  const s = run(funded, admit('a'), admit('b'), { type: 'StartNextJob', concurrency: 1, now: NOW }, { type: 'StartNextJob', concurrency: 1, now: NOW });
  t.same(s.state.running, ['a']);
  t.same(s.state.queue, ['b']);
  const next = run(s.state, settle('a', 'succeeded'), { type: 'StartNextJob', concurrency: 1, now: NOW });
  t.same(next.state.running, ['b']);
});

t.test('expired subscription credits are not available; purchased credits never expire', async (t) => {
  t.equal(availableCredits(funded, '2027-01-01T00:00:00.000Z'), 500_000);
});

t.test('property: never below zero available, each reservation released once, charge ≤ reservation', async () => {
  const outcomes = ['succeeded', 'canceled', 'time_limit_exceeded', 'engine_failed', 'queue_timeout', 'server_restarted'] as const;
  const step = fc.oneof(
    fc.record({ kind: fc.constant('buy' as const), amount: fc.integer({ min: 1, max: 2_000_000 }) }),
    fc.record({ kind: fc.constant('admit' as const), job: fc.integer({ min: 0, max: 9 }), vehicles: fc.integer({ min: 1, max: 20 }), budget: fc.integer({ min: 0, max: 90_000 }), units: fc.integer({ min: 1, max: 2000 }) }),
    fc.record({ kind: fc.constant('start' as const) }),
    fc.record({ kind: fc.constant('settle' as const), job: fc.integer({ min: 0, max: 9 }), outcome: fc.constantFrom(...outcomes), computeMs: fc.integer({ min: 0, max: 100_000 }) }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
      let state = initialLedger();
      const reserved = new Map<string, number>();
      const released = new Set<string>();
      for (const s of steps) {
        let cmd: LedgerCommand;
        if (s.kind === 'buy') cmd = { type: 'PurchaseCredits', amount: s.amount, now: NOW };
        // Job ids are never reused (newId): a settled job is not admitted again.
        else if (s.kind === 'admit' && released.has(`j${s.job}`)) continue;
        else if (s.kind === 'admit') cmd = admit(`j${s.job}`, { maxVehicles: s.vehicles, budgetMs: s.budget, units: s.units });
        else if (s.kind === 'start') cmd = { type: 'StartNextJob', concurrency: 2, now: NOW };
        else cmd = { ...settle(`j${s.job}`, s.outcome, s.computeMs), budgetMs: 90_000 };
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
        if (state.running.length > 2) throw new Error('more running than concurrency');
        if (reservedTotal(state) !== [...reserved.values()].reduce((a, b) => a + b, 0)) throw new Error('reservations drifted');
      }
    }),
    { numRuns: 300 },
  );
});
