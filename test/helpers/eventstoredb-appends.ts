/**
 * An event store whose appends answer as the EventStoreDB adapter's do (adapters/eventstoredb/
 * event-store.ts, "Idempotent appends"), over any store (a SQLite file here: no EventStoreDB server
 * can be installed on the build machines). The adapter first looks for the batch's first event id
 * among the stream's last IDEMPOTENCY_WINDOW events (found: `written: false`), then appends with
 * the expected revision. EventStoreDB answers an append whose event ids were already written at
 * that same expected revision with plain success, so a batch with the same ids that another
 * process stored between the look and the append reports `written: true` to both: the limit the
 * adapter names ("two identical appends racing with the same expected revision both report
 * `written: true`"). With another expected revision the server refuses (WrongExpectedVersion) and
 * the adapter looks again: `written: false`. Every other method passes through.
 */
import {
  ConcurrencyError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
} from '../../domain/ports/event-store.js';
import { storeView } from './store-view.js';

/** The adapter's default `idempotencyWindow`: how many of a stream's last events its look reads. */
export const IDEMPOTENCY_WINDOW = 32;

/** The revision right after `expected`: where a batch appended at `expected` begins. */
function firstRevisionAfter(expected: ExpectedRevision): number | undefined {
  if (expected === 'any') return undefined;
  return expected === 'no_stream' ? 0 : expected + 1;
}

/**
 * `inner` with EventStoreDB's append answers (see the top of this file); a view of its own (its
 * own command queue and state cache in domain/decider/handle.ts, as another process has).
 * `counts.racedWritten` counts the appends answered `written: true` though another stored the batch;
 * `counts.refusedByType` the appends refused by the expected revision (ConcurrencyError), by the
 * type of their first event.
 * `close` leaves `inner` open.
 */
export function withEventStoreDbAppends(
  inner: EventStore,
): EventStore & { counts: { racedWritten: number; refusedByType: Map<string, number> } } {
  const counts = { racedWritten: 0, refusedByType: new Map<string, number>() };
  const append = async (stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> => {
    const first = events[0]!;
    // The adapter's look before it appends (one read of the stream's tail).
    const last = await inner.readLastEvent(stream);
    if (last) {
      const tail = await inner.readStream(stream, Math.max(0, last.revision - IDEMPOTENCY_WINDOW + 1));
      const stored = tail.find((e) => e.id === first.id);
      if (stored) {
        const end = tail.find((e) => e.revision === stored.revision + events.length - 1) ?? stored;
        return { revision: end.revision, position: end.position, written: false };
      }
    }
    let result: AppendResult;
    try {
      result = await inner.append(stream, events, expected);
    } catch (err) {
      if (err instanceof ConcurrencyError)
        counts.refusedByType.set(first.type, (counts.refusedByType.get(first.type) ?? 0) + 1);
      throw err;
    }
    if (result.written) return result;
    // Stored by another between the look and the append: the server's answer depends on where.
    const storedFrom = result.revision - events.length + 1;
    const at = firstRevisionAfter(expected);
    if (at === undefined || at === storedFrom) {
      counts.racedWritten++;
      return { ...result, written: true };
    }
    return result;
  };
  return Object.assign(storeView(inner, append, true), { counts });
}
