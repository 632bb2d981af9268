/**
 * The read store's hot path: the health decorator (adapters/health/watched-stores.ts) hands out
 * one watched collection per collection of the store and reports a get or find that throws
 * instead of rejecting like one that rejects; the SQLite read store (adapters/sqlite/read-store.ts)
 * reuses a find's and a count's prepared statement, which still reads what was written since.
 */
import t from 'tap';
import { DependencyHealth } from '../../adapters/health/dependency-health.js';
import { watchReadStore } from '../../adapters/health/watched-stores.js';
import { MemoryReadStore } from '../../adapters/memory/read-store.js';
import { SqliteReadStore } from '../../adapters/sqlite/read-store.js';
import type { ReadCollection, ReadDocument, ReadStore } from '../../domain/ports/read-store.js';

const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { code: 'ECONNREFUSED' });

t.test(
  'the watched read store: one collection object per collection; a throwing get is a reported rejection',
  async (t) => {
    const inner = new MemoryReadStore();
    let throwing = false;
    const store: ReadStore = {
      collection<T extends ReadDocument>(name: string): ReadCollection<T> {
        const c = inner.collection<T>(name);
        if (!throwing) return c;
        return {
          ...c,
          get: () => {
            throw refused();
          },
          find: () => {
            throw refused();
          },
        };
      },
      ensureIndexes: (c, i) => inner.ensureIndexes(c, i),
      checkpoint: (p) => inner.checkpoint(p),
      setCheckpoint: (p, n) => inner.setCheckpoint(p, n),
      close: () => inner.close(),
    };
    const health = new DependencyHealth({
      used: ['event_store', 'read_store'],
      needed: ['read_store'],
      graceMs: 60_000,
    });
    const reads = watchReadStore(store, health, { probeMs: 60_000 });
    t.teardown(() => reads.stopWatching());
    t.equal(reads.collection('jobs'), reads.collection('jobs'), 'the same watched collection for the same collection');
    t.not(reads.collection('jobs'), reads.collection('balances'));
    await reads.collection('jobs').put({ id: 'job_1' });
    t.same(await reads.collection('jobs').get('job_1'), { id: 'job_1' });
    t.same(await reads.collection('jobs').find({}), [{ id: 'job_1' }]);
    t.equal(health.isDown('read_store'), false);

    throwing = true;
    let got: Promise<unknown> | undefined;
    t.doesNotThrow(() => {
      got = reads.collection('jobs').get('job_1');
    }, 'a get that throws is handed back as a rejection');
    await t.rejects(got!, { code: 'ECONNREFUSED' });
    t.equal(health.isDown('read_store'), true, 'and reported: the read store is down');
    await t.rejects(reads.collection('jobs').find({}), { code: 'ECONNREFUSED' });

    throwing = false;
    t.same(await reads.collection('jobs').get('job_1'), { id: 'job_1' });
    t.equal(health.isDown('read_store'), false, 'the next success marks it up');
  },
);

t.test('SQLite finds and counts reuse their statements and read what was written since', async (t) => {
  const reads = new SqliteReadStore(':memory:', 'test');
  t.teardown(() => reads.close());
  const jobs = reads.collection<{ id: string; orgId: string; n: number }>('jobs');
  const page = () => jobs.find({ where: { orgId: 'org_a' }, sortBy: 'n', limit: 2 });
  await jobs.put({ id: 'j1', orgId: 'org_a', n: 3 });
  t.same(
    (await page()).map((d) => d.id),
    ['j1'],
  );
  t.equal(await jobs.count({ where: { orgId: 'org_a' } }), 1);
  await jobs.put({ id: 'j2', orgId: 'org_a', n: 1 });
  await jobs.put({ id: 'j3', orgId: 'org_b', n: 0 });
  t.same(
    (await page()).map((d) => d.id),
    ['j2', 'j1'],
    'the same query again sees the new documents',
  );
  t.equal(await jobs.count({ where: { orgId: 'org_a' } }), 2);
  t.same(
    (await jobs.find({ where: { orgId: 'org_b' }, sortBy: 'n', limit: 2 })).map((d) => d.id),
    ['j3'],
    'other values bound to the same statement',
  );
  // More shapes than the statements kept: the oldest are dropped, every query still answers.
  for (let limit = 1; limit <= 80; limit++) t.equal((await jobs.find({ limit })).length, Math.min(limit, 3));
  t.same(
    (await page()).map((d) => d.id),
    ['j2', 'j1'],
  );
});
