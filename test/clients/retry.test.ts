/**
 * The client's retry arithmetic (clients/typescript/src/retry.ts; spec Errors):
 * Retry-After as seconds or an HTTP date, exponential backoff with jitter and a cap, never sooner
 * than Retry-After.
 */
import t from 'tap';
import {
  DEFAULT_RETRY,
  isRetryableConflict,
  RETRYABLE_STATUSES,
  retryAfterSeconds,
  retryDelayMs,
} from '../../clients/typescript/src/retry.js';

t.test('Retry-After: delta seconds or an HTTP date', async (t) => {
  t.equal(retryAfterSeconds('7'), 7);
  t.equal(retryAfterSeconds('0'), 0);
  t.equal(retryAfterSeconds(null), null);
  t.equal(retryAfterSeconds(''), null);
  t.equal(retryAfterSeconds('soon'), null);
  const now = Date.parse('2026-11-23T12:00:00Z');
  t.equal(retryAfterSeconds('Mon, 23 Nov 2026 12:00:30 GMT', now), 30);
  t.equal(retryAfterSeconds('Mon, 23 Nov 2026 11:59:00 GMT', now), 0, 'a past date: at once');
});

t.test('backoff doubles per retry with jitter between half and full, capped', async (t) => {
  const policy = { maxRetries: 10, baseDelayMs: 500, maxDelayMs: 4000 };
  t.equal(
    retryDelayMs(policy, 0, null, () => 1),
    500,
  );
  t.equal(
    retryDelayMs(policy, 0, null, () => 0),
    250,
  );
  t.equal(
    retryDelayMs(policy, 2, null, () => 1),
    2000,
  );
  t.equal(
    retryDelayMs(policy, 5, null, () => 1),
    4000,
    'capped at maxDelayMs',
  );
  t.equal(
    retryDelayMs(policy, 5, 10, () => 1),
    10_000,
    'a longer Retry-After wins over the cap',
  );
  t.equal(
    retryDelayMs(policy, 3, 1, () => 1),
    4000,
    'a shorter Retry-After does not shorten the backoff',
  );
});

t.test('a 409 is retried only as conflict with Retry-After', async (t) => {
  t.equal(isRetryableConflict(409, 'conflict', 1), true);
  t.equal(
    isRetryableConflict(409, 'conflict', null),
    false,
    'without Retry-After: final (e.g. the owner cannot be removed)',
  );
  t.equal(isRetryableConflict(409, 'project_busy', 1), false);
  t.equal(isRetryableConflict(409, 'job_not_finished', null), false);
  t.equal(isRetryableConflict(429, 'conflict', 1), false, 'not a 409');
});

t.test("the retried statuses are the spec's", async (t) => {
  t.same([...RETRYABLE_STATUSES].sort(), [429, 500, 503]);
  t.equal(DEFAULT_RETRY.maxRetries, 5);
});
