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

t.test('SqliteEventStore', async (t) => eventStoreContract(t, async () => new SqliteEventStore(join(dir, `s${++n}.db`))));
t.test('MemoryReadStore', async (t) => readStoreContract(t, async () => new MemoryReadStore()));
t.test('SqliteReadStore', async (t) => readStoreContract(t, async () => new SqliteReadStore(join(dir, `r${++n}.db`), 'v1')));
t.test('InProcessBus', async (t) => busContract(t, async () => new InProcessBus()));

t.test('SqliteEventStore keeps events across reopening the file', async (t) => {
  const file = join(dir, 'reopen.db');
  const a = new SqliteEventStore(file);
  await a.append('s', [{ id: 'e1', type: 'T', data: { v: 1 } }], 'no_stream');
  await a.close();
  const b = new SqliteEventStore(file);
  t.same((await b.readStream('s')).map((e) => e.data), [{ v: 1 }]);
  await b.close();
});
