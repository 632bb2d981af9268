import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { MemoryReadStore } from '../../adapters/memory/read-store.js';
import { SqliteReadStore } from '../../adapters/sqlite/read-store.js';
import { InProcessBus } from '../../adapters/in-process/bus.js';
import { eventStoreContract } from '../contracts/event-store.contract.js';
import { readStoreContract } from '../contracts/read-store.contract.js';
import { busContract } from '../contracts/bus.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'es-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

t.test('SqliteEventStore', async (t) =>
  eventStoreContract(t, async () => new SqliteEventStore(join(dir, `s${++n}.db`))),
);
t.test('MemoryReadStore', async (t) => readStoreContract(t, async () => new MemoryReadStore()));
t.test('SqliteReadStore', async (t) =>
  readStoreContract(t, async () => new SqliteReadStore(join(dir, `r${++n}.db`), 'v1')),
);
t.test('InProcessBus', async (t) => busContract(t, async () => new InProcessBus()));

t.test('SqliteEventStore keeps events across reopening the file', async (t) => {
  const file = join(dir, 'reopen.db');
  const a = new SqliteEventStore(file);
  await a.append('s', [{ id: 'e1', type: 'T', data: { v: 1 } }], 'no_stream');
  await a.close();
  const b = new SqliteEventStore(file);
  t.same(
    (await b.readStream('s')).map((e) => e.data),
    [{ v: 1 }],
  );
  await b.close();
});

t.test(
  'SqliteEventStore group commit: concurrent appends share a transaction; a conflict rejects only its own append',
  async (t) => {
    const store = new SqliteEventStore(join(dir, 'group.db'));
    const results = await Promise.allSettled([
      store.append('a', [{ id: 'a1', type: 'T', data: { n: 1 } }], 'no_stream'),
      store.append('a', [{ id: 'a2', type: 'T', data: { n: 2 } }], 'no_stream'),
      store.append(
        'b',
        [
          { id: 'b1', type: 'T', data: { n: 3 } },
          { id: 'b2', type: 'T', data: { n: 4 } },
        ],
        'no_stream',
      ),
      store.append('a', [{ id: 'a1', type: 'T', data: { n: 1 } }], 'no_stream'),
    ]);
    t.same(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    t.equal(
      (results[1] as PromiseRejectedResult).reason.name,
      'ConcurrencyError',
      'the second writer of a new stream conflicts',
    );
    t.same(
      (results[3] as PromiseFulfilledResult<{ written: boolean }>).value.written,
      false,
      'a repeated event id in the same batch is a duplicate',
    );
    t.same(
      (await store.readStream('a')).map((e) => e.data),
      [{ n: 1 }],
      'nothing of the rejected append is stored',
    );
    t.same(
      (await store.readStream('b')).map((e) => e.revision),
      [0, 1],
    );
    t.same(
      (await store.readAll(0, 10)).map((e) => e.position),
      [1, 2, 3],
      'positions in call order, no gap from the rejected append',
    );
    const pending = store.append('c', [{ id: 'c1', type: 'T', data: {} }], 'no_stream');
    await store.close();
    t.equal((await pending).written, true, 'an append made before close is committed by it');
    const reopened = new SqliteEventStore(join(dir, 'group.db'));
    t.equal((await reopened.readStream('c')).length, 1);
    await reopened.close();
  },
);
