/**
 * An EventStore decorator that counts the calls of each port method (store round trips), for
 * tests and benches that measure how many times a request reaches the event store.
 */
import type { EventStore, Subscription, RecordedEvent } from '../../domain/ports/event-store.js';

/** The port methods counted. */
export type StoreCall =
  'append' | 'readStream' | 'readLastEvent' | 'readAll' | 'headPosition' | 'deleteStream' | 'subscribeAll';

/** A counting store: `counts` per method since the last `reset()`, and `total()`. */
export interface CountingStore extends EventStore {
  readonly counts: Record<StoreCall, number>;
  total(): number;
  reset(): void;
}

const zero = (): Record<StoreCall, number> => ({
  append: 0,
  readStream: 0,
  readLastEvent: 0,
  readAll: 0,
  headPosition: 0,
  deleteStream: 0,
  subscribeAll: 0,
});

/**
 * `inner` with every call counted. Subscriptions count once when opened (their polling is the
 * adapter's business, not a request's).
 */
export function countingStore(inner: EventStore): CountingStore {
  let counts = zero();
  return {
    get counts() {
      return counts;
    },
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
    reset: () => {
      counts = zero();
    },
    append: (stream, events, expected) => (counts.append++, inner.append(stream, events, expected)),
    readStream: (stream, from) => (counts.readStream++, inner.readStream(stream, from)),
    readLastEvent: (stream) => (counts.readLastEvent++, inner.readLastEvent(stream)),
    readAll: (after, limit) => (counts.readAll++, inner.readAll(after, limit)),
    headPosition: () => (counts.headPosition++, inner.headPosition()),
    deleteStream: (stream) => (counts.deleteStream++, inner.deleteStream(stream)),
    subscribeAll: (after): Subscription<RecordedEvent> => (counts.subscribeAll++, inner.subscribeAll(after)),
    close: () => inner.close(),
  };
}
