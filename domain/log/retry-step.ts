/**
 * A step of a live-log follower that must not be skipped when a store fails under it (DESIGN §2,
 * distributed profile): the read-store write of a projection batch, a checkpoint read, the head
 * position at start-up, the webhook dispatcher's checkpoint append. The step is run again with a
 * capped, growing backoff until it succeeds or the follower stops; nothing after it runs before it
 * succeeded, so no event is skipped and no checkpoint moves past an unapplied event. Steps must be
 * safe to run again (idempotent appends, transactional or overwriting read-store writes).
 */
import { backoffDelay, pause, withJitter } from './backoff.js';
import {
  RESUBSCRIBE_MAX_DELAY_MS,
  RESUBSCRIBE_MIN_DELAY_MS,
  type ResubscribeBackoff,
} from './resuming-subscription.js';

/** Options of {@link retryStep}. */
export interface RetryStepOptions extends ResubscribeBackoff {
  /** Told of each failure, with the failures in a row so far (1 for the first); the step then runs again. */
  onError?: (err: unknown, failuresInARow: number) => void;
  /** Told once when the step succeeded after one or more failures. */
  onRecovered?: (failures: number) => void;
  /** Aborting ends the waits: the step is not run again and retryStep rejects with {@link StepStopped}. */
  signal?: AbortSignal;
}

/** Rejection of {@link retryStep} when its signal was aborted before the step succeeded. */
export class StepStopped extends Error {
  constructor() {
    super('the follower stopped before the step succeeded');
    this.name = 'StepStopped';
  }
}

/**
 * Runs `step` until it resolves, waiting between failures (default 100 ms doubling to 5 s, each
 * wait jittered down to half).
 * Resolves with its value; rejects with StepStopped once `signal` is aborted (checked before
 * each attempt and after each wait).
 */
export async function retryStep<T>(step: () => Promise<T>, options: RetryStepOptions = {}): Promise<T> {
  const minDelay = Math.max(1, options.minDelayMs ?? RESUBSCRIBE_MIN_DELAY_MS);
  const maxDelay = Math.max(minDelay, options.maxDelayMs ?? RESUBSCRIBE_MAX_DELAY_MS);
  for (let failures = 0; ;) {
    if (options.signal?.aborted) throw new StepStopped();
    try {
      const value = await step();
      if (failures > 0) options.onRecovered?.(failures);
      return value;
    } catch (err) {
      if (options.signal?.aborted) throw new StepStopped();
      failures += 1;
      options.onError?.(err, failures);
      await pause(withJitter(backoffDelay(failures, minDelay, maxDelay)), options.signal);
    }
  }
}
