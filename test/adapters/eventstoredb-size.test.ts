/**
 * The EventStoreDB adapter and the port's size limit, without a server: the port's eventSize
 * covers every byte the server counts against MaxAppendSize for the event the adapter sends
 * (data, metadata with our `eventId`, 2 per type character), and an append over
 * MAX_APPEND_BYTES is refused before the adapter contacts the server.
 */
import t from 'tap';
import { EventStoreDbEventStore } from '../../adapters/eventstoredb/event-store.js';
import { toProposedEvent } from '../../adapters/eventstoredb/records.js';
import { eventSize, EventTooLargeError, MAX_APPEND_BYTES, type NewEvent } from '../../domain/ports/event-store.js';

/** What EventStoreDB counts for a proposed JSON event (Event.SizeOnDisk: data + metadata + 2 × type length). */
function serverSize(namespace: string, e: NewEvent): number {
  const proposed = toProposedEvent(namespace, e);
  // The driver sends JSON.stringify of data and metadata as UTF-8 (db-client appendToStream).
  return (
    Buffer.byteLength(JSON.stringify(proposed.data)) +
    Buffer.byteLength(JSON.stringify(proposed.metadata)) +
    2 * proposed.type.length
  );
}

t.test('eventSize is at least what the server counts for the event the adapter sends, and close to it', async (t) => {
  const events: NewEvent[] = [
    { id: 'job_abc:request', type: 'RequestStored', data: { chunk: 'QUJD'.repeat(1000) } },
    {
      id: 'job_abc:result:0123456789abcdef:1',
      type: 'ResultPartStored',
      data: { text: 'Paletten – 貨物 "quoted" \\ \u0001' },
      metadata: { now: '2026-11-26T00:00:00.000Z', actor: { kind: 'key', id: 'key_1' } },
    },
    { id: 'x', type: 'T', data: undefined },
    { id: 'ünïcode-id', type: 'Happened', data: null, metadata: {} },
  ];
  for (const e of events) {
    for (const namespace of ['', 't-1-']) {
      const ours = eventSize(e);
      const theirs = serverSize(namespace, e);
      t.ok(
        ours >= theirs && ours - theirs <= 16,
        `${e.id} (${namespace || 'no namespace'}): port ${ours}, server ${theirs}`,
      );
    }
  }
});

t.test('an append over MAX_APPEND_BYTES is refused before the server is contacted', async (t) => {
  // Nothing listens on port 1: an append that went to the server would fail differently.
  const store = new EventStoreDbEventStore('esdb://127.0.0.1:1?tls=false');
  t.teardown(() => store.close());
  const big: NewEvent = { id: 'job_1:request', type: 'RequestStored', data: { pad: 'x'.repeat(MAX_APPEND_BYTES) } };
  const err = await store.append('jobbody-job_1', [big], 'any').catch((e: unknown) => e);
  t.ok(err instanceof EventTooLargeError);
  t.match(err, { stream: 'jobbody-job_1', type: 'RequestStored', bytes: eventSize(big), limit: MAX_APPEND_BYTES });
});
