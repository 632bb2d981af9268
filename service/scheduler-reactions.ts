/**
 * The scheduler's reactions (DESIGN §4): the process managers react to every stored event, in log
 * order, from a resuming subscription (domain/log/resuming-subscription.ts), so a lost event-store
 * connection neither ends the loop nor escapes as an unhandled rejection. A reaction that fails
 * because a store cannot be reached (domain/ports/store-unavailable.ts) is tried again with backoff
 * for up to REACTION_RETRY_MS (an outage usually passes within it); any other failure, or one that
 * lasts longer, is logged and left to the repair tick (domain/job/repair.ts), which finds what the
 * reaction left undone, so one bad event does not hold back the ones after it.
 */
import { subscriptionOutageLog, type OutageLogger } from '../domain/log/outage-log.js';
import {
  RESUBSCRIBE_MAX_DELAY_MS,
  RESUBSCRIBE_MIN_DELAY_MS,
  resumingSubscription,
  type ResubscribeBackoff,
} from '../domain/log/resuming-subscription.js';
import { backoffDelay, pause, withJitter } from '../domain/log/backoff.js';
import type { EventStore, RecordedEvent } from '../domain/ports/event-store.js';
import { isStoreUnavailable } from '../domain/ports/store-unavailable.js';

/** How long a failing reaction is tried again before the repair tick is left to finish it, ms. */
export const REACTION_RETRY_MS = 30_000;

/** How the reactions name themselves in their outage log lines. */
const FOLLOWER = 'scheduler reactions';

export interface ReactionsOptions {
  store: EventStore;
  /** Log position after which reactions start (exclusive). */
  from: number;
  /** Reacts to one event; called in log order, once per event unless a store cannot be reached. */
  react(event: RecordedEvent): Promise<void>;
  /** The process's (pino) logger. */
  log: OutageLogger & { error(obj: object, msg: string): void };
  /** Backoff of resubscriptions and reaction retries, ms (default 100 ms doubling to 5 s). */
  backoff?: ResubscribeBackoff;
  /** Default REACTION_RETRY_MS. */
  retryForMs?: number;
}

/** Starts reacting to the log after `from`; resolves at once with the stop (which waits for the loop to end). */
export function startReactions(options: ReactionsOptions): () => Promise<void> {
  const { store, log } = options;
  const minDelay = options.backoff?.minDelayMs ?? RESUBSCRIBE_MIN_DELAY_MS;
  const maxDelay = options.backoff?.maxDelayMs ?? RESUBSCRIBE_MAX_DELAY_MS;
  const retryFor = options.retryForMs ?? REACTION_RETRY_MS;
  const stopping = new AbortController();
  const reactions = resumingSubscription(store, options.from, {
    ...options.backoff,
    ...subscriptionOutageLog(log, FOLLOWER),
  });
  const reactOnce = async (event: RecordedEvent): Promise<void> => {
    const started = Date.now();
    for (let failures = 0; !stopping.signal.aborted;) {
      try {
        await options.react(event);
        if (failures > 0)
          log.info({ position: event.position, type: event.type, failures }, 'process manager step succeeded again');
        return;
      } catch (err) {
        failures += 1;
        const giveUp = !isStoreUnavailable(err) || Date.now() - started >= retryFor;
        if (giveUp) {
          log.error(
            { err, position: event.position, type: event.type, failures },
            'process manager step failed; the repair tick finishes it',
          );
          return;
        }
        const delay = withJitter(backoffDelay(failures, minDelay, maxDelay));
        if (failures === 1)
          log.warn(
            { err, position: event.position, type: event.type, retryInMs: delay },
            'process manager step failed; trying it again',
          );
        await pause(delay, stopping.signal);
      }
    }
  };
  const reacting = (async () => {
    for await (const event of reactions) await reactOnce(event);
  })().catch((err: unknown) => log.error({ err }, 'scheduler reactions stopped on an unexpected error'));
  return async () => {
    stopping.abort();
    reactions.close();
    await reacting;
  };
}
