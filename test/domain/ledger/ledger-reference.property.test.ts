/**
 * The ledger of running sums and persistent collections against a straightforward reference:
 * random command sequences (grants, purchases, expiries, admissions with repeats, slots,
 * settlements with random outcomes, time passing) give the same events, refusals, balances, held
 * amounts, queue order and running set as a fold over plain arrays written from the rules
 * (spec "Credits and pricing", "Limits" rule 2), and the balances read model agrees with both.
 */
import t from 'tap';
import fc from 'fast-check';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import { DomainError } from '../../../domain/errors.js';
import { decideLedger, ledgerDecider, type LedgerCommand } from '../../../domain/ledger/decide.js';
import {
  availableCredits,
  decodeLedger,
  encodeLedger,
  evolveLedger,
  heldCredits,
  initialLedger,
  queuedJobIds,
  runningJobIds,
  usableSubscription,
  type LedgerEvent,
  type LedgerState,
} from '../../../domain/ledger/ledger.js';
import { admissionTerms, settlementCharge, total, type JobOutcome } from '../../../domain/ledger/pricing.js';
import { RATE_CARDS, rateCard } from '../../../domain/ledger/rate-card.js';
import type { RecordedEvent } from '../../../domain/ports/event-store.js';
import { BALANCES, balancesProjection, type BalanceDocument } from '../../../projections/balances/projection.js';
import { repairReads } from '../../../projections/jobs/repair-reads.js';

const card = RATE_CARDS[1]!;
const ACTOR = { id: 'usr_prop', name: 'Prop' };
const START = Date.parse('2026-01-01T00:00:00.000Z');
const HOUR = 3_600_000;

/** The reference: the ledger as plain arrays, every question answered by a scan. */
interface Reference {
  subscription: number;
  subscriptionExpiresAt: string | null;
  purchased: number;
  reservations: [string, number][];
  queue: string[];
  running: string[];
}
const refUsable = (r: Reference, now: string): number =>
  r.subscriptionExpiresAt !== null && r.subscriptionExpiresAt <= now ? 0 : r.subscription;
const refReserved = (r: Reference): number => r.reservations.reduce((a, [, m]) => a + m, 0);
const refHeld = (r: Reference, now: string): number => Math.min(refReserved(r), refUsable(r, now) + r.purchased);
const refAvailable = (r: Reference, now: string): number => refUsable(r, now) + r.purchased - refHeld(r, now);
const refHold = (r: Reference, jobId: string): number | undefined => r.reservations.find(([id]) => id === jobId)?.[1];

function refDecide(command: LedgerCommand, r: Reference): LedgerEvent[] {
  const { now } = command.metadata;
  switch (command.type) {
    case 'GrantSubscriptionCredits':
      return [
        {
          type: 'SubscriptionCreditsGranted',
          data: { amount: command.data.amount, expiresAt: command.data.expiresAt, grantedAt: now },
        },
      ];
    case 'ExpireSubscriptionCredits':
      return r.subscription === 0
        ? []
        : [{ type: 'SubscriptionCreditsExpired', data: { amount: r.subscription, expiredAt: now } }];
    case 'PurchaseCredits':
      return [{ type: 'CreditsPurchased', data: { amount: command.data.amount, purchasedAt: now } }];
    case 'AdmitJob': {
      const job = command.data;
      if (refHold(r, job.jobId) !== undefined) return [];
      if (r.queue.length + r.running.length >= job.maxQueuedJobs) throw new DomainError('too_many_jobs', 'limit');
      const terms = admissionTerms(job.card, refAvailable(r, now), job);
      if (!terms) throw new DomainError('insufficient_credits', 'credits');
      return [
        {
          type: 'JobAdmitted',
          id: `${job.jobId}:admitted`,
          data: {
            jobId: job.jobId,
            reserved: terms.reserved,
            maxVehicles: terms.maxVehicles,
            budgetMs: terms.budgetMs,
            admittedAt: now,
          },
        },
      ];
    }
    case 'StartNextJob': {
      const next = r.queue[0];
      if (next === undefined || r.running.length >= command.data.concurrency) return [];
      return [{ type: 'JobStarted', id: `${next}:slot`, data: { jobId: next, startedAt: now } }];
    }
    case 'SettleJob': {
      const { jobId, outcome, rateCardVersion } = command.data;
      const reserved = refHold(r, jobId);
      if (reserved === undefined) return [];
      const breakdown = settlementCharge(rateCard(rateCardVersion), outcome, { ...command.data, reserved });
      const charged = total(breakdown);
      const fromSubscription = Math.min(charged, refUsable(r, now));
      const fromPurchased = Math.min(charged - fromSubscription, r.purchased);
      return [
        {
          type: 'JobSettled',
          id: `${jobId}:settled`,
          data: {
            jobId,
            outcome,
            charged: fromSubscription + fromPurchased,
            breakdown,
            rateCardVersion,
            fromSubscription,
            fromPurchased,
            settledAt: now,
          },
        },
      ];
    }
  }
}

