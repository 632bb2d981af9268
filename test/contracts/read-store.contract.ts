/** Contract every ReadStore adapter must honour (domain/ports/read-store.ts). */
import type { Test } from 'tap';
import type { ReadStore } from '../../domain/ports/read-store.js';

interface Doc {
  id: string;
  org: string;
  n: number;
}

export function readStoreContract(t: Test, open: () => Promise<ReadStore>): void {
  t.test('put, get, replace and delete documents', async (t) => {
    const store = await open();
    const c = store.collection<Doc>('docs');
    await c.put({ id: 'a', org: 'o1', n: 1 });
    t.same(await c.get('a'), { id: 'a', org: 'o1', n: 1 });
    await c.put({ id: 'a', org: 'o1', n: 2 });
    t.equal((await c.get('a'))?.n, 2);
    await c.delete('a');
    t.equal(await c.get('a'), undefined);
  });

  t.test('returned documents are copies', async (t) => {
    const store = await open();
    const c = store.collection<Doc>('copies');
    await c.put({ id: 'a', org: 'o1', n: 1 });
    const doc = (await c.get('a'))!;
    doc.n = 99;
    t.equal((await c.get('a'))?.n, 1);
  });

  t.test('find filters by equality, sorts and limits', async (t) => {
    const store = await open();
    const c = store.collection<Doc>('find');
    for (const [id, org, n] of [['a', 'o1', 3], ['b', 'o2', 1], ['c', 'o1', 2], ['d', 'o1', 5]] as const) {
      await c.put({ id, org, n });
    }
    t.same((await c.find({ where: { org: 'o1' }, sortBy: 'n' })).map((d) => d.id), ['c', 'a', 'd']);
    t.same((await c.find({ where: { org: 'o1' }, sortBy: 'n', descending: true, limit: 2 })).map((d) => d.id), ['d', 'a']);
    t.equal((await c.find()).length, 4);
  });

  t.test('checkpoints start at 0 and keep the last value', async (t) => {
    const store = await open();
    t.equal(await store.checkpoint('p'), 0);
    await store.setCheckpoint('p', 42);
    t.equal(await store.checkpoint('p'), 42);
  });
}
