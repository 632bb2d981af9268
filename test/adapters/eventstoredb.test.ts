import t from 'tap';
import { randomUUID } from 'node:crypto';
import { ANY, NO_STREAM, START, WrongExpectedVersionError } from '@eventstore/db-client';
import { EventStoreDbEventStore, type EventStoreDbOptions } from '../../adapters/eventstoredb/event-store.js';
import {
  EVENT_ID_NAMESPACE,
  checkNamespace,
  eventUuid,
  portStream,
  serverStream,
  uuidV5,
} from '../../adapters/eventstoredb/names.js';
import { readStart, toLogPosition, toPortPosition } from '../../adapters/eventstoredb/position.js';
import {
  findStoredBatch,
  toConcurrencyError,
  toDriverExpected,
  toProposedEvent,
  toRecordedEvent,
  type StoredEvent,
} from '../../adapters/eventstoredb/records.js';
import { ConcurrencyError, type RecordedEvent } from '../../domain/ports/event-store.js';
import { eventStoreContract } from '../contracts/event-store.contract.js';

// ---- Pure parts: no server needed. ----

t.test('uuidV5 gives the RFC example; eventUuid is a deterministic version-5 UUID per namespace and id', async (t) => {
  // RFC 9562 / the uuid package: v5("www.example.com", DNS namespace).
  t.equal(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com'), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
  const id = eventUuid('', 'job_abc:result');
  t.equal(id, '6f7412fd-4647-5317-a356-2211c8837e25', 'pinned: a changed derivation would store retried events twice');
  t.equal(eventUuid('', 'job_abc:result'), id, 'deterministic');
  t.equal(id, uuidV5(EVENT_ID_NAMESPACE, '["","job_abc:result"]'));
  t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'version 5, RFC 4122 variant');
  t.equal(
    eventUuid('t-1-', 'job_abc:result'),
    '69d6b4a1-3f98-568a-8d22-95583e2650c4',
    'another namespace, another UUID',
  );
  t.not(eventUuid('', 'job_abc:results'), id);
  t.not(eventUuid('a', 'bc'), eventUuid('ab', 'c'), 'namespace and id cannot run into each other');
  t.throws(() => uuidV5('not-a-uuid', 'x'), RangeError);
});

t.test('stream names get the namespace prefix on the server and lose it on read', async (t) => {
  t.equal(serverStream('t1-', 'jobbody-job_1'), 't1-jobbody-job_1');
  t.equal(serverStream('', 'job-job_1'), 'job-job_1');
  t.equal(portStream('t1-', 't1-jobbody-job_1'), 'jobbody-job_1');
  t.equal(portStream('', 'ledger-org_1'), 'ledger-org_1');
  t.equal(portStream('t1-', 't2-jobbody-job_1'), undefined, 'another namespace');
  t.equal(portStream('t1-', 't1-'), undefined, 'the bare prefix is no stream');
  t.equal(portStream('t1-', '$$t1-jobbody-job_1'), undefined, 'metadata stream');
  t.equal(portStream('', '$stats-127.0.0.1:2113'), undefined, 'system stream');
  t.equal(portStream('t1-', 't1-$x'), undefined);
  t.throws(() => serverStream('', '$users'), /starts with \$/);
  t.throws(() => serverStream('t1-', ''), /empty/);
  t.equal(checkNamespace('t1-'), 't1-');
  t.throws(() => checkNamespace('$t'), /must not start with \$/);
});

t.test('positions: $all commit positions as safe integers, reads starting at the event after', async (t) => {
  t.equal(toPortPosition(123_456_789n), 123_456_789);
  t.equal(toPortPosition(BigInt(Number.MAX_SAFE_INTEGER)), Number.MAX_SAFE_INTEGER);
  t.throws(() => toPortPosition(2n ** 53n), RangeError);
  t.throws(() => toPortPosition(-1n), RangeError);
  const p = toLogPosition(4096);
  t.equal(p.commit, 4096n);
  t.equal(p.prepare, 4096n);
  t.throws(() => toLogPosition(0), RangeError);
  t.throws(() => toLogPosition(-5), RangeError);
  t.throws(() => toLogPosition(1.5), RangeError);
  t.equal(readStart(0), START);
  const from = readStart(4096);
  t.ok(typeof from === 'object' && from.commit === 4096n && from.prepare === 4096n);
});

