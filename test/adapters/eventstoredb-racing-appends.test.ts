/**
 * Two processes appending the same batch at the same expected revision (adapters/eventstoredb/
 * event-store.ts, "Racing appends of one batch"): exactly one hears `written: true`. The driver's
 * client is replaced by an in-memory server that answers appends the way EventStoreDB does: a
 * batch whose event ids equal the events already at the expected revision is a repeat and
 * succeeds without storing; any other batch at a stale revision fails WrongExpectedVersion. No
 * EventStoreDB server runs here.
 */
import t from 'tap';
import {
  ANY,
  BACKWARDS,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type Position,
} from '@eventstore/db-client';
import { EventStoreDbEventStore } from '../../adapters/eventstoredb/event-store.js';

interface ServerEvent {
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

/** The appends and stream reads of EventStoreDB, in memory, with a gate that holds appends until released. */
function racingServer() {
  const streams = new Map<string, ServerEvent[]>();
  let commit = 0n;
  let release: () => void = () => undefined;
  let gate: Promise<void> | undefined;
  return {
    streams,
    /** Appends wait until `open()`: both racers have read the tail (and found nothing) by then. */
    hold: () => {
      gate = new Promise<void>((resolve) => (release = resolve));
    },
    open: () => release(),
    client: {
      async appendToStream(
        name: string,
        events: { id: string; type: string; data: unknown; metadata: unknown }[],
        options: { expectedRevision: AppendExpectedRevision },
      ) {
        await gate;
        const stored = streams.get(name) ?? [];
        const current: bigint | 'no_stream' = stored.length === 0 ? 'no_stream' : BigInt(stored.length - 1);
        const expected = options.expectedRevision;
        const next = expected === ANY ? BigInt(stored.length) : expected === NO_STREAM ? 0n : BigInt(expected) + 1n;
        if (expected !== ANY && next !== BigInt(stored.length)) {
          // A repeat of the batch already at that revision (same ids) is answered with success.
          const there = stored.slice(Number(next), Number(next) + events.length);
          if (there.length === events.length && there.every((e, i) => e.id === events[i]!.id)) {
            const last = there[there.length - 1]!;
            return { success: true, nextExpectedRevision: last.revision, position: last.position };
          }
          throw new WrongExpectedVersionError(undefined, { streamName: name, expected: expected, current });
        }
        for (const e of events) {
          commit += 10n;
          stored.push({
            streamId: name,
            id: e.id,
            type: e.type,
            revision: BigInt(stored.length),
            data: e.data,
            metadata: e.metadata,
            isJson: true,
            created: new Date(),
            position: { commit, prepare: commit },
          });
        }
        streams.set(name, stored);
        const last = stored[stored.length - 1]!;
        return { success: true, nextExpectedRevision: last.revision, position: last.position };
      },
      readStream(name: string, options: { direction: string; maxCount?: number }) {
        const stored = streams.get(name) ?? [];
        if (stored.length === 0) throw new StreamNotFoundError(undefined, name);
        const ordered = options.direction === BACKWARDS ? [...stored].reverse() : stored;
        const events = ordered.slice(0, options.maxCount ?? Number.MAX_SAFE_INTEGER);
        return (async function* () {
          for (const event of events) yield { event };
        })();
      },
    },
  };
}

function storeOn(server: ReturnType<typeof racingServer>): EventStoreDbEventStore {
  const store = new EventStoreDbEventStore('esdb://127.0.0.1:1?tls=false');
  (store as unknown as { client: unknown }).client = server.client;
  return store;
}

const claim = (process: string) => [{ id: 'job_1:slot', type: 'JobStarted', data: { jobId: 'job_1', by: process } }];

for (const expected of [0, 'no_stream'] as const) {
  t.test(
    `two processes append the same batch at expected revision ${String(expected)}: one hears written, the other not`,
    async (t) => {
      const server = racingServer();
      const a = storeOn(server);
      const b = storeOn(server);
      if (expected === 0)
        await a.append('ledger-org_1', [{ id: 'org_1:created', type: 'LedgerOpened', data: {} }], 'no_stream');
      server.hold();
      const racing = Promise.all([
        a.append('ledger-org_1', claim('a'), expected),
        b.append('ledger-org_1', claim('b'), expected),
      ]);
      // Both have read the stream's tail (found no claim) before either append reaches the server.
      await new Promise((resolve) => setImmediate(resolve));
      server.open();
      const results = await racing;
      t.same(results.map((r) => r.written).sort(), [false, true], 'exactly one append was written');
      t.equal(results[0].position, results[1].position, 'the loser is told where the winner stored the batch');
      const stored = server.streams.get('ledger-org_1')!;
      t.equal(stored.filter((e) => e.type === 'JobStarted').length, 1, 'stored once');
      const winner = results[0].written ? 'a' : 'b';
      t.equal(
        (stored.find((e) => e.type === 'JobStarted')!.data as { by: string }).by,
        winner,
        'the stored claim is the winner’s',
      );
    },
  );
}

t.test('a retried append whose answer was lost is recognised by its id, also at an expected revision', async (t) => {
  const server = racingServer();
  const store = storeOn(server);
  const first = await store.append('job-1', [{ id: 'job_1:created', type: 'JobCreated', data: {} }], 'no_stream');
  t.equal(first.written, true);
  const again = await store.append('job-1', [{ id: 'job_1:created', type: 'JobCreated', data: {} }], 'no_stream');
  t.same(again, { ...first, written: false }, 'the repeat is not stored again and says so');
  t.equal(server.streams.get('job-1')!.length, 1);
});

t.test('appends with `any` keep the UUID derived from our id (the server drops a racing repeat itself)', async (t) => {
  const server = racingServer();
  const a = storeOn(server);
  const b = storeOn(server);
  await a.append('jobbody-1', [{ id: 'job_1:result', type: 'ResultStored', data: {} }], 'any');
  await b.append('jobbody-2', [{ id: 'job_1:result', type: 'ResultStored', data: {} }], 'any');
  t.equal(
    server.streams.get('jobbody-1')![0]!.id,
    server.streams.get('jobbody-2')![0]!.id,
    'the same server id for the same event id',
  );
});
