/**
 * Command handling against the event store: read the stream, fold `evolve`, `decide`, append with
 * the expected revision, and on a concurrency conflict reload and retry (DESIGN §3).
 */
import { randomUUID } from 'node:crypto';
import { ConcurrencyError, type EventStore } from '../ports/event-store.js';
import type { Decider, DomainEvent } from './decider.js';

/** Stream of the snapshots of `stream`. */
export const snapshotStream = (stream: string): string => `snapshot-${stream}`;

interface Snapshot<S> {
  version: number;
  revision: number;
  state: S;
}

/**
 * The state of a stream folded from its events, with the revision it was read at (-1: none).
 * With a snapshotting decider it starts from the latest snapshot of a matching version.
 * `snapshotRevision` is the revision the state was restored from (-1: none).
 */
export async function loadState<S, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Pick<Decider<S, unknown, E>, 'initialState' | 'evolve' | 'snapshot'>,
): Promise<{ state: S; revision: number; snapshotRevision: number }> {
  let state = decider.initialState();
  let from = 0;
  if (decider.snapshot) {
    const last = await store.readLastEvent(snapshotStream(stream));
    const snap = last?.data as Snapshot<S> | undefined;
    if (snap && snap.version === decider.snapshot.version) {
      state = structuredClone(snap.state);
      from = snap.revision + 1;
    }
  }
  const events = await store.readStream(stream, from);
  for (const e of events) state = decider.evolve(state, { type: e.type, data: e.data } as E);
  return { state, revision: from - 1 + events.length, snapshotRevision: from - 1 };
}

/** Writes a snapshot when the stream has grown `every` events past the last one. Best effort. */
async function maybeSnapshot<S>(
  store: EventStore,
  stream: string,
  snapshot: { every: number; version: number } | undefined,
  previous: number,
  revision: number,
  state: S,
): Promise<void> {
  if (!snapshot || revision - previous < snapshot.every) return;
  const data: Snapshot<S> = { version: snapshot.version, revision, state };
  // A lost snapshot only costs a longer read next time; the command itself has succeeded.
  await store.append(snapshotStream(stream), [{ id: `${stream}@${revision}`, type: 'Snapshot', data }], 'any').catch(() => undefined);
}

export interface Handled<S, E> {
  /** The events this call wrote: [] when the command caused none or they were stored before (same ids). */
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
    const { state, revision, snapshotRevision } = await loadState(store, stream, decider);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: await store.headPosition() };
    try {
      const result = await store.append(
        stream,
        events.map((e) => ({ id: e.id ?? randomUUID(), type: e.type, data: e.data })),
        revision < 0 ? 'no_stream' : revision,
      );
      if (!result.written) {
        // These events (same ids) were stored by an earlier run of the step: nothing new happened.
        const reloaded = await loadState(store, stream, decider);
        return { events: [], state: reloaded.state, position: result.position };
      }
      const next = events.reduce((s, e) => decider.evolve(s, e), state);
      await maybeSnapshot(store, stream, decider.snapshot, snapshotRevision, result.revision, next);
      return { events, state: next, position: result.position };
    } catch (err) {
      if (!(err instanceof ConcurrencyError) || attempt >= 20) throw err;
    }
  }
}
