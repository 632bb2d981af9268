/**
 * When a failed webhook delivery is tried again: exponential backoff
 * `baseMs · 2^(attempt−1)`, each wait at most `maxDelayMs`, until `windowMs` after the delivery
 * was scheduled; then it is given up. Defaults (base 30 s, waits up to 6 h, window 3 days) give
 * 21 attempts, the last about 68 h after the first. Times in ms.
 */

export interface RetryPolicy {
  /** Wait after the first failed attempt, ms (WEBHOOK_RETRY_BASE_MS; default 30,000). */
  baseMs: number;
  /** Longest wait between two attempts, ms. */
  maxDelayMs: number;
  /** No attempt is scheduled later than this after the delivery was scheduled, ms. */
  windowMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseMs: 30_000,
  maxDelayMs: 6 * 3_600_000,
  windowMs: 3 * 86_400_000,
};

/**
 * RFC 3339 time of the attempt after failed attempt number `attempt` (1-based) made at `now`, or
 * null when it would fall outside the window that began at `scheduledAt` (the delivery is given up).
 */
export function nextAttemptAt(policy: RetryPolicy, scheduledAt: string, attempt: number, now: string): string | null {
  const delay = Math.min(policy.baseMs * 2 ** (attempt - 1), policy.maxDelayMs);
  const next = Date.parse(now) + delay;
  return next > Date.parse(scheduledAt) + policy.windowMs ? null : new Date(next).toISOString();
}
