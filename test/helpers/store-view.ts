/**
 * Views of an event store for tests (fault injection around the port, DESIGN §2): the store with
 * its `append` replaced and every other method passed through. A view is a different object, so
 * domain/decider/handle.ts keeps a command queue and a state cache of its own for it, as another
 * process would.
 */
import type { EventStore } from '../../domain/ports/event-store.js';

/**
 * `inner` with `append` in place of its own. `close` closes `inner` unless `shared` is set (the
 * test closes the store its views share).
 */
export function storeView(
  inner: EventStore,
  append: EventStore['append'] = (stream, events, expected) => inner.append(stream, events, expected),
  shared = false,
): EventStore {
  return {
    append,
    readStream: (stream, fromRevision) => inner.readStream(stream, fromRevision),
    readLastEvent: (stream) => inner.readLastEvent(stream),
    readAll: (after, limit) => inner.readAll(after, limit),
    headPosition: () => inner.headPosition(),
    deleteStream: (stream) => inner.deleteStream(stream),
    subscribeAll: (after) => inner.subscribeAll(after),
    close: shared ? async () => undefined : () => inner.close(),
  };
}