t.test('events to EventStoreDB: derived UUID, our id in metadata', async (t) => {
  t.same(
    toProposedEvent('ns-', {
      id: 'job_abc:result',
      type: 'ResultStored',
      data: { plan: 1 },
      metadata: { by: 'solver' },
    }),
    {
      id: eventUuid('ns-', 'job_abc:result'),
      contentType: 'application/json',
      type: 'ResultStored',
      data: { plan: 1 },
      metadata: { by: 'solver', eventId: 'job_abc:result' },
    },
  );
  const bare = toProposedEvent('', { id: 'e1', type: 'T', data: undefined });
  t.equal(bare.data, null, 'no data is stored as JSON null');
  t.same(bare.metadata, { eventId: 'e1' });
  t.throws(() => toProposedEvent('', { id: 'e1', type: 'T', data: {}, metadata: { eventId: 'x' } }), /reserved/);
});

t.test(
  'events from EventStoreDB: our id and stream name back, RFC 3339 time, foreign and system events left out',
  async (t) => {
    const stored: StoredEvent = {
      streamId: 'ns-jobbody-job_abc',
      id: eventUuid('ns-', 'job_abc:result'),
      revision: 1n,
      type: 'ResultStored',
      created: new Date('2026-11-02T10:00:00.123Z'),
      data: { plan: 1 },
      metadata: { by: 'solver', eventId: 'job_abc:result' },
      position: { commit: 8192n, prepare: 8192n },
    };
    t.same(toRecordedEvent('ns-', stored), {
      id: 'job_abc:result',
      type: 'ResultStored',
      data: { plan: 1 },
      metadata: { by: 'solver' },
      stream: 'jobbody-job_abc',
      revision: 1,
      position: 8192,
      recordedAt: '2026-11-02T10:00:00.123Z',
    });
    t.equal(toRecordedEvent('other-', stored), undefined, 'outside the namespace');
    t.equal(
      toRecordedEvent('ns-', { ...stored, type: '$streamDeleted', revision: 2n ** 63n - 1n }),
      undefined,
      'tombstone',
    );
    const foreign = toRecordedEvent('', { ...stored, streamId: 'legacy-1', metadata: undefined });
    t.same(
      [foreign?.id, foreign?.metadata, foreign?.stream],
      [stored.id, {}, 'legacy-1'],
      'written by others: the UUID is the id',
    );
    t.throws(() => toRecordedEvent('ns-', { ...stored, position: undefined }), /22\.10 or later/);
  },
);

t.test('expected revisions map to the driver, WrongExpectedVersionError to ConcurrencyError', async (t) => {
  t.equal(toDriverExpected(4), 4n);
  t.equal(toDriverExpected('no_stream'), NO_STREAM);
  t.equal(toDriverExpected('any'), ANY);
  t.throws(() => toDriverExpected(-1), RangeError);
  t.throws(() => toDriverExpected(1.5), RangeError);
  const err = toConcurrencyError(
    'job-1',
    3,
    new WrongExpectedVersionError(undefined, { streamName: 'ns-job-1', expected: 3n, current: 5n }),
  );
  t.ok(err instanceof ConcurrencyError);
  t.same([err.stream, err.expected, err.actual], ['job-1', 3, 5]);
  const missing = toConcurrencyError(
    'job-2',
    0,
    new WrongExpectedVersionError(undefined, { streamName: 'ns-job-2', expected: 0n, current: NO_STREAM }),
  );
  t.equal(missing.actual, 'no_stream');
});

t.test('findStoredBatch finds a batch by its first id among the last events', async (t) => {
  const ev = (id: string, revision: number): RecordedEvent => ({
    id,
    type: 'T',
    data: {},
    metadata: {},
    stream: 's',
    revision,
    position: 1000 + revision * 100,
    recordedAt: '2026-11-02T10:00:00.000Z',
  });
  const tail = [ev('e4', 4), ev('c2', 3), ev('c1', 2), ev('b1', 1), ev('a1', 0)]; // newest first
  t.same(findStoredBatch(tail, 'c1', 2), { revision: 3, position: 1300 }, 'the last event of the batch');
  t.same(findStoredBatch(tail, 'e4', 1), { revision: 4, position: 1400 });
  t.same(
    findStoredBatch(tail, 'e4', 3),
    { revision: 4, position: 1400 },
    'the stream ends before the batch would: its first',
  );
  t.equal(findStoredBatch(tail, 'zz', 1), undefined);
});

// ---- Against a server: only when EVENTSTORE_URL names one. ----

const url = process.env.EVENTSTORE_URL;
const SKIP =
  'EVENTSTORE_URL is not set: no EventStoreDB server on this machine; set it to run the contract suite against one';
