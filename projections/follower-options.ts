/**
 * What a follower of the live log (ProjectionRunner, CheckpointFollower) is given to ride out a
 * store outage (DESIGN §2, distributed profile): where it logs failures and recoveries, and the
 * backoff of its resubscriptions and retried steps.
 */
import type { OutageLogger } from '../domain/log/outage-log.js';
import type { ResubscribeBackoff } from '../domain/log/resuming-subscription.js';

export interface FollowerOptions {
  /** Logger of the failure and recovery lines (domain/log/outage-log.ts); default: none. */
  log?: OutageLogger;
  /** Backoff of resubscriptions and retried steps, ms (default 100 ms doubling to 5 s). */
  backoff?: ResubscribeBackoff;
}