function refEvolve(r: Reference, e: LedgerEvent): Reference {
  switch (e.type) {
    case 'SubscriptionCreditsGranted':
      return { ...r, subscription: e.data.amount, subscriptionExpiresAt: e.data.expiresAt };
    case 'SubscriptionCreditsExpired':
      return { ...r, subscription: 0, subscriptionExpiresAt: e.data.expiredAt };
    case 'CreditsPurchased':
      return { ...r, purchased: r.purchased + e.data.amount };
    case 'JobAdmitted':
      return {
        ...r,
        reservations: [...r.reservations, [e.data.jobId, e.data.reserved]],
        queue: [...r.queue, e.data.jobId],
      };
    case 'JobStarted':
      return { ...r, queue: r.queue.filter((id) => id !== e.data.jobId), running: [...r.running, e.data.jobId] };
    case 'JobSettled':
      return {
        ...r,
        subscription: r.subscription - e.data.fromSubscription,
        purchased: r.purchased - e.data.fromPurchased,
        reservations: r.reservations.filter(([id]) => id !== e.data.jobId),
        queue: r.queue.filter((id) => id !== e.data.jobId),
        running: r.running.filter((id) => id !== e.data.jobId),
      };
  }
}

type Step =
  | { kind: 'grant'; credits: number; hours: number | null }
  | { kind: 'purchase'; credits: number }
  | { kind: 'expire' }
  | { kind: 'admit'; repeat: number | null; units: number; maxVehicles: number; budgetMs: number; limit: number }
  | { kind: 'start'; concurrency: number }
  | { kind: 'settle'; job: number; outcome: JobOutcome; vehicles: number; computeMs: number }
  | { kind: 'wait'; hours: number };

