/**
 * The ledger of one organization (DESIGN §3, stream `ledger-<org>`): credits granted and bought,
 * reservations of admitted jobs, compute slots, settlements. It guards: available credits never
 * below zero, queued + running ≤ the limit, running ≤ concurrency, one settlement per job.
 * Amounts in micro-credits; timestamps RFC 3339. A new subscription grant replaces what is left
 * of the previous period's subscription credits (they expire with their period).
 */
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

export interface LedgerState {
  subscription: Micros;
  subscriptionExpiresAt: string | null;
  purchased: Micros;
  /** Open reservations by job id (admitted, not yet settled). */
  reservations: Record<string, Micros>;
  /** Admitted jobs waiting for a compute slot, oldest first. */
  queue: string[];
  /** Jobs holding a compute slot. */
  running: string[];
}

export const initialLedger = (): LedgerState => ({
  subscription: 0,
  subscriptionExpiresAt: null,
  purchased: 0,
  reservations: {},
  queue: [],
  running: [],
});

/** Subscription credits still usable at `now` (0 once expired). */
export function usableSubscription(state: LedgerState, now: string): Micros {
  if (state.subscriptionExpiresAt !== null && state.subscriptionExpiresAt <= now) return 0;
  return state.subscription;
}

/** Sum of open reservations. */
export function reservedTotal(state: LedgerState): Micros {
  return Object.values(state.reservations).reduce((a, b) => a + b, 0);
}

/**
 * Credits held for open jobs at `now`: the reservations, but never more than the funds that
 * exist. A hold shrinks when the subscription credits backing it expire during a job; the job's
 * charge is then capped at the remaining funds (the rest is written off, never owed).
 */
export function heldCredits(state: LedgerState, now: string): Micros {
  return Math.min(reservedTotal(state), usableSubscription(state, now) + state.purchased);
}

/** Spec Balance: subscription + purchased − reserved, at `now`; never below zero. */
export function availableCredits(state: LedgerState, now: string): Micros {
  return usableSubscription(state, now) + state.purchased - heldCredits(state, now);
}

export function evolveLedger(state: LedgerState, event: LedgerEvent): LedgerState {
  switch (event.type) {
    case 'SubscriptionCreditsGranted':
      return { ...state, subscription: event.data.amount, subscriptionExpiresAt: event.data.expiresAt };
    case 'SubscriptionCreditsExpired':
      return { ...state, subscription: 0, subscriptionExpiresAt: event.data.expiredAt };
    case 'CreditsPurchased':
      return { ...state, purchased: state.purchased + event.data.amount };
    case 'JobAdmitted':
      return {
        ...state,
        reservations: { ...state.reservations, [event.data.jobId]: event.data.reserved },
        queue: [...state.queue, event.data.jobId],
      };
    case 'JobStarted':
      return {
        ...state,
        queue: state.queue.filter((id) => id !== event.data.jobId),
        running: [...state.running, event.data.jobId],
      };
    case 'JobSettled': {
      const { [event.data.jobId]: _released, ...reservations } = state.reservations;
      return {
        ...state,
        subscription: state.subscription - event.data.fromSubscription,
        purchased: state.purchased - event.data.fromPurchased,
        reservations,
        queue: state.queue.filter((id) => id !== event.data.jobId),
        running: state.running.filter((id) => id !== event.data.jobId),
      };
    }
  }
}
