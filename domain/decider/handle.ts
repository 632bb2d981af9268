/**
 * Command handling against the event store: read the stream, fold `evolve`, `decide`, append with
 * the expected revision, and on a concurrency conflict reload and retry (DESIGN §3).
 */
import { randomUUID } from 'node:crypto';
import { ConcurrencyError, type EventStore } from '../ports/event-store.js';
import type { Decider, DomainEvent, SnapshotPolicy } from './decider.js';

/** Stream of the snapshots of `stream`. */
export const snapshotStream = (stream: string): string => `snapshot-${stream}`;

/** A snapshot event's data: the state at `revision`, as the policy's `encode` wrote it. */
interface Snapshot {
  version: number;
  revision: number;
  state: unknown;
}

/** Streams whose folded state this process keeps (least recently used beyond it are dropped). */
export const STATE_CACHE_STREAMS = 10_000;

interface CachedState {
  decider: object;
  state: unknown;
  revision: number;
  snapshotRevision: number;
}

/**
 * Folded states by store and stream: a command on a stream this process handled before reads only
 * the events appended since (by any process), not the stream since its last snapshot. Sound
 * because states are immutable values (evolve and decide return new objects and never change
 * their input) and every append still names the revision it decided on, so a stale entry can
 * only cost a ConcurrencyError and a re-read, never a wrong decision.
 */
const stateCache = new WeakMap<EventStore, Map<string, CachedState>>();

function remember(store: EventStore, stream: string, entry: CachedState): void {
  let streams = stateCache.get(store);
  if (!streams) stateCache.set(store, (streams = new Map<string, CachedState>()));
  streams.delete(stream);
  streams.set(stream, entry);
  if (streams.size > STATE_CACHE_STREAMS) streams.delete(streams.keys().next().value as string);
}

/**
 * The state of a stream folded from its events, with the revision it was read at (-1: none).
 * Starts from this process's cached state of the stream when there is one (see stateCache), else,
 * with a snapshotting decider, from the latest snapshot of a matching version.
 * `snapshotRevision` is the revision of the latest snapshot written or tried (-1: none).
 */
export async function loadState<S, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Pick<Decider<S, unknown, E>, 'initialState' | 'evolve' | 'snapshot'>,
): Promise<{ state: S; revision: number; snapshotRevision: number }> {
  const cached = stateCache.get(store)?.get(stream);
  if (cached && cached.decider === decider) {
    const newer = await store.readStream(stream, cached.revision + 1);
    let state = cached.state as S;
    for (const e of newer) state = decider.evolve(state, { type: e.type, data: e.data } as E);
    const loaded = { state, revision: cached.revision + newer.length, snapshotRevision: cached.snapshotRevision };
    if (newer.length > 0) remember(store, stream, { decider, ...loaded });
    return loaded;
  }
  let state = decider.initialState();
  let from = 0;
  if (decider.snapshot) {
    const last = await store.readLastEvent(snapshotStream(stream));
    const snap = last?.data as Snapshot | undefined;
    if (snap && snap.version === decider.snapshot.version) {
      const { decode } = decider.snapshot;
      state = decode ? decode(snap.state) : (structuredClone(snap.state) as S);
      from = snap.revision + 1;
    }
  }
  const events = await store.readStream(stream, from);
  for (const e of events) state = decider.evolve(state, { type: e.type, data: e.data } as E);
  const loaded = { state, revision: from - 1 + events.length, snapshotRevision: from - 1 };
  remember(store, stream, { decider, ...loaded });
  return loaded;
}

/**
 * Writes a snapshot when the stream has grown `every` events (of the policy, for this state) past
 * the last one (best effort). Returns the revision of the latest snapshot tried now: a snapshot
 * that could not be stored is tried again only after another `every` events, so a store that
 * refuses it (too large, unreachable) does not cost an encoding on every command.
 */
async function maybeSnapshot<S>(
  store: EventStore,
  stream: string,
  snapshot: SnapshotPolicy<S> | undefined,
  previous: number,
  revision: number,
  state: S,
): Promise<number> {
  if (!snapshot) return previous;
  const every = typeof snapshot.every === 'function' ? snapshot.every(state) : snapshot.every;
  if (revision - previous < every) return previous;
  const data: Snapshot = {
    version: snapshot.version,
    revision,
    state: snapshot.encode ? snapshot.encode(state) : state,
  };
  // A lost snapshot only costs a longer read next time; the command itself has succeeded.
  await store
    .append(snapshotStream(stream), [{ id: `${stream}@${revision}`, type: 'Snapshot', data }], 'any')
    .catch(() => undefined);
  return revision;
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
  return oneAtATime(store, stream, () => runCommand(store, stream, decider, command));
}

/** Tails of the commands running per store and stream in this process. */
const running = new WeakMap<EventStore, Map<string, Promise<unknown>>>();

/**
 * Runs `work` after the commands on `stream` this process started before it have settled. Commands
 * of one process on one stream (concurrent requests on an organization's ledger) then decide on
 * each other's results instead of racing: without it, appends committed together (group commit)
 * would conflict all but one. Commands of other processes are still caught by the expected revision.
 */
function oneAtATime<T>(store: EventStore, stream: string, work: () => Promise<T>): Promise<T> {
  let streams = running.get(store);
  if (!streams) running.set(store, (streams = new Map<string, Promise<unknown>>()));
  const previous = streams.get(stream) ?? Promise.resolve();
  const result = previous.then(work, work);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  streams.set(stream, tail);
  const held = streams;
  void tail.then(() => {
    if (held.get(stream) === tail) held.delete(stream);
  });
  return result;
}

async function runCommand<S, C, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<S, C, E>,
  command: C,
): Promise<Handled<S, E>> {
  for (let attempt = 0; ; attempt++) {
    const { state, revision, snapshotRevision } = await loadState(store, stream, decider);
    const decided = decider.decideFolded
      ? decider.decideFolded(command, state)
      : { events: decider.decide(command, state), state: undefined };
    const { events } = decided;
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
      const next = decided.state ?? events.reduce((s, e) => decider.evolve(s, e), state);
      const snapshotted = await maybeSnapshot(store, stream, decider.snapshot, snapshotRevision, result.revision, next);
      remember(store, stream, { decider, state: next, revision: result.revision, snapshotRevision: snapshotted });
      return { events, state: next, position: result.position };
    } catch (err) {
      if (!(err instanceof ConcurrencyError) || attempt >= 20) throw err;
    }
  }
}
