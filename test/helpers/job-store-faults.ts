/**
 * A fault-injecting, counting decorator of the event store port for solver tests (DESIGN §2,
 * store outages): every call on the streams of an outage fails while it lasts (as an unreachable
 * EventStoreDB would answer), reads per stream are counted, and hooks around `append` let a test
 * start an outage at a known step of a job (e.g. when the job starts, or when its result is stored).
 */
import type { EventStore, NewEvent } from '../../domain/ports/event-store.js';

/** The decorator's controls and what it saw. */
export interface JobStoreFaults {
  /** Wraps `inner` (pass to ServiceConfig.decorateStore). */
  decorate(inner: EventStore): EventStore;
  /** Every call on `streams` fails from now for `ms`. */
  outage(streams: string[], ms: number): void;
  /** Called before each append (an outage it starts fails that append). */
  beforeAppend: ((stream: string, events: NewEvent[]) => void) | undefined;
  /** Called after each append that succeeded. */
  afterAppend: ((stream: string, events: NewEvent[]) => void) | undefined;
  /** readStream and readLastEvent calls per stream so far (failed ones included). */
  readonly reads: Map<string, number>;
  /** Calls failed by outages so far, with the time of the first and last (ms since the epoch). */
  readonly failures: { count: number; first: number; last: number };
}

/** A decorator with no outage and no hooks. */
export function jobStoreFaults(): JobStoreFaults {
  let down: { streams: Set<string>; until: number } | undefined;
  const reads = new Map<string, number>();
  const failures = { count: 0, first: 0, last: 0 };
  const check = (stream: string): void => {
    if (!down || !down.streams.has(stream) || Date.now() >= down.until) return;
    const now = Date.now();
    failures.count += 1;
    if (failures.first === 0) failures.first = now;
    failures.last = now;
    throw new Error(`injected: the event store is unreachable (${stream})`);
  };
  const faults: JobStoreFaults = {
    reads,
    failures,
    beforeAppend: undefined,
    afterAppend: undefined,
    outage(streams, ms) {
      down = { streams: new Set(streams), until: Date.now() + ms };
    },
    decorate(inner) {
      return {
        async append(stream, events, expected) {
          faults.beforeAppend?.(stream, events);
          check(stream);
          const result = await inner.append(stream, events, expected);
          faults.afterAppend?.(stream, events);
          return result;
        },
        async readStream(stream, fromRevision) {
          reads.set(stream, (reads.get(stream) ?? 0) + 1);
          check(stream);
          return inner.readStream(stream, fromRevision);
        },
        async readLastEvent(stream) {
          reads.set(stream, (reads.get(stream) ?? 0) + 1);
          check(stream);
          return inner.readLastEvent(stream);
        },
        readAll: (after, limit) => inner.readAll(after, limit),
        headPosition: () => inner.headPosition(),
        deleteStream: (stream) => inner.deleteStream(stream),
        subscribeAll: (after) => inner.subscribeAll(after),
        close: () => inner.close(),
      };
    },
  };
  return faults;
}
