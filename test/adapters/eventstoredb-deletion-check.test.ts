/**
 * What the EventStoreDB adapter asks the server to find the head and to drop events of deleted
 * job bodies (adapters/eventstoredb/event-store.ts), with the driver's client replaced by an
 * in-memory server that counts the reads and the event bytes they carry (no EventStoreDB server
 * runs here). The deletion check reads stream metadata, never the job body again; the head search
 * reads one event when the newest of `$all` is ours.
 */
import t from 'tap';
import {
  BACKWARDS,
  StreamDeletedError,
  StreamNotFoundError,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import { EventStoreDbEventStore } from '../../adapters/eventstoredb/event-store.js';

interface FakeEvent {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  data: unknown;
  metadata: unknown;
  isJson: boolean;
  created: Date;
  position: Position;
}

/** An in-memory stand-in of the driver's client: streams, `$all`, tombstones, metadata; counts what is read. */
function fakeServer() {
  const all: FakeEvent[] = [];
  const tombstoned = new Set<string>();
  const metadata = new Map<string, Record<string, unknown>>();
  /** Revisions below which a stream's events have expired ($maxCount, $maxAge: nothing in $tb tells). */
  const expired = new Map<string, bigint>();
  const reads = { readAll: 0, readStream: 0, getStreamMetadata: 0, eventsRead: 0, bytesRead: 0 };
  const deliver = async function* (events: FakeEvent[]) {
    for (const event of events) {
      reads.eventsRead++;
      reads.bytesRead += JSON.stringify(event.data).length;
      yield { event };
    }
  };
  let commit = 0n;
  return {
    reads,
    resetCounts: () =>
      Object.assign(reads, { readAll: 0, readStream: 0, getStreamMetadata: 0, eventsRead: 0, bytesRead: 0 }),
    append(streamId: string, type: string, data: unknown): FakeEvent {
      commit += 100n;
      const revision = BigInt(all.filter((e) => e.streamId === streamId).length);
      const event: FakeEvent = {
        streamId,
        id: `${streamId}-${revision}`,
        type,
        revision,
        data,
        metadata: {},
        isJson: true,
        created: new Date('2026-11-26T00:00:00Z'),
        position: { commit, prepare: commit },
      };
      all.push(event);
      return event;
    },
    tombstone: (streamId: string) => tombstoned.add(streamId),
    setMetadata: (streamId: string, value: Record<string, unknown>) => metadata.set(streamId, value),
    expireBelow: (streamId: string, revision: bigint) => expired.set(streamId, revision),
    client: {
      readAll(options: { fromPosition: ReadPosition; maxCount: number; direction: string }) {
        reads.readAll++;
        const from = options.fromPosition;
        let events: FakeEvent[];
        if (options.direction === BACKWARDS) {
          events = [...all].reverse().filter((e) => typeof from === 'string' || e.position.commit < from.commit);
        } else {
          events = all.filter((e) => typeof from === 'string' || e.position.commit >= from.commit);
        }
        return deliver(events.slice(0, options.maxCount));
      },
      readStream(name: string, options: { fromRevision: bigint | string; direction: string; maxCount?: number }) {
        reads.readStream++;
        if (tombstoned.has(name)) throw new StreamDeletedError(undefined, name);
        const truncated = BigInt(Number(metadata.get(name)?.['truncateBefore'] ?? 0));
        const gone = expired.get(name) ?? 0n;
        const truncate = truncated > gone ? truncated : gone;
        let events = all.filter((e) => e.streamId === name && e.revision >= truncate);
        if (events.length === 0) throw new StreamNotFoundError(undefined, name);
        if (options.direction === BACKWARDS) events = events.reverse();
        if (typeof options.fromRevision === 'bigint') {
          const from = options.fromRevision;
          events = events.filter((e) => (options.direction === BACKWARDS ? e.revision <= from : e.revision >= from));
        }
        return deliver(events.slice(0, options.maxCount ?? Number.MAX_SAFE_INTEGER));
      },
      async getStreamMetadata(name: string) {
        reads.getStreamMetadata++;
        // The server answers "deleted" for the metadata stream of a tombstoned stream.
        if (tombstoned.has(name)) throw new StreamDeletedError(undefined, `$$${name}`);
        const value = metadata.get(name);
        return value ? { streamName: name, metadata: value } : { streamName: name };
      },
      dispose: async () => undefined,
    },
  };
}

function storeOn(server: ReturnType<typeof fakeServer>): EventStoreDbEventStore {
  const store = new EventStoreDbEventStore('esdb://127.0.0.1:2113?tls=false', { deletableStreams: ['jobbody-'] });
  (store as unknown as { client: unknown }).client = server.client;
  return store;
}

/** A job body's data: a request and a plan of some size. */
const BODY = { plan: 'x'.repeat(50_000) };

t.test(
  'the head when the newest event is a job body: one event read and one metadata read, the body not read again',
  async (t) => {
    const server = fakeServer();
    server.append('job-job_1', 'JobSubmitted', { id: 'job_1' });
    server.append('job-job_1', 'JobStarted', {});
    server.append('job-job_1', 'JobSucceeded', {});
    const body = server.append('jobbody-job_1', 'ResultStored', BODY);
    const store = storeOn(server);
    t.teardown(() => store.close());

    t.equal(await store.headPosition(), Number(body.position.commit));
    t.same(
      server.reads,
      { readAll: 1, readStream: 0, getStreamMetadata: 1, eventsRead: 1, bytesRead: JSON.stringify(BODY).length },
      'one backward read of one event, one metadata read',
    );
    t.comment(
      `head search: ${server.reads.readAll} $all read(s), ${server.reads.eventsRead} event(s), ${server.reads.bytesRead} bytes of event data, ${server.reads.readStream} stream reads, ${server.reads.getStreamMetadata} metadata read(s)`,
    );

    server.resetCounts();
    server.append('job-job_1', 'JobSettled', {});
    await store.headPosition();
    t.same(
      server.reads,
      { readAll: 1, readStream: 0, getStreamMetadata: 0, eventsRead: 1, bytesRead: 2 },
      'newest is not a job body: no deletion check at all',
    );
  },
);

t.test('events of a job body another process deleted are dropped, known from its metadata stream', async (t) => {
  const server = fakeServer();
  server.append('job-job_1', 'JobSubmitted', {});
  server.append('jobbody-job_1', 'RequestStored', BODY);
  server.append('jobbody-job_1', 'ResultStored', BODY);
  const kept = server.append('job-job_2', 'JobSubmitted', {});
  server.tombstone('jobbody-job_1');
  const store = storeOn(server);
  t.teardown(() => store.close());

  const events = await store.readAll(0, 100);
  t.same(
    events.map((e) => `${e.stream}#${e.revision}`),
    ['job-job_1#0', 'job-job_2#0'],
    'the tombstoned body is left out',
  );
  t.equal(server.reads.readStream, 0, 'the body stream is not read to check');
  t.equal(server.reads.getStreamMetadata, 1, 'one metadata read for the stream, however many of its events');

  server.resetCounts();
  t.same(
    (await store.readAll(0, 100)).map((e) => e.stream),
    ['job-job_1', 'job-job_2'],
  );
  t.equal(server.reads.getStreamMetadata, 0, 'a tombstone is remembered');
  t.equal(await store.headPosition(), Number(kept.position.commit));
});

t.test('the head skips a deleted job body at the end of the log', async (t) => {
  const server = fakeServer();
  const last = server.append('job-job_1', 'JobSucceeded', {});
  server.append('jobbody-job_1', 'ResultStored', BODY);
  server.tombstone('jobbody-job_1');
  const store = storeOn(server);
  t.teardown(() => store.close());
  t.equal(await store.headPosition(), Number(last.position.commit));
  t.equal(server.reads.readStream, 0);
});

t.test(
  'a truncation ($tb) drops the revisions below it; $maxCount falls back to reading the lowest revision',
  async (t) => {
    const server = fakeServer();
    for (let i = 0; i < 4; i++) server.append('jobbody-job_1', 'Part', { i });
    server.setMetadata('jobbody-job_1', { truncateBefore: 2 });
    for (let i = 0; i < 3; i++) server.append('jobbody-job_2', 'Part', { i });
    server.setMetadata('jobbody-job_2', { maxCount: 1 });
    server.expireBelow('jobbody-job_2', 2n);
    const store = storeOn(server);
    t.teardown(() => store.close());
    const events = await store.readAll(0, 100);
    t.same(
      events.map((e) => `${e.stream}#${e.revision}`),
      ['jobbody-job_1#2', 'jobbody-job_1#3', 'jobbody-job_2#2'],
    );
    t.equal(server.reads.readStream, 1, 'only the stream with $maxCount is read');
    t.equal(server.reads.getStreamMetadata, 2);
  },
);
