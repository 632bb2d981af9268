/**
 * The scheduler's reactions (DESIGN §4): the process managers react to every stored event, in log
 * order, from a resuming subscription (domain/log/resuming-subscription.ts), so a lost event-store
 * connection neither ends the loop nor escapes as an unhandled rejection. A reaction that fails is
 * tried again with backoff for up to REACTION_RETRY_MS (a store outage usually passes within it),
 * then left to the repair tick (domain/job/repair.ts), which finds what it left undone; a
 * DomainError is not tried again (the same event gives the same refusal).
 */
import type { Logger } from 'pino';
import { DomainError } from '../domain/errors.js';
import { subscriptionOutageLog } from '../domain/log/outage-log.js';
import { resumingSubscription, type ResubscribeBackoff } from '../domain/log/resuming-subscription.js';
import { backoffDelay, pause } from '../domain/log/retry-step.js';
import type { EventStore, RecordedEvent } from '../domain/ports/event-store.js';

/** How long a failing reaction is tried again before the repair tick is left to finish it, ms. */
export const REACTION_RETRY_MS = 30_000;

/** How the reactions name themselves in their outage log lines. */
const FOLLOWER = 'scheduler reactions';

export interface ReactionsOptions {
  store: EventStore;
  /** Log position after which reactions start (exclusive). */
  from: number;
  /** Reacts to one event; called in log order, once per event unless it fails. */
  react(event: RecordedEvent): Promise<void>;
  log: Logger;
  /** Backoff of resubscriptions and reaction retries, ms (default 100 ms doubling to 5 s). */
  backoff?: ResubscribeBackoff;
  /** Default REACTION_RETRY_MS. */
  retryForMs?: number;
}

/** Starts reacting to the log after `from`; resolves at once with the stop (which waits for the loop to end). */
export function startReactions(options: ReactionsOptions): () => Promise<void> {
  const { store, log } = options;
  const minDelay = options.backoff?.minDelayMs ?? 100;
  const maxDelay = options.backoff?.maxDelayMs ?? 5000;
  const retryFor = options.retryForMs ?? REACTION_RETRY_MS;
  const stopping = new AbortController();
  const reactions = resumingSubscription(store, options.from, { ...options.backoff, ...subscriptionOutageLog(log, FOLLOWER) });
  const reactOnce = async (event: RecordedEvent): Promise<void> => {
    const started = Date.now();
    for (let failures = 0; !stopping.signal.aborted; ) {
      try {
        await options.react(event);
        if (failures > 0) log.info({ position: event.position, type: event.type, failures }, 'process manager step succeeded again');
        return;
      } catch (err) {
        failures += 1;
        const giveUp = err instanceof DomainError || Date.now() - started >= retryFor;
        if (giveUp) {
          log.error({ err, position: event.position, type: event.type, failures }, 'process manager step failed; the repair tick finishes it');
          return;
        }
        const delay = backoffDelay(failures, minDelay, maxDelay);
        if (failures === 1) log.warn({ err, position: event.position, type: event.type, retryInMs: delay }, 'process manager step failed; trying it again');
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
