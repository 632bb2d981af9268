/**
 * Whether an error says a store could not be reached (DESIGN §2, distributed profile), rather
 * than that a request or the code is wrong: a lost or refused EventStoreDB connection, a MongoDB
 * network or server-selection failure, a busy SQLite file. Such a failure passes; the API answers
 * it with 503 and Retry-After (api/http/errors.ts) instead of a 500, and the client retries.
 * Recognised by shape, so the domain imports no driver.
 *
 * Two questions, two answers: `isStoreUnavailable` says for sure that the way to a store is
 * broken (known driver errors); `isStoreFailure` says an error of a store call is not an answer
 * about the data (not a refusal, a lost race, a bad argument or data no wait mends), so it is to
 * be waited out and counts against the store's health (adapters/health/watched-stores.ts, service/solver-node/store-retry.ts).
 */
import { DomainError } from '../errors.js';
import { ConcurrencyError } from './event-store.js';

/** @eventstore/db-client CommandError types that mean "no answer from the server now". */
const EVENTSTORE_UNAVAILABLE = new Set(['unavailable', 'deadline-exceeded', 'not-leader', 'timeout']);

/** MongoDB driver error names of a network or server-selection failure. */
const MONGO_UNAVAILABLE = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoServerClosedError',
  'MongoPoolClearedError',
]);

/** SQLite result codes of a file held by another writer longer than the busy timeout. */
const SQLITE_UNAVAILABLE = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

/** True when `err` (or an error in its `cause` chain) is a store that could not be reached. */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { type, code } = e as { type?: unknown; code?: unknown };
    if (typeof type === 'string' && EVENTSTORE_UNAVAILABLE.has(type)) return true;
    if (MONGO_UNAVAILABLE.has(e.name)) return true;
    if (typeof code === 'string' && SQLITE_UNAVAILABLE.has(code)) return true;
  }
  return false;
}

/**
 * Names of errors that say something permanent about the data, which no wait mends: an append
 * over the store's size limit (EventTooLargeError, or any `…TooLarge…`) and a stored job body
 * that does not decode (JobBodyCorruptError). Matched by name so this module imports neither.
 */
const PERMANENT_ERROR_NAME = /TooLarge|^JobBodyCorruptError$/;

/**
 * True when an error thrown by a store call is a failure of the store or of the way to it
 * (connection lost, timeout, disk error, any unexpected driver error), to be waited out; false for
 * an answer about the data: a refusal (DomainError), a lost race (ConcurrencyError), a bad argument
 * (RangeError, TypeError: a bug, not an outage) or data no wait mends (PERMANENT_ERROR_NAME).
 */
export function isStoreFailure(err: unknown): boolean {
  if (
    err instanceof DomainError ||
    err instanceof ConcurrencyError ||
    err instanceof RangeError ||
    err instanceof TypeError
  )
    return false;
  return !(err instanceof Error && PERMANENT_ERROR_NAME.test(err.name));
}
