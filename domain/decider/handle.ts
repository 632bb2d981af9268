/**
 * Command handling against the event store: read the stream, fold `evolve`, `decide`, append with
 * the expected revision, and on a concurrency conflict reload and retry (DESIGN §3).
 */
import { randomUUID } from 'node:crypto';
import { ConcurrencyError, type EventStore } from '../ports/event-store.js';
import type { Decider, DomainEvent } from './decider.js';

/** The state of a stream folded from its events, with the revision it was read at (-1: none). */
export async function loadState<S, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Pick<Decider<S, unknown, E>, 'initialState' | 'evolve'>,
): Promise<{ state: S; revision: number }> {
  const events = await store.readStream(stream);
  let state = decider.initialState();
  for (const e of events) state = decider.evolve(state, { type: e.type, data: e.data } as E);
  return { state, revision: events.length - 1 };
}

export interface Handled<S, E> {
  events: E[];
  state: S;
  /** Global position of the last written event (or of the state read when nothing was written). */
  position: number;
}

/**
 * Runs `command` on `stream`. Throws what `decide` throws (DomainError); retries up to 20 times on
 * ConcurrencyError. Events carrying an `id` are idempotent: a repeated append is a no-op.
 */
export async function handleCommand<S, C, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<S, C, E>,
  command: C,
): Promise<Handled<S, E>> {
  for (let attempt = 0; ; attempt++) {
    const { state, revision } = await loadState(store, stream, decider);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: await store.headPosition() };
    try {
      const result = await store.append(
        stream,
        events.map((e) => ({ id: e.id ?? randomUUID(), type: e.type, data: e.data })),
        revision < 0 ? 'no_stream' : revision,
      );
      const next = events.reduce((s, e) => decider.evolve(s, e), state);
      return { events, state: next, position: result.position };
    } catch (err) {
      if (!(err instanceof ConcurrencyError) || attempt >= 20) throw err;
    }
  }
}