const server = url ? {} : { skip: SKIP };

/** A store in a namespace of its own (random), which starts at the current end of `$all`. */
const open = (options: EventStoreDbOptions = {}): Promise<EventStoreDbEventStore> =>
  EventStoreDbEventStore.connect(url!, {
    namespace: `t-${randomUUID().slice(0, 8)}-`,
    freshNamespace: true,
    ...options,
  });
const ev = (id: string, n: number) => ({ id, type: 'Happened', data: { n } });

t.test('EventStoreDbEventStore against a server', server, async (t) => {
  t.test('the event store contract', async (t) => eventStoreContract(t, () => open()));

  t.test(
    'ids that are not UUIDs come back; a stored batch is not stored again with any expected revision',
    async (t) => {
      const store = await open();
      t.teardown(() => store.close());
      const queued = await store.append('job-1', [ev('job_1:queued', 1)], 'no_stream');
      await store.append('job-1', [ev('job_1:warned:slow', 2)], 0);
      const withAny = await store.append('job-1', [ev('job_1:queued', 1)], 'any');
      t.same(withAny, { revision: 0, position: queued.position, written: false });
      // EventStoreDB alone would store it again: the current revision is what it expects.
      const withCurrent = await store.append('job-1', [ev('job_1:queued', 1)], 1);
      t.same(withCurrent, { revision: 0, position: queued.position, written: false });
      const stale = await store.append('job-1', [ev('job_1:warned:slow', 2)], 0);
      t.equal(stale.written, false, 'a retry with the old expected revision');
      t.same(
        (await store.readStream('job-1')).map((e) => [e.id, e.revision]),
        [
          ['job_1:queued', 0],
          ['job_1:warned:slow', 1],
        ],
      );
      await t.rejects(store.append('job-1', [ev('job_1:other', 3)], 0), ConcurrencyError);
    },
  );

  t.test('two namespaces on one server do not see each other', async (t) => {
    const a = await open();
    const b = await open();
    t.teardown(async () => {
      await a.close();
      await b.close();
    });
    const inA = await a.append('s', [ev('x1', 1)], 'no_stream');
    await b.append('s', [ev('x1', 2)], 'no_stream');
    t.same(
      (await a.readStream('s')).map((e) => e.data),
      [{ n: 1 }],
    );
    t.same(
      (await a.readAll(0, 10)).map((e) => [e.stream, e.data]),
      [['s', { n: 1 }]],
    );
    t.equal(await a.headPosition(), inA.position);
  });

  t.test('subscribeAll starts after `after` and leaves out events of deleted streams', async (t) => {
    const store = await open();
    t.teardown(() => store.close());
    const k1 = await store.append('keep', [ev('k1', 1)], 'no_stream');
    await store.append('gone', [ev('g1', 2)], 'no_stream');
    await store.append('keep', [ev('k2', 3)], 0);
    t.equal(await store.deleteStream('gone'), 1);
    const sub = store.subscribeAll(k1.position);
    const seen: string[] = [];
    const done = (async () => {
      for await (const e of sub) {
        seen.push(e.id);
        if (seen.length === 2) break;
      }
    })();
    await store.append('keep', [ev('k3', 4)], 1);
    await done;
    t.same(seen, ['k2', 'k3']);
  });

  t.test('a deleted stream cannot be written again; only deletable streams are deleted', async (t) => {
    const store = await open({ deletableStreams: ['jobbody-'] });
    t.teardown(() => store.close());
    await store.append('jobbody-job_1', [ev('job_1:request', 1), ev('job_1:result', 2)], 'no_stream');
    t.equal(await store.deleteStream('jobbody-job_1'), 2);
    t.same(await store.readStream('jobbody-job_1'), []);
    await t.rejects(store.append('jobbody-job_1', [ev('job_1:result', 2)], 'any'), /deleted for good/);
    await t.rejects(store.deleteStream('job-job_1'), /not among the deletable streams/);
  });

  t.test('close ends a subscription that waits for events', async (t) => {
    const store = await open();
    await store.append('s', [ev('a', 1)], 'no_stream');
    const seen: string[] = [];
    let bothSeen!: () => void;
    const both = new Promise<void>((resolve) => (bothSeen = resolve));
    const done = (async () => {
      for await (const e of store.subscribeAll(0)) {
        seen.push(e.id);
        if (seen.length === 2) bothSeen();
      }
    })();
    await store.append('s', [ev('b', 2)], 0);
    await both;
    await store.close();
    await done;
    t.same(seen, ['a', 'b']);
  });
});
