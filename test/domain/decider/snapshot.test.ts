/** Snapshots keep a long ledger's command reads bounded and give the same state as a full fold. */
import t from 'tap';
import { ACTOR } from '../../helpers/decider-spec.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { handleCommand, loadState, snapshotStream } from '../../../domain/decider/handle.js';
import { ledgerDecider } from '../../../domain/ledger/decide.js';
import { encodeLedger, evolveLedger, initialLedger, type LedgerEvent } from '../../../domain/ledger/ledger.js';
import type { EventStore } from '../../../domain/ports/event-store.js';

const NOW = '2026-11-22T10:00:00.000Z';

t.test('a ledger with 350 events is loaded from its snapshot plus fewer than 100 events', async (t) => {
  const store = new SqliteEventStore(':memory:');
  for (let i = 0; i < 350; i++) {
    await handleCommand(store, 'ledger-o1', ledgerDecider, {
      type: 'PurchaseCredits',
      data: { amount: 1_000 + i },
      metadata: { now: NOW, actor: ACTOR },
    });
  }
  const snapshots = await store.readStream(snapshotStream('ledger-o1'));
  t.same(
    snapshots.map((e) => (e.data as { revision: number }).revision),
    [99, 199, 299],
  );

  let read = 0;
  const counting: EventStore = Object.assign(Object.create(store) as EventStore, {
    readStream: async (stream: string, from?: number) => {
      const events = await store.readStream(stream, from);
      read += events.length;
      return events;
    },
  });
  const loaded = await loadState(counting, 'ledger-o1', ledgerDecider);
  t.equal(loaded.revision, 349);
  t.ok(read < 100, `read ${read} events`);

  const full = (await store.readStream('ledger-o1')).reduce(
    (s, e) => evolveLedger(s, { type: e.type, data: e.data } as LedgerEvent),
    initialLedger(),
  );
  t.same(encodeLedger(loaded.state), encodeLedger(full));
  t.equal(loaded.state.reserved, full.reserved);
  t.equal(full.purchased, 350 * 1_000 + (349 * 350) / 2);
  await store.close();
});

t.test('a snapshot of another version is ignored', async (t) => {
  const store = new SqliteEventStore(':memory:');
  await handleCommand(store, 'ledger-o2', ledgerDecider, {
    type: 'PurchaseCredits',
    data: { amount: 5 },
    metadata: { now: NOW, actor: ACTOR },
  });
  await store.append(
    snapshotStream('ledger-o2'),
    [{ id: 'bogus', type: 'Snapshot', data: { version: 999, revision: 0, state: { purchased: 1e9 } } }],
    'any',
  );
  const loaded = await loadState(store, 'ledger-o2', ledgerDecider);
  t.equal(loaded.state.purchased, 5);
  await store.close();
});
