/**
 * The waits of a live-log follower between attempts after a store failure (DESIGN §2,
 * distributed profile): doubling from a first wait up to a cap, each jittered, and interruptible
 * when the follower stops. Used by domain/log/resuming-subscription.ts, domain/log/retry-step.ts
 * and the scheduler's reactions.
 */

/** The wait before attempt `failures + 1`, ms: `minDelay` doubled per failure, at most `maxDelay`. */
export function backoffDelay(failures: number, minDelay: number, maxDelay: number): number {
  return Math.min(maxDelay, minDelay * 2 ** Math.min(Math.max(0, failures - 1), 30));
}

/**
 * `ms` with "equal jitter": between half of it and all of it, at random. Followers of several
 * processes that failed together (one store outage) then do not come back in lockstep, and a
 * follower does not stay in phase with a failure that recurs at a fixed interval.
 */
export function withJitter(ms: number, random: () => number = Math.random): number {
  return Math.round(ms / 2 + (random() * ms) / 2);
}

/** Resolves after `ms`, or at once when `signal` aborts (or was aborted). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
