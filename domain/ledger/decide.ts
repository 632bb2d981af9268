/**
 * Ledger commands (spec "Credits and pricing", "Limits" rule 2, States table). Pure: prices,
 * time and ids come in with the command.
 */
import { DomainError, type Decider } from '../decider/decider.js';
import {
  availableCredits,
  evolveLedger,
  initialLedger,
  usableSubscription,
  type LedgerEvent,
  type LedgerState,
} from './ledger.js';
import { admissionTerms, settlementCharge, total, type AdmissionTerms, type JobOutcome } from './pricing.js';
import type { Micros } from './money.js';
import { rateCard, type RateCard } from './rate-card.js';

export type LedgerCommand =
  | { type: 'GrantSubscriptionCredits'; amount: Micros; expiresAt: string | null; now: string; eventId?: string }
  | { type: 'ExpireSubscriptionCredits'; now: string }
  | { type: 'PurchaseCredits'; amount: Micros; now: string; eventId?: string }
  | {
      type: 'AdmitJob';
      jobId: string;
      now: string;
      card: RateCard;
      units: number;
      minVehicles: number;
      maxVehicles: number;
      budgetMs: number;
      maxQueuedJobs: number;
    }
  | { type: 'StartNextJob'; concurrency: number; now: string }
  | {
      type: 'SettleJob';
      jobId: string;
      outcome: JobOutcome;
      rateCardVersion: number;
      vehicles: number;
      computeMs: number;
      units: number;
      budgetMs: number;
      now: string;
    };

/**
 * The terms an AdmitJob command would get: the same rule `decide` applies. Throws DomainError
 * 429 `too_many_jobs` or 402 `insufficient_credits`.
 */
export function admission(command: Extract<LedgerCommand, { type: 'AdmitJob' }>, state: LedgerState): AdmissionTerms {
  if (state.queue.length + state.running.length >= command.maxQueuedJobs) {
    throw new DomainError('too_many_jobs', `at most ${command.maxQueuedJobs} jobs may be queued or running at once`);
  }
  const terms = admissionTerms(command.card, availableCredits(state, command.now), command);
  if (!terms) {
    throw new DomainError('insufficient_credits', 'available credits do not cover the smallest possible run; nothing was charged');
  }
  return terms;
}

export function decideLedger(command: LedgerCommand, state: LedgerState): LedgerEvent[] {
  switch (command.type) {
    case 'GrantSubscriptionCredits':
      return [
        {
          type: 'SubscriptionCreditsGranted',
          data: { amount: command.amount, expiresAt: command.expiresAt, grantedAt: command.now },
          ...(command.eventId ? { id: command.eventId } : {}),
        },
      ];
    case 'ExpireSubscriptionCredits':
      if (state.subscription === 0) return [];
      return [{ type: 'SubscriptionCreditsExpired', data: { amount: state.subscription, expiredAt: command.now } }];
    case 'PurchaseCredits':
      if (!Number.isSafeInteger(command.amount) || command.amount <= 0) {
        throw new DomainError('validation_failed', 'purchase amount must be a positive number of credits');
      }
      return [
        {
          type: 'CreditsPurchased',
          data: { amount: command.amount, purchasedAt: command.now },
          ...(command.eventId ? { id: command.eventId } : {}),
        },
      ];
    case 'AdmitJob': {
      // Job ids are never reused (newId). A repeated admission of an open job writes nothing; one
      // of a job already settled would repeat the event id `<job>:admitted`, which the event store
      // drops as a duplicate, so it cannot reserve twice either.
      if (command.jobId in state.reservations) return [];
      const terms = admission(command, state);
      return [
        {
          type: 'JobAdmitted',
          id: `${command.jobId}:admitted`,
          data: { jobId: command.jobId, reserved: terms.reserved, maxVehicles: terms.maxVehicles, budgetMs: terms.budgetMs, admittedAt: command.now },
        },
      ];
    }
    case 'StartNextJob': {
      const next = state.queue[0];
      if (next === undefined || state.running.length >= command.concurrency) return [];
      return [{ type: 'JobStarted', id: `${next}:slot`, data: { jobId: next, startedAt: command.now } }];
    }
    case 'SettleJob': {
      const reserved = state.reservations[command.jobId];
      if (reserved === undefined) return []; // settled already (or never admitted): exactly once
      const breakdown = settlementCharge(rateCard(command.rateCardVersion), command.outcome, { ...command, reserved });
      const charged = total(breakdown);
      const fromSubscription = Math.min(charged, usableSubscription(state, command.now));
      // Never below zero, even if subscription credits expired while the job ran.
      const fromPurchased = Math.min(charged - fromSubscription, state.purchased);
      return [
        {
          type: 'JobSettled',
          id: `${command.jobId}:settled`,
          data: {
            jobId: command.jobId,
            outcome: command.outcome,
            charged: fromSubscription + fromPurchased,
            breakdown,
            rateCardVersion: command.rateCardVersion,
            fromSubscription,
            fromPurchased,
            settledAt: command.now,
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
  // An organization's ledger gets about four events per job, forever.
  snapshot: { every: 100, version: 1 },
};
