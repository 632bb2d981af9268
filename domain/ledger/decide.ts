/**
 * Ledger commands (spec "Credits and pricing", "Limits" rule 2, States table). Pure: prices,
 * time and ids come in with the command.
 */
import { DomainError, type Command, type Decider } from '../decider/decider.js';
import {
  availableCredits,
  decodeLedger,
  encodeLedger,
  evolveLedger,
  holdOf,
  initialLedger,
  nextQueued,
  usableSubscription,
  type LedgerEvent,
  type LedgerFigures,
  type LedgerSnapshot,
  type LedgerState,
} from './ledger.js';
import {
  admissionTerms,
  settlementCharge,
  smallestUsefulRun,
  total,
  type AdmissionTerms,
  type JobOutcome,
} from './pricing.js';
import { toCredits, type Micros } from './money.js';
import { rateCard, type RateCard } from './rate-card.js';

/** What an admission asks for: the job, the rate card, its size and limits. */
export interface AdmitJobData {
  jobId: string;
  card: RateCard;
  units: number;
  minVehicles: number;
  maxVehicles: number;
  budgetMs: number;
  maxQueuedJobs: number;
}

export type LedgerCommand =
  /** `eventId`: a deterministic id when a retry must not grant twice. */
  | Command<'GrantSubscriptionCredits', { amount: Micros; expiresAt: string | null; eventId?: string }>
  | Command<'ExpireSubscriptionCredits', Record<string, never>>
  | Command<'PurchaseCredits', { amount: Micros; eventId?: string }>
  | Command<'AdmitJob', AdmitJobData>
  | Command<'StartNextJob', { concurrency: number }>
  | Command<
      'SettleJob',
      {
        jobId: string;
        outcome: JobOutcome;
        rateCardVersion: number;
        vehicles: number;
        computeMs: number;
        units: number;
        budgetMs: number;
      }
    >;

/**
 * The 402 message: the available credits and the smallest useful run with its price, so the
 * caller knows what to buy (e.g. "available credits (0.5) do not cover the smallest useful run
 * of this job: 8 vehicles and 1000 ms of compute, 0.502 credits; nothing was charged").
 */
export function insufficientCreditsMessage(
  job: Pick<AdmitJobData, 'card' | 'units' | 'minVehicles' | 'budgetMs'>,
  available: Micros,
): string {
  const run = smallestUsefulRun(job.card, job);
  return (
    `available credits (${toCredits(available)}) do not cover the smallest useful run of this job: ` +
    `${run.vehicles} vehicle${run.vehicles === 1 ? '' : 's'} and ${run.budgetMs} ms of compute, ${toCredits(run.price)} credits; nothing was charged`
  );
}

/**
 * The terms an AdmitJob command would get: the same rule `decide` applies (pricing.ts
 * admissionTerms: the smallest useful run must be covered). Reads only the ledger's running sums
 * (LedgerFigures), so the balances read model answers it as well as the state. Throws
 * DomainError `too_many_jobs` or `insufficient_credits` (its message states the smallest useful
 * run and its price).
 */
export function admission(job: AdmitJobData, state: LedgerFigures, now: string): AdmissionTerms {
  if (state.queued + state.running >= job.maxQueuedJobs) {
    throw new DomainError('too_many_jobs', `at most ${job.maxQueuedJobs} jobs may be queued or running at once`);
  }
  const available = availableCredits(state, now);
  const terms = admissionTerms(job.card, available, job);
  if (!terms) throw new DomainError('insufficient_credits', insufficientCreditsMessage(job, available));
  return terms;
}

export function decideLedger(command: LedgerCommand, state: LedgerState): LedgerEvent[] {
  const { now } = command.metadata;
  switch (command.type) {
    case 'GrantSubscriptionCredits': {
      const { amount, expiresAt, eventId } = command.data;
      return [
        {
          type: 'SubscriptionCreditsGranted',
          data: { amount, expiresAt, grantedAt: now },
          ...(eventId ? { id: eventId } : {}),
        },
      ];
    }
    case 'ExpireSubscriptionCredits':
      if (state.subscription === 0) return [];
      return [{ type: 'SubscriptionCreditsExpired', data: { amount: state.subscription, expiredAt: now } }];
    case 'PurchaseCredits': {
      const { amount, eventId } = command.data;
      if (!Number.isSafeInteger(amount) || amount <= 0) {
        throw new DomainError('validation_failed', 'purchase amount must be a positive number of credits');
      }
      return [{ type: 'CreditsPurchased', data: { amount, purchasedAt: now }, ...(eventId ? { id: eventId } : {}) }];
    }
    case 'AdmitJob': {
      const { jobId } = command.data;
      // Job ids are never reused (newId). A repeated admission of an open job writes nothing; one
      // of a job already settled would repeat the event id `<job>:admitted`, which the event store
      // drops as a duplicate, so it cannot reserve twice either.
      if (holdOf(state, jobId)) return [];
      const terms = admission(command.data, state, now);
      return [
        {
          type: 'JobAdmitted',
          id: `${jobId}:admitted`,
          data: {
            jobId,
            reserved: terms.reserved,
            maxVehicles: terms.maxVehicles,
            budgetMs: terms.budgetMs,
            admittedAt: now,
          },
        },
      ];
    }
    case 'StartNextJob': {
      const next = nextQueued(state);
      if (next === undefined || state.running >= command.data.concurrency) return [];
      return [{ type: 'JobStarted', id: `${next}:slot`, data: { jobId: next, startedAt: now } }];
    }
    case 'SettleJob': {
      const { jobId, outcome, rateCardVersion } = command.data;
      const reserved = holdOf(state, jobId)?.reserved;
      if (reserved === undefined) return []; // settled already (or never admitted): exactly once
      const breakdown = settlementCharge(rateCard(rateCardVersion), outcome, { ...command.data, reserved });
      const charged = total(breakdown);
      const fromSubscription = Math.min(charged, usableSubscription(state, now));
      // Never below zero, even if subscription credits expired while the job ran.
      const fromPurchased = Math.min(charged - fromSubscription, state.purchased);
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

export const ledgerDecider: Decider<LedgerState, LedgerCommand, LedgerEvent> = {
  initialState: initialLedger,
  evolve: evolveLedger,
  decide: decideLedger,
  // An organization's ledger gets about four events per job, forever. A snapshot costs O(held
  // jobs), so one is taken every max(100, held jobs) events: O(1) per event, amortized.
  // Version 2: the state of persistent collections, written as LedgerSnapshot.
  snapshot: {
    every: (state) => Math.max(100, state.holds.size),
    version: 2,
    encode: encodeLedger,
    decode: (data) => decodeLedger(data as LedgerSnapshot),
  },
};
