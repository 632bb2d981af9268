/**
 * Rate cards (spec "Credits and pricing"): versioned price lists. A job records the version it
 * was priced with; a new version never re-prices old jobs. Amounts in micro-credits.
 */
import type { Micros } from './money.js';

export interface RateCard {
  version: number;
  /** Per-job fee. */
  base: Micros;
  /** Per loaded vehicle. */
  perVehicle: Micros;
  /** Per compute-second, charged pro rata per millisecond (rounded down per job). */
  perComputeSecond: Micros;
  /** Item units included before the large-load surcharge starts. */
  largeLoadThreshold: number;
  /** Per started 100 item units above the threshold. */
  perLargeLoadBlock: Micros;
}

/** Every rate card ever published, by version. Never edit a published card: add a version. */
export const RATE_CARDS: Readonly<Record<number, RateCard>> = {
  1: {
    version: 1,
    base: 100_000, // 0.10 credits
    perVehicle: 50_000, // 0.05 credits
    perComputeSecond: 2_000, // 0.002 credits
    largeLoadThreshold: 500,
    perLargeLoadBlock: 100_000, // 0.10 credits per started 100 units above 500
  },
};

/** The card new jobs are priced with. */
export const CURRENT_RATE_CARD: RateCard = RATE_CARDS[1]!;

/** The card of `version`. Throws RangeError for an unknown version. */
export function rateCard(version: number): RateCard {
  const card = RATE_CARDS[version];
  if (!card) throw new RangeError(`unknown rate card version ${version}`);
  return card;
}
