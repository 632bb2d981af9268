/**
 * A follower of the global log that outlives the store's faults (DESIGN §2, distributed profile):
 * it iterates `store.subscribeAll(after)`, and when that subscription fails (a lost EventStoreDB
 * connection, a read that throws) it reports the error once per failure, waits with a capped,
 * growing backoff, and subscribes again from the last event it handed out. Every consumer of the
 * live log (projection runner, checkpoint follower, scheduler reactions, webhook dispatcher) reads
 * through it, so no adapter's error ends a loop or escapes as an unhandled rejection.
 */
import type { EventStore, RecordedEvent, Subscription } from '../ports/event-store.js';
import { backoffDelay, withJitter } from './backoff.js';

/**
 * Backoff of the resubscription after a failure, ms: doubles from `minDelayMs` up to `maxDelayMs`;
 * each wait is jittered down to half (domain/log/backoff.ts).
 */
export interface ResubscribeBackoff {
  /** First wait after a failure, ms. Default 100. */
  minDelayMs?: number;
  /** Longest wait between two attempts, ms. Default 5,000. */
  maxDelayMs?: number;
}

/** Options of {@link resumingSubscription}. */
export interface ResumingSubscriptionOptions extends ResubscribeBackoff {
  /**
   * Told of each failure of the underlying subscription, with the position it resumes after and
   * the failures in a row so far (1 for the first); the subscription then resubscribes. A
   * subscription that stayed up at least as long as the wait before it counts as recovered: its
   * failure is the first of a new run (and waits `minDelayMs` again).
   */
  onError?: (err: unknown, resumeAfter: number, failuresInARow: number) => void;
  /**
   * Told once when events flow again after one or more failures, or when a subscription that
   * stayed up as long as the wait before it fails without having delivered an event (the run of
   * failures before it was over).
   */
  onRecovered?: (position: number, failures: number) => void;
}

/** Default first wait after a failure, ms. */
export const RESUBSCRIBE_MIN_DELAY_MS = 100;
/** Default longest wait between resubscriptions, ms. */
export const RESUBSCRIBE_MAX_DELAY_MS = 5000;

/**
 * Every event after `after` (exclusive), then each new one, in log order and each once, across
 * failures of the store: on an error the subscription is opened again from the last event
 * delivered. Ends only when closed (or when the store's own subscription ends without an error,
 * which adapters do when the store closes).
 */
export function resumingSubscription(
  store: EventStore,
  after: number,
  options: ResumingSubscriptionOptions = {},
): Subscription<RecordedEvent> {
  const minDelay = Math.max(1, options.minDelayMs ?? RESUBSCRIBE_MIN_DELAY_MS);
  const maxDelay = Math.max(minDelay, options.maxDelayMs ?? RESUBSCRIBE_MAX_DELAY_MS);
  let stopped = false;
  let inner: Subscription<RecordedEvent> | undefined;
  let wakeBackoff: (() => void) | undefined;
  const close = (): void => {
    if (stopped) return;
    stopped = true;
    inner?.close();
    wakeBackoff?.();
  };
  async function* iterate(): AsyncGenerator<RecordedEvent> {
    let position = after;
    let failures = 0;
    let waited = 0;
    try {
      while (!stopped) {
        inner = store.subscribeAll(position);
        const subscribedAt = Date.now();
        try {
          for await (const event of inner) {
            if (stopped) return;
            if (event.position <= position) continue;
            if (failures > 0) {
              options.onRecovered?.(event.position, failures);
              failures = 0;
            }
            position = event.position;
            yield event;
          }
          return; // ended without an error: closed, or the store closed
        } catch (err) {
          if (stopped) return;
          if (failures > 0 && Date.now() - subscribedAt >= waited) {
            // Up as long as it waited, with no event to show it: the earlier outage was over, and a
            // new one must not start at the longest wait (nor stay in phase with a recurring one).
            options.onRecovered?.(position, failures);
            failures = 0;
          }
          failures += 1;
          options.onError?.(err, position, failures);
          const delay = withJitter(backoffDelay(failures, minDelay, maxDelay));
          waited = delay;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, delay);
            wakeBackoff = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wakeBackoff = undefined;
        }
      }
    } finally {
      inner?.close();
    }
  }
  const iterator = iterate();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close,
    poll: () => inner?.poll?.(),
  };
}
