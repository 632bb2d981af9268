/**
 * The cost of a ledger command does not depend on how many jobs the organization holds: with
 * 10,000 open reservations, deciding and evolving an admission, a slot and a settlement touch the
 * held jobs only by key (never a scan: the collections are wrapped so that any iteration
 * throws), and the balances projection reads and writes a fixed number of documents per event.
 */
import t from 'tap';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import { decideLedger, type LedgerCommand } from '../../../domain/ledger/decide.js';
import {
  evolveLedger,
  initialLedger,
  queuedJobIds,
  type LedgerEvent,
  type LedgerState,
} from '../../../domain/ledger/ledger.js';
import { RATE_CARDS } from '../../../domain/ledger/rate-card.js';
import type { RecordedEvent } from '../../../domain/ports/event-store.js';
import type { ReadStore } from '../../../domain/ports/read-store.js';
import { BALANCES, balancesProjection, type BalanceDocument } from '../../../projections/balances/projection.js';

const NOW = '2026-11-22T10:00:00.000Z';
const metadata = { now: NOW, actor: { id: 'usr_t', name: 'T' } };
const card = RATE_CARDS[1]!;
const HELD = 10_000;

const admit = (jobId: string): LedgerCommand => ({
  type: 'AdmitJob',
  data: { jobId, card, units: 10, minVehicles: 1, maxVehicles: 2, budgetMs: 1_000, maxQueuedJobs: 100_000 },
  metadata,
});
const settle = (jobId: string): LedgerCommand => ({
  type: 'SettleJob',
  data: { jobId, outcome: 'succeeded', rateCardVersion: 1, vehicles: 1, computeMs: 500, units: 10, budgetMs: 1_000 },
  metadata,
});

/** Property names by which a collection would be walked through. */
const SCANS = new Set<string | symbol>([
  Symbol.iterator,
  'forEach',
  'filter',
  'map',
  'reduce',
  'find',
  'findLast',
  'some',
  'every',
  'includes',
  'indexOf',
  'toArray',
  'toObject',
  'toJS',
  'toJSON',
  'values',
  'keys',
  'entries',
  'valueSeq',
  'keySeq',
  'count',
  'sort',
  'last',
]);

/** The collections behind the guards (an evolved state may keep a guarded collection unchanged). */
const unguarded = new WeakMap<object, object>();
const unguard = (state: LedgerState): LedgerState => ({
  ...state,
  holds: (unguarded.get(state.holds) as LedgerState['holds'] | undefined) ?? state.holds,
  waiting: (unguarded.get(state.waiting) as LedgerState['waiting'] | undefined) ?? state.waiting,
});

/** `state` whose holds and waiting list throw on any walk through them, and count their by-key uses. */
function guarded(state: LedgerState, uses: string[]): LedgerState {
  const guard = <T extends object>(name: string, target: T): T => {
    const proxy = new Proxy(target, {
      get(obj, prop, receiver) {
        if (SCANS.has(prop)) throw new Error(`${name}.${String(prop)}: the held jobs were walked through`);
        const value = Reflect.get(obj, prop, receiver) as unknown;
        if (typeof value === 'function' && typeof prop === 'string' && !prop.startsWith('_'))
          uses.push(`${name}.${prop}`);
        return value;
      },
    });
    unguarded.set(proxy, target);
    return proxy;
  };
  return { ...state, holds: guard('holds', state.holds), waiting: guard('waiting', state.waiting) };
}

/** A ledger with funds for all and `held` jobs admitted and waiting; the first holds the one slot. */
function ledgerHolding(held: number): LedgerState {
  let state = evolveLedger(initialLedger(), {
    type: 'SubscriptionCreditsGranted',
    data: { amount: 1e13, expiresAt: null, grantedAt: NOW },
  });
  for (let i = 0; i < held; i++)
    state = evolveLedger(state, {
      type: 'JobAdmitted',
      id: `job_${i}:admitted`,
      data: { jobId: `job_${i}`, reserved: 202_000, maxVehicles: 2, budgetMs: 1_000, admittedAt: NOW },
    });
  return evolveLedger(state, { type: 'JobStarted', data: { jobId: 'job_0', startedAt: NOW } });
}

/** Decides `command` on a guarded copy of `state` and evolves by its events; returns the new state. */
function run(
  state: LedgerState,
  command: LedgerCommand,
  uses: string[],
): { state: LedgerState; events: LedgerEvent[] } {
  const events = decideLedger(command, guarded(state, uses));
  let next = state;
  for (const e of events) next = unguard(evolveLedger(guarded(next, uses), e));
  return { state: next, events };
}