const OUTCOMES: JobOutcome[] = [
  'succeeded',
  'canceled',
  'time_limit_exceeded',
  'engine_failed',
  'queue_timeout',
  'server_restarted',
];
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('grant' as const),
      credits: fc.integer({ min: 0, max: 20_000_000 }),
      hours: fc.option(fc.integer({ min: 0, max: 72 })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('purchase' as const), credits: fc.integer({ min: 1, max: 5_000_000 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'expire' as const }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('admit' as const),
      repeat: fc.option(fc.nat(20), { freq: 5 }),
      units: fc.integer({ min: 1, max: 900 }),
      maxVehicles: fc.integer({ min: 1, max: 5 }),
      budgetMs: fc.integer({ min: 1_000, max: 60_000 }),
      limit: fc.integer({ min: 1, max: 8 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('start' as const), concurrency: fc.integer({ min: 1, max: 3 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      job: fc.nat(30),
      outcome: fc.constantFrom(...OUTCOMES),
      vehicles: fc.integer({ min: 0, max: 5 }),
      computeMs: fc.integer({ min: 0, max: 70_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 0, max: 48 }) }) },
);

t.test(
  'random commands: the same events, refusals, balances, holds, queue and running set as the reference',
  async (t) => {
    const seen = new Map<string, number>();
    const count = (what: string): void => void seen.set(what, (seen.get(what) ?? 0) + 1);
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 20, maxLength: 80 }), async (steps) => {
        let state: LedgerState = initialLedger();
        let ref: Reference = {
          subscription: 0,
          subscriptionExpiresAt: null,
          purchased: 0,
          reservations: [],
          queue: [],
          running: [],
        };
        const reads = new MemoryReadStore();
        let position = 0;
        let clock = START;
        const jobs: string[] = [];
        const written = new Set<string>();
        for (const s of steps) {
          if (s.kind === 'wait') {
            clock += s.hours * HOUR;
            continue;
          }
          const now = new Date((clock += 60_000)).toISOString();
          const metadata = { now, actor: ACTOR };
          let command: LedgerCommand;
          switch (s.kind) {
            case 'grant':
              command = {
                type: 'GrantSubscriptionCredits',
                data: {
                  amount: s.credits,
                  expiresAt: s.hours === null ? null : new Date(clock + s.hours * HOUR).toISOString(),
                },
                metadata,
              };
              break;
            case 'purchase':
              command = { type: 'PurchaseCredits', data: { amount: s.credits }, metadata };
              break;
            case 'expire':
              command = { type: 'ExpireSubscriptionCredits', data: {}, metadata };
              break;
            case 'admit': {
              const jobId = s.repeat !== null && jobs.length > 0 ? jobs[s.repeat % jobs.length]! : `job_${jobs.length}`;
              if (!jobs.includes(jobId)) jobs.push(jobId);
              command = {
                type: 'AdmitJob',
                data: {
                  jobId,
                  card,
                  units: s.units,
                  minVehicles: 1,
                  maxVehicles: s.maxVehicles,
                  budgetMs: s.budgetMs,
                  maxQueuedJobs: s.limit,
                },
                metadata,
              };
              break;
            }
            case 'start':
              command = { type: 'StartNextJob', data: { concurrency: s.concurrency }, metadata };
              break;
            case 'settle':
              command = {
                type: 'SettleJob',
                data: {
                  jobId: jobs.length > 0 ? jobs[s.job % jobs.length]! : 'job_none',
                  outcome: s.outcome,
                  rateCardVersion: 1,
                  vehicles: s.vehicles,
                  computeMs: s.computeMs,
                  units: 10,
                  budgetMs: 30_000,
                },
                metadata,
              };
              break;
          }
          const decided = attempt(() => decideLedger(command, state));
          const expected = attempt(() => refDecide(command, ref));
          if (JSON.stringify(decided) !== JSON.stringify(expected))
            throw new Error(`${command.type}: ${JSON.stringify(decided)}, the reference ${JSON.stringify(expected)}`);
          if ('refused' in decided) {
            count(decided.refused);
            continue;
          }
          for (const e of decided.events) count(e.type === 'JobSettled' ? `settled ${e.data.outcome}` : e.type);
          // The store drops an append whose first event id it holds (a job is admitted once).
          if (decided.events[0]?.id !== undefined && written.has(decided.events[0].id)) continue;
          for (const e of decided.events) {
            if (e.id !== undefined) written.add(e.id);
            state = evolveLedger(state, e);
            ref = refEvolve(ref, e);
            await balancesProjection.apply(recorded(e, ++position), reads);
          }
          compare(state, ref, now);
          const doc = (await reads.collection<BalanceDocument>(BALANCES).get('org_prop')) ?? null;
          if (doc) {
            const figures = (f: Parameters<typeof availableCredits>[0]) => ({
              subscription: usableSubscription(f, now),
              purchased: f.purchased,
              held: heldCredits(f, now),
              available: availableCredits(f, now),
            });
            if (JSON.stringify(figures(doc)) !== JSON.stringify(figures(state)) || doc.queued !== state.queued)
              throw new Error(`read model ${JSON.stringify(doc)} differs from the state`);
          }
        }
        const decoded = decodeLedger(
          JSON.parse(JSON.stringify(encodeLedger(state))) as ReturnType<typeof encodeLedger>,
        );
        compare(decoded, ref, new Date(clock).toISOString());
        const recovery = await repairReads(reads).ledgers();
        const held = ref.reservations.map(([id]) => id);
        const wanted = held.length > 0 ? [{ orgId: 'org_prop', queued: ref.queue.length, heldJobIds: held }] : [];
        if (JSON.stringify(recovery) !== JSON.stringify(wanted))
          throw new Error(`recovery lists ${JSON.stringify(recovery)}, not ${JSON.stringify(wanted)}`);
      }),
      { numRuns: 300 },
    );
    // The runs met every rule: both refusals, every event, charged and free settlements.
    for (const what of [
      'too_many_jobs',
      'insufficient_credits',
      'SubscriptionCreditsGranted',
      'SubscriptionCreditsExpired',
      'CreditsPurchased',
      'JobAdmitted',
      'JobStarted',
      'settled succeeded',
      'settled canceled',
      'settled queue_timeout',
    ])
      t.ok((seen.get(what) ?? 0) > 10, `${what}: ${seen.get(what) ?? 0} times`);
  },
);

