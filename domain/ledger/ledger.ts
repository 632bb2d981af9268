/**
 * The ledger of one organization (DESIGN §3, stream `ledger-<org>`): credits granted and bought,
 * reservations of admitted jobs, compute slots, settlements. It guards: available credits never
 * below zero, queued + running ≤ the limit, running ≤ concurrency, one settlement per job.
 * Amounts in micro-credits; timestamps RFC 3339. A new subscription grant replaces what is left
 * of the previous period's subscription credits (they expire with their period).
 *
 * The state's cost per command does not grow with the jobs held: running sums (funds, reserved,
 * counts of queued and running jobs) answer the admission and the balance, and persistent
 * collections (immutable's Map and List, shared between versions, O(log₃₂ n) per change) answer
 * the per-job questions (the hold a settlement releases, the next job for a slot). States are
 * immutable values: evolve returns a new one and never changes its input (the state cache of
 * domain/decider/handle.ts relies on it).
 */
import { List, Map as PersistentMap } from 'immutable';
import type { DomainEvent } from '../decider/decider.js';
import type { Breakdown, JobOutcome } from './pricing.js';
import type { Micros } from './money.js';

export type LedgerEvent =
  | DomainEvent<'SubscriptionCreditsGranted', { amount: Micros; expiresAt: string | null; grantedAt: string }>
  | DomainEvent<'SubscriptionCreditsExpired', { amount: Micros; expiredAt: string }>
  | DomainEvent<'CreditsPurchased', { amount: Micros; purchasedAt: string }>
  | DomainEvent<
      'JobAdmitted',
      { jobId: string; reserved: Micros; maxVehicles: number; budgetMs: number; admittedAt: string }
    >
  | DomainEvent<'JobStarted', { jobId: string; startedAt: string }>
  | DomainEvent<
      'JobSettled',
      {
        jobId: string;
        outcome: JobOutcome;
        charged: Micros;
        breakdown: Breakdown;
        rateCardVersion: number;
        fromSubscription: Micros;
        fromPurchased: Micros;
        settledAt: string;
      }
    >;

/** The funds figures of a ledger, micro-credits: what the spec's Balance is computed from. */
export interface LedgerFunds {
  subscription: Micros;
  /** RFC 3339 end of the subscription credits, null for none. */
  subscriptionExpiresAt: string | null;
  purchased: Micros;
  /** Sum of the open reservations (admitted, not yet settled). */
  reserved: Micros;
}

/** The running sums of a ledger: its funds and how many open jobs wait for a slot or hold one. */
export interface LedgerFigures extends LedgerFunds {
  /** Admitted jobs without a compute slot (queued, or admitted and never queued). */
  queued: number;
  /** Jobs holding a compute slot. */
  running: number;
}

/** An open reservation: the micro-credits held for the job, and whether it holds a compute slot. */
export interface Hold {
  reserved: Micros;
  running: boolean;
}

export interface LedgerState extends LedgerFigures {
  /** Open reservations by job id (admitted, not yet settled). */
  holds: PersistentMap<string, Hold>;
  /**
   * Admitted jobs waiting for a compute slot, oldest first. Its first entry is always a waiting
   * job; further on it may still name jobs settled while they waited (skipped when they come
   * first, so each entry costs O(1) once): read it through nextQueued / queuedJobIds.
   */
  waiting: List<string>;
}

/** The figures of a ledger with no event yet: no funds, nothing held, no job open. */
export const noFigures = (): LedgerFigures => ({
  subscription: 0,
  subscriptionExpiresAt: null,
  purchased: 0,
  reserved: 0,
  queued: 0,
  running: 0,
});

export const initialLedger = (): LedgerState => ({
  ...noFigures(),
  holds: PersistentMap<string, Hold>(),
  waiting: List<string>(),
});

/** Subscription credits still usable at `now` (0 once expired). */
export function usableSubscription(funds: LedgerFunds, now: string): Micros {
  if (funds.subscriptionExpiresAt !== null && funds.subscriptionExpiresAt <= now) return 0;
  return funds.subscription;
}

/** Sum of open reservations. */
export function reservedTotal(funds: LedgerFunds): Micros {
  return funds.reserved;
}

/**
 * Credits held for open jobs at `now`: the reservations, but never more than the funds that
 * exist. A hold shrinks when the subscription credits backing it expire during a job; the job's
 * charge is then capped at the remaining funds (the rest is written off, never owed).
 */
export function heldCredits(funds: LedgerFunds, now: string): Micros {
  return Math.min(funds.reserved, usableSubscription(funds, now) + funds.purchased);
}

/** Spec Balance: subscription + purchased − reserved, at `now`; never below zero. */
export function availableCredits(funds: LedgerFunds, now: string): Micros {
  return usableSubscription(funds, now) + funds.purchased - heldCredits(funds, now);
}

/** The open hold of job `jobId`, undefined when it is settled or was never admitted. O(log n). */
export function holdOf(state: LedgerState, jobId: string): Hold | undefined {
  return state.holds.get(jobId);
}

/** Whether job `jobId` holds a compute slot. O(log n). */
export function isRunning(state: LedgerState, jobId: string): boolean {
  return state.holds.get(jobId)?.running === true;
}

/** The oldest job waiting for a compute slot, undefined when none waits. O(1). */
export function nextQueued(state: LedgerState): string | undefined {
  return state.waiting.first();
}

/** The jobs waiting for a compute slot, oldest first. O(n): for snapshots, recovery and tests. */
export function queuedJobIds(state: LedgerState): string[] {
  return state.waiting.filter((id) => isWaiting(state.holds, id)).toArray();
}