t.test('with 10,000 held jobs, admission, slot and settlement never walk through them', async (t) => {
  const held = ledgerHolding(HELD);
  t.equal(held.queued, HELD - 1);
  t.equal(held.running, 1);

  t.throws(() => queuedJobIds(guarded(held, [])), /walked through/, 'the guard sees a walk through the queue');
  const uses: string[] = [];
  const admitted = run(held, admit('job_new'), uses);
  t.equal(admitted.events[0]?.type, 'JobAdmitted');
  t.equal(admitted.state.queued, HELD);
  t.same(run(admitted.state, admit('job_new'), uses).events, [], 'a repeated admission is found by key');

  const noSlot = run(admitted.state, { type: 'StartNextJob', data: { concurrency: 1 }, metadata }, uses);
  t.same(noSlot.events, [], 'no free slot: decided from the count');
  const slot = run(admitted.state, { type: 'StartNextJob', data: { concurrency: 2 }, metadata }, uses);
  t.same(
    slot.events.map((e) => e.data),
    [{ jobId: 'job_1', startedAt: NOW }],
    'the oldest waiting job',
  );

  // Settling the job that runs, one waiting in the middle of the queue, then the new last one.
  let state = slot.state;
  for (const jobId of ['job_0', 'job_5000', 'job_new']) {
    const settled = run(state, settle(jobId), uses);
    t.equal(settled.events[0]?.type, 'JobSettled', `${jobId} settled`);
    state = settled.state;
  }
  t.equal(state.queued, HELD - 3);
  t.equal(state.running, 1);
  t.equal(state.reserved, (HELD - 2) * 202_000);

  // Only by-key (by-index) operations, a few per command, whatever the number held. Immutable's
  // List.push edits a bounded path through withMutations / asMutable, List.first is get(0).
  const BY_KEY = [
    'holds.get',
    'holds.set',
    'holds.delete',
    'waiting.push',
    'waiting.first',
    'waiting.get',
    'waiting.shift',
    'waiting.withMutations',
    'waiting.asMutable',
  ];
  const kinds = new Set(uses);
  t.same(
    [...kinds].filter((u) => !BY_KEY.includes(u)),
    [],
    `by key only: ${[...kinds].join(', ')}`,
  );
  t.ok(uses.length < 40, `${uses.length} collection operations for 8 commands`);

  // The queue is still right (read in full here, as snapshots and tests do).
  t.same(queuedJobIds(state).slice(0, 3), ['job_2', 'job_3', 'job_4']);
  t.notOk(queuedJobIds(state).includes('job_5000'));
});

t.test('with 10,000 held jobs, the balances projection reads and writes two documents per event', async (t) => {
  const reads = new MemoryReadStore();
  let position = 0;
  const apply = (e: LedgerEvent): Promise<void> =>
    balancesProjection.apply(
      {
        id: e.id ?? String(position + 1),
        type: e.type,
        data: e.data,
        metadata: {},
        stream: 'ledger-org_flat',
        revision: position,
        position: ++position,
        recordedAt: NOW,
      } satisfies RecordedEvent,
      reads,
    );
  await apply({ type: 'SubscriptionCreditsGranted', data: { amount: 1e13, expiresAt: null, grantedAt: NOW } });
  for (let i = 0; i < HELD; i++)
    await apply({
      type: 'JobAdmitted',
      data: { jobId: `job_${i}`, reserved: 202_000, maxVehicles: 2, budgetMs: 1_000, admittedAt: NOW },
    });

  // Count what each later event does to the read store.
  const ops: string[] = [];
  const counting: ReadStore = Object.assign(Object.create(reads) as ReadStore, {
    collection: (name: string) => {
      const c = reads.collection(name);
      return {
        get: (id: string) => (ops.push(`get ${name}`), c.get(id)),
        put: (doc: never) => (ops.push(`put ${name}`), c.put(doc)),
        delete: (id: string) => (ops.push(`delete ${name}`), c.delete(id)),
        find: (q: never) => (ops.push(`find ${name}`), c.find(q)),
        count: (q: never) => (ops.push(`count ${name}`), c.count(q)),
      };
    },
  });
  const applyCounted = (e: LedgerEvent): Promise<void> =>
    balancesProjection.apply(
      {
        id: String(position + 1),
        type: e.type,
        data: e.data,
        metadata: {},
        stream: 'ledger-org_flat',
        revision: position,
        position: ++position,
        recordedAt: NOW,
      },
      counting,
    );
  await applyCounted({
    type: 'JobAdmitted',
    data: { jobId: 'job_new', reserved: 202_000, maxVehicles: 2, budgetMs: 1_000, admittedAt: NOW },
  });
  t.same(ops.sort(), ['get balances', 'get reservations', 'put balances', 'put reservations'], 'an admission');
  ops.length = 0;
  await applyCounted({ type: 'JobStarted', data: { jobId: 'job_new', startedAt: NOW } });
  t.same(ops.sort(), ['get balances', 'get reservations', 'put balances', 'put reservations'], 'a slot');
  ops.length = 0;
  await applyCounted({
    type: 'JobSettled',
    data: {
      jobId: 'job_new',
      outcome: 'succeeded',
      charged: 151_000,
      breakdown: { base: 100_000, vehicles: 50_000, compute: 1_000, large_load: 0 },
      rateCardVersion: 1,
      fromSubscription: 151_000,
      fromPurchased: 0,
      settledAt: NOW,
    },
  });
  t.same(ops.sort(), ['delete reservations', 'get balances', 'get reservations', 'put balances'], 'a settlement');
  const balance = (await reads.collection<BalanceDocument>(BALANCES).get('org_flat'))!;
  t.same(
    {
      reserved: balance.reserved,
      queued: balance.queued,
      running: balance.running,
      subscription: balance.subscription,
    },
    { reserved: HELD * 202_000, queued: HELD, running: 0, subscription: 1e13 - 151_000 },
  );
  t.notOk('ledger' in balance, 'no list of jobs in the balance');
});
