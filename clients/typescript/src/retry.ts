/**
 * The spec's retry rules (spec Errors): 429, 500 and 503 are retried with exponential backoff,
 * waiting at least what Retry-After says; among them `503 idempotency_key_pending`, the answer
 * while an earlier request with the same Idempotency-Key is still creating its job (the retry then
 * gets that job). One 409 is retried too: `conflict` with Retry-After, what services before
 * `idempotency_key_pending` answered in that case. Every other status is final.
 * A connection failure is retried only for calls that are safe to repeat (reads, deletes and
 * calls carrying an Idempotency-Key).
 */

/** How a client retries. Times in ms. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 5; 0 = never retry). */
  maxRetries: number;
  /** Backoff of the first retry (default 500 ms); doubled per retry. */
  baseDelayMs: number;
  /** Longest backoff (default 30 s); a longer Retry-After is still honoured. */
  maxDelayMs: number;
}

/** Default policy: 5 retries, 0.5 s doubling up to 30 s. */
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Statuses the spec says to retry. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 503]);

/**
 * True for the retryable 409: `status` 409 with error code `conflict` and a Retry-After header
 * (an Idempotency-Key whose first request is still creating its job). Other 409s are final.
 */
export function isRetryableConflict(status: number, code: string | undefined, retryAfter: number | null): boolean {
  return status === 409 && code === 'conflict' && retryAfter !== null;
}

/**
 * Seconds of a Retry-After header (delta-seconds or an HTTP date, relative to `nowMs`), or null
 * when absent or unreadable.
 */
export function retryAfterSeconds(header: string | null, nowMs = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, (date - nowMs) / 1000);
}

/**
 * Wait before retry number `retry` (0-based) in ms: the exponential backoff
 * `baseDelayMs · 2^retry` (capped at maxDelayMs) with jitter from `random` (half to full), and
 * never less than Retry-After.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  retryAfter: number | null,
  random: () => number = Math.random,
): number {
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const jittered = backoff * (0.5 + random() / 2);
  return Math.max(jittered, (retryAfter ?? 0) * 1000);
}
