/**
 * Money is held as integer micro-credits (1 credit = 1 USD = 1,000,000 µcr), never as floating
 * point (issue: no floating-point money). Credits appear as decimal numbers only on the wire.
 * Rounding: every computed price component is rounded down to a whole micro-credit.
 */

/** Integer number of micro-credits. */
export type Micros = number;

export const MICROS_PER_CREDIT = 1_000_000;

/** Micro-credits → credits for the wire (exact to 6 decimals). */
export function toCredits(micros: Micros): number {
  return Number((micros / MICROS_PER_CREDIT).toFixed(6));
}

/** Credits (up to 6 decimals) → micro-credits. Throws RangeError on a non-finite or unsafe amount. */
export function fromCredits(credits: number): Micros {
  const micros = Math.round(credits * MICROS_PER_CREDIT);
  if (!Number.isSafeInteger(micros)) throw new RangeError(`amount out of range: ${credits}`);
  return micros;
}