/** The events of `decide`, or the refusal's code. */
function attempt(decide: () => LedgerEvent[]): { events: LedgerEvent[] } | { refused: string } {
  try {
    return { events: decide() };
  } catch (err) {
    if (err instanceof DomainError) return { refused: err.code };
    throw err;
  }
}

const byId = (a: readonly [string, number], b: readonly [string, number]): number => (a[0] < b[0] ? -1 : 1);

/** Throws unless `state` and the reference agree on every figure and list. */
function compare(state: LedgerState, ref: Reference, now: string): void {
  const mine = {
    usable: usableSubscription(state, now),
    purchased: state.purchased,
    held: heldCredits(state, now),
    available: availableCredits(state, now),
    expiresAt: state.subscriptionExpiresAt,
    holds: Object.fromEntries([...state.holds].map(([id, h]) => [id, h.reserved] as const).sort(byId)),
    queue: queuedJobIds(state),
    running: runningJobIds(state).sort(),
    queued: state.queued,
    runningCount: state.running,
  };
  const theirs = {
    usable: refUsable(ref, now),
    purchased: ref.purchased,
    held: refHeld(ref, now),
    available: refAvailable(ref, now),
    expiresAt: ref.subscriptionExpiresAt,
    holds: Object.fromEntries([...ref.reservations].sort(byId)),
    queue: ref.queue,
    running: [...ref.running].sort(),
    queued: ref.queue.length,
    runningCount: ref.running.length,
  };
  if (JSON.stringify(mine) !== JSON.stringify(theirs))
    throw new Error(`state ${JSON.stringify(mine)} differs from the reference ${JSON.stringify(theirs)}`);
}

function recorded(e: LedgerEvent, position: number): RecordedEvent {
  return {
    id: e.id ?? `e${position}`,
    type: e.type,
    data: e.data,
    metadata: {},
    stream: 'ledger-org_prop',
    revision: position - 1,
    position,
    recordedAt: '2026-01-01T00:00:00.000Z',
  };
}

t.test('the ledger decider keeps its snapshot policy: every max(100, held jobs) events', async (t) => {
  const every = ledgerDecider.snapshot!.every as (s: LedgerState) => number;
  t.equal(every(initialLedger()), 100);
  let state = initialLedger();
  for (let i = 0; i < 250; i++)
    state = evolveLedger(state, {
      type: 'JobAdmitted',
      data: { jobId: `j${i}`, reserved: 1, maxVehicles: 1, budgetMs: 1, admittedAt: '2026-01-01T00:00:00.000Z' },
    });
  t.equal(every(state), 250);
});
