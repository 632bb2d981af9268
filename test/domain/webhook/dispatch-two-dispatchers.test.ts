/**
 * Two webhook dispatchers (domain/webhook/dispatch.ts), as two scheduler processes run them, on
 * one SQLite event store, each through a view of its own whose appends answer as the EventStoreDB
 * adapter's do (test/helpers/eventstoredb-appends.ts):
 * - both react to the same JobSettled events at the same time: every delivery is stored once (one
 *   WebhookDeliveryScheduled per derived delivery id), whoever stored it;
 * - their checkpoints on the shared stream never move back: one behind the other stores nothing,
 *   and checkpoints stored at once keep it rising (each appends at the revision it read).
 */
import t from 'tap';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { ledgerStream } from '../../../domain/ledger/streams.js';
import { deliveryIdOf } from '../../../domain/webhook/delivery.js';
import { checkpointPosition, WebhookDispatch } from '../../../domain/webhook/dispatch.js';
import type { EventStore } from '../../../domain/ports/event-store.js';
import { WEBHOOK_DELIVERY_STREAM_PREFIX, WEBHOOK_DISPATCH_STREAM } from '../../../domain/webhook/streams.js';
import { withEventStoreDbAppends } from '../../helpers/eventstoredb-appends.js';

const NOW = '2026-11-22T10:00:00.000Z';
const ENDPOINTS = ['whe_1', 'whe_2'];
const JOBS = 100;

function dispatcher(store: EventStore): WebhookDispatch {
  return new WebhookDispatch({
    store,
    clock: () => NOW,
    endpointsFor: async () => ENDPOINTS,
    jobView: async (jobId) => ({ id: jobId, object: 'job' }),
  });
}

t.test('two dispatchers reacting to the same events at once store each delivery once', async (t) => {
  const store = new SqliteEventStore(':memory:');
  t.teardown(() => store.close());
  for (let i = 0; i < JOBS; i++) {
    await store.append(
      ledgerStream('org_a'),
      [
        {
          id: `job_${i}:settled`,
          type: 'JobSettled',
          data: { jobId: `job_${i}`, outcome: 'succeeded', charged: 1, settledAt: NOW },
        },
      ],
      'any',
    );
  }
  const [viewA, viewB] = [withEventStoreDbAppends(store), withEventStoreDbAppends(store)];
  const [a, b] = [dispatcher(viewA), dispatcher(viewB)];
  const settled = (await store.readAll(0, 10_000)).filter((e) => e.type === 'JobSettled');
  // Each event handled by both at the same moment, as two processes following the log.
  const stored = await Promise.all(settled.map((e) => Promise.all([a.react(e), b.react(e)])));

  const scheduled = (await store.readAll(0, 100_000)).filter((e) =>
    e.stream.startsWith(WEBHOOK_DELIVERY_STREAM_PREFIX),
  );
  t.equal(scheduled.length, JOBS * ENDPOINTS.length, 'one stored event per delivery');
  t.ok(
    scheduled.every((e) => e.type === 'WebhookDeliveryScheduled' && e.revision === 0),
    'each the first and only event of its stream',
  );
  const expected = new Set(
    settled.flatMap((e) =>
      ENDPOINTS.map((endpointId) => `${WEBHOOK_DELIVERY_STREAM_PREFIX}${deliveryIdOf(endpointId, e.id)}`),
    ),
  );
  t.same(new Set(scheduled.map((e) => e.stream)), expected, 'on the streams of the derived delivery ids');
  const told = stored.flat().reduce((n, s) => n + s, 0);
  t.ok(
    told >= JOBS * ENDPOINTS.length,
    `the dispatchers told of ${told} stored events (a racing identical append may be answered written to both: ${viewA.counts.racedWritten + viewB.counts.racedWritten})`,
  );
});

t.test(
  'the shared checkpoint never moves back: one behind stores nothing, two interleaved keep it rising',
  async (t) => {
    const store = new SqliteEventStore(':memory:');
    t.teardown(() => store.close());
    const [a, b] = [dispatcher(withEventStoreDbAppends(store)), dispatcher(withEventStoreDbAppends(store))];
    const last = async () => {
      const e = await store.readLastEvent(WEBHOOK_DISPATCH_STREAM);
      return e ? checkpointPosition(e) : 0;
    };
    t.equal(await a.checkpoint(150), true, 'the first checkpoint is stored');
    t.equal(await b.checkpoint(100), false, 'one behind the other stores nothing');
    t.equal(await last(), 150);
    t.equal(await b.checkpoint(150), false, 'the same position: nothing more');
    t.equal(await b.checkpoint(160), true);

    // Both write at once, each its own rising positions one after the other (as its loop does), the
    // second one position ahead of the first.
    const run = async (d: WebhookDispatch, positions: number[]) => {
      let stored = 0;
      for (const p of positions) if (await d.checkpoint(p)) stored++;
      return stored;
    };
    const evens = Array.from({ length: 100 }, (_, i) => 200 + 2 * i);
    const odds = Array.from({ length: 100 }, (_, i) => 201 + 2 * i);
    const [byA, byB] = await Promise.all([run(a, evens), run(b, odds)]);
    t.ok(byA > 0 && byB > 0, `both stored some (A ${byA}, B ${byB})`);
    const stream = (await store.readStream(WEBHOOK_DISPATCH_STREAM)).map(checkpointPosition);
    t.ok(
      stream.every((p, i) => i === 0 || p > stream[i - 1]!),
      `every stored checkpoint is above the one before (${stream.length} stored)`,
    );
    t.equal(await last(), 399, 'the highest position handled is the checkpoint');
  },
);
