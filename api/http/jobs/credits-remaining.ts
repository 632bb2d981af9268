/**
 * The value of the `X-Credits-Remaining` header (spec Endpoints): available credits as a decimal
 * number of credits, without trailing zeros (e.g. `12.5`, `0`).
 */
import { availableCredits, type LedgerFunds } from '../../../domain/ledger/ledger.js';
import { toCredits, type Micros } from '../../../domain/ledger/money.js';

/** `micros` available micro-credits as the header writes them. */
export function creditsRemainingValue(micros: Micros): string {
  return toCredits(micros)
    .toFixed(6)
    .replace(/\.?0+$/, '');
}

/** The header's value for a ledger's funds figures (domain/ledger/ledger.ts LedgerFunds) at `now` (RFC 3339). */
export function creditsRemainingOf(funds: LedgerFunds, now: string): string {
  return creditsRemainingValue(availableCredits(funds, now));
}
