/**
 * The log lines of a live-log follower riding out a store outage (DESIGN §2, distributed
 * profile): one structured line per failure — the first of a run with the error itself (stack
 * included), the later ones with its message only — and one line when it works again, with how
 * many failures and how long it took. Feeds {@link resumingSubscription} and {@link retryStep}.
 */
import type { ResumingSubscriptionOptions } from './resuming-subscription.js';
import type { RetryStepOptions } from './retry-step.js';

/** The part of a (pino) logger the outage lines need. */
export interface OutageLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** The message of `err` for the lines after the first of a run. */
function messageOf(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/**
 * Callbacks of a resuming subscription that log its failures and recovery on `log`, naming the
 * `follower` (e.g. "projection runner", "scheduler reactions").
 */
export function subscriptionOutageLog(
  log: OutageLogger,
  follower: string,
): Pick<ResumingSubscriptionOptions, 'onError' | 'onRecovered'> {
  let since = 0;
  return {
    onError(err, resumeAfter, failuresInARow) {
      if (failuresInARow === 1) {
        since = Date.now();
        log.warn(
          { follower, err, resumeAfter, failuresInARow },
          'event log subscription failed; subscribing again from the last event',
        );
      } else
        log.warn(
          { follower, error: messageOf(err), resumeAfter, failuresInARow },
          'event log subscription failed again; subscribing again from the last event',
        );
    },
    onRecovered(position, failures) {
      log.info({ follower, position, failures, outageMs: Date.now() - since }, 'event log subscription delivers again');
    },
  };
}

/**
 * Callbacks of a retried step that log its failures and recovery on `log`, naming the `follower`
 * and its `step` (e.g. "apply batch", "read checkpoints").
 */
export function stepOutageLog(
  log: OutageLogger,
  follower: string,
  step: string,
): Pick<RetryStepOptions, 'onError' | 'onRecovered'> {
  let since = 0;
  return {
    onError(err, failuresInARow) {
      if (failuresInARow === 1) {
        since = Date.now();
        log.warn({ follower, step, err, failuresInARow }, 'follower step failed; trying it again');
      } else
        log.warn(
          { follower, step, error: messageOf(err), failuresInARow },
          'follower step failed again; trying it again',
        );
    },
    onRecovered(failures) {
      log.info({ follower, step, failures, outageMs: Date.now() - since }, 'follower step succeeded again');
    },
  };
}

/** A logger that writes nothing (followers built without one: tools, tests). */
export const SILENT_OUTAGE_LOG: OutageLogger = { warn: () => undefined, info: () => undefined };