/** The jobs holding a compute slot (in no particular order). O(n): for snapshots and tests. */
export function runningJobIds(state: LedgerState): string[] {
  const ids: string[] = [];
  for (const [id, hold] of state.holds) if (hold.running) ids.push(id);
  return ids;
}

const isWaiting = (holds: PersistentMap<string, Hold>, jobId: string): boolean => holds.get(jobId)?.running === false;

/** `waiting` without the entries before its first waiting job (each entry is dropped once). */
function dropSettledHead(waiting: List<string>, holds: PersistentMap<string, Hold>): List<string> {
  let list = waiting;
  while (list.size > 0 && !isWaiting(holds, list.first()!)) list = list.shift();
  return list;
}

/**
 * The running sums after `event`, given the job's open hold before it (`hold`, undefined when
 * none): the one rule both the ledger's state and the balances read model
 * (projections/balances) fold with. O(1).
 */
export function evolveFigures(figures: LedgerFigures, event: LedgerEvent, hold: Hold | undefined): LedgerFigures {
  const { subscription, subscriptionExpiresAt, purchased, reserved, queued, running } = figures;
  const same: LedgerFigures = { subscription, subscriptionExpiresAt, purchased, reserved, queued, running };
  switch (event.type) {
    case 'SubscriptionCreditsGranted':
      return { ...same, subscription: event.data.amount, subscriptionExpiresAt: event.data.expiresAt };
    case 'SubscriptionCreditsExpired':
      return { ...same, subscription: 0, subscriptionExpiresAt: event.data.expiredAt };
    case 'CreditsPurchased':
      return { ...same, purchased: purchased + event.data.amount };
    case 'JobAdmitted':
      if (hold) return same; // admitted once: a job id is never admitted twice
      return { ...same, reserved: reserved + event.data.reserved, queued: queued + 1 };
    case 'JobStarted':
      if (!hold || hold.running) return same;
      return { ...same, queued: queued - 1, running: running + 1 };
    case 'JobSettled': {
      const settled = {
        ...same,
        subscription: subscription - event.data.fromSubscription,
        purchased: purchased - event.data.fromPurchased,
      };
      if (!hold) return settled;
      return hold.running
        ? { ...settled, reserved: reserved - hold.reserved, running: running - 1 }
        : { ...settled, reserved: reserved - hold.reserved, queued: queued - 1 };
    }
  }
}

/** The ledger after `event`: O(log n) in the jobs held, amortized (see LedgerState.waiting). */
export function evolveLedger(state: LedgerState, event: LedgerEvent): LedgerState {
  switch (event.type) {
    case 'SubscriptionCreditsGranted':
    case 'SubscriptionCreditsExpired':
    case 'CreditsPurchased':
      return { ...state, ...evolveFigures(state, event, undefined) };
    case 'JobAdmitted': {
      const { jobId, reserved } = event.data;
      const hold = state.holds.get(jobId);
      if (hold) return state;
      return {
        ...evolveFigures(state, event, hold),
        holds: state.holds.set(jobId, { reserved, running: false }),
        waiting: state.waiting.push(jobId),
      };
    }
    case 'JobStarted': {
      const { jobId } = event.data;
      const hold = state.holds.get(jobId);
      if (!hold || hold.running) return state;
      const holds = state.holds.set(jobId, { reserved: hold.reserved, running: true });
      return { ...evolveFigures(state, event, hold), holds, waiting: dropSettledHead(state.waiting, holds) };
    }
    case 'JobSettled': {
      const { jobId } = event.data;
      const hold = state.holds.get(jobId);
      const holds = hold ? state.holds.delete(jobId) : state.holds;
      const waiting = hold && !hold.running ? dropSettledHead(state.waiting, holds) : state.waiting;
      return { ...evolveFigures(state, event, hold), holds, waiting };
    }
  }
}

/**
 * A ledger state as JSON (the snapshot's form, domain/decider/handle.ts): the funds, and the open
 * holds as `[jobId, micro-credits]` pairs, waiting ones oldest first. The sums are recomputed.
 */
export interface LedgerSnapshot {
  subscription: Micros;
  subscriptionExpiresAt: string | null;
  purchased: Micros;
  queued: [string, Micros][];
  running: [string, Micros][];
}

/** The snapshot of `state`. O(n). */
export function encodeLedger(state: LedgerState): LedgerSnapshot {
  return {
    subscription: state.subscription,
    subscriptionExpiresAt: state.subscriptionExpiresAt,
    purchased: state.purchased,
    queued: queuedJobIds(state).map((id) => [id, state.holds.get(id)!.reserved]),
    running: runningJobIds(state).map((id) => [id, state.holds.get(id)!.reserved]),
  };
}

/** The state a snapshot holds (the inverse of encodeLedger). O(n). */
export function decodeLedger(snapshot: LedgerSnapshot): LedgerState {
  let reserved = 0;
  const holds = PersistentMap<string, Hold>().withMutations((m) => {
    for (const [id, micros] of snapshot.running) {
      m.set(id, { reserved: micros, running: true });
      reserved += micros;
    }
    for (const [id, micros] of snapshot.queued) {
      m.set(id, { reserved: micros, running: false });
      reserved += micros;
    }
  });
  return {
    subscription: snapshot.subscription,
    subscriptionExpiresAt: snapshot.subscriptionExpiresAt,
    purchased: snapshot.purchased,
    reserved,
    queued: snapshot.queued.length,
    running: snapshot.running.length,
    holds,
    waiting: List(snapshot.queued.map(([id]) => id)),
  };
}
