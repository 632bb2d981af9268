/**
 * Whether an error says a store could not be reached (DESIGN §2, distributed profile), rather
 * than that a request or the code is wrong: a lost or refused EventStoreDB connection, a MongoDB
 * network or server-selection failure, a busy SQLite file. Such a failure passes; the API answers
 * it with 503 and Retry-After (api/errors.ts) instead of a 500, and the client retries.
 * Recognised by shape, so the domain imports no driver.
 */

/** @eventstore/db-client CommandError types that mean "no answer from the server now". */
const EVENTSTORE_UNAVAILABLE = new Set(['unavailable', 'deadline-exceeded', 'not-leader', 'timeout']);

/** MongoDB driver error names of a network or server-selection failure. */
const MONGO_UNAVAILABLE = new Set(['MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoServerSelectionError', 'MongoServerClosedError', 'MongoPoolClearedError']);

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
