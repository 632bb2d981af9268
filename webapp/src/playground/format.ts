/**
 * How the playground and jobs pages write figures: credits with up to 4 decimals, shares as
 * percentages, durations in s, times in the browser's locale.
 */

/** "1.2345 credits" (1 credit = 1 USD; spec Credits and pricing): display/credits.ts. */
export { creditsText as credits } from '../../../display/credits.js';

/** A 0–1 share as "73.4 %". */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

/** Milliseconds as "1.25 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** An RFC 3339 time in the browser's locale, or "—" for null. */
export function when(time: string | null | undefined): string {
  return time ? new Date(time).toLocaleString() : '—';
}
