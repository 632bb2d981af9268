/**
 * The followers of the live log through store outages (DESIGN §2): the ProjectionRunner and the
 * CheckpointFollower over an event store that fails (test/helpers/faulty-event-store.ts) and a
 * read store that fails for a while. Start-up waits for the stores; a failed batch write is tried
 * again, so no event is skipped and no checkpoint passes an event that is not applied; the read
 * models end equal to a rebuild from zero.
 */
import t from 'tap';
import { MemoryReadStore } from '../../adapters/memory/read-store.js';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { provisionOrganization } from '../../application/provision.js';
import { PROJECTIONS } from '../../projections/all.js';
import type { ReadCollection, ReadDocument, ReadStore } from '../../domain/ports/read-store.js';
import { CheckpointFollower } from '../../projections/follower.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { FaultyEventStore, InjectedConnectionLoss } from '../helpers/faulty-event-store.js';
import { readModelsVersusRebuild } from '../helpers/store-fault-checks.js';

const BACKOFF = { minDelayMs: 5, maxDelayMs: 40 };

/** A memory read store whose every call fails while `failing`; tells `onFailure` of each failure. */
class FlakyReadStore implements ReadStore {
  failing = false;
  failures = 0;
  private waiters: (() => void)[] = [];
  constructor(readonly inner = new MemoryReadStore()) {}
  private check(): void {
    if (!this.failing) return;
    this.failures++;
    for (const w of this.waiters.splice(0)) w();
    throw new InjectedConnectionLoss('read store');
  }
  /** Resolves at the next failure. */
  nextFailure(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  collection<T extends ReadDocument>(name: string): ReadCollection<T> {
    const c = this.inner.collection<T>(name);
    return {
      get: async (id) => (this.check(), c.get(id)),
      put: async (doc) => (this.check(), c.put(doc)),
      delete: async (id) => (this.check(), c.delete(id)),
      find: async (q) => (this.check(), c.find(q)),
      count: async (f) => (this.check(), c.count(f)),
    };
  }
  ensureIndexes: ReadStore['ensureIndexes'] = async (c, i) => this.inner.ensureIndexes(c, i);
  checkpoint: ReadStore['checkpoint'] = async (p) => (this.check(), this.inner.checkpoint(p));
  setCheckpoint: ReadStore['setCheckpoint'] = async (p, n) => (this.check(), this.inner.setCheckpoint(p, n));
  close: ReadStore['close'] = () => this.inner.close();
}

const provision = (store: SqliteEventStore, name: string) =>
  provisionOrganization(store, {
    name,
    ownerName: 'O',
    subscriptionCredits: 5,
    expiresAt: null,
    now: new Date().toISOString(),
  });

t.test(
  'the projection runner: start-up waits for the event store; a failing read store holds the batch back, nothing is skipped',
  async (t) => {
    const sqlite = new SqliteEventStore(':memory:');
    const store = new FaultyEventStore(sqlite);
    for (let i = 0; i < 5; i++) await provision(sqlite, `Before ${i}`);
    const reads = new FlakyReadStore();
    store.dropSubscriptionsEvery(3);
    store.failFor(300);
    const runner = new ProjectionRunner(store, reads, [...PROJECTIONS], { backoff: BACKOFF });
    const startedAt = Date.now();
    await runner.catchUp();
    const head = await sqlite.headPosition();
    t.equal(runner.position, head, `caught up with the head (${head}) after the outage`);
    t.ok(Date.now() - startedAt >= 250, 'start-up waited for the event store');

    // The read store fails: new events wait, and their checkpoints stay behind them.
    reads.failing = true;
    const failed = reads.nextFailure();
    const later = await provision(sqlite, 'During');
    await failed;
    await reads.nextFailure(); // tried again
    t.ok(runner.position < later.position, 'the events are not announced while they cannot be written');
    for (const p of PROJECTIONS)
      t.ok((await reads.inner.checkpoint(p.name)) <= head, `checkpoint of ${p.name} not past an unapplied event`);
    reads.failing = false;
    t.equal(await runner.waitFor(later.position, 10_000), true, 'applied once the read store answers again');
    for (let i = 0; i < 3; i++) await provision(sqlite, `After ${i}`);
    t.equal(await runner.waitFor(await sqlite.headPosition(), 10_000), true, 'and follows on');

    const rebuilt = await readModelsVersusRebuild(sqlite, reads.inner);
    t.same(rebuilt.differences, [], `equal to a rebuild from zero (${rebuilt.documents} documents)`);
    t.ok(
      store.counts.subscriptionsDropped > 0 && store.counts.readsFailed > 0 && reads.failures >= 2,
      `faults injected: ${JSON.stringify(store.counts)}, read store ${reads.failures}`,
    );
    await runner.stop();
    await sqlite.close();
  },
);

t.test(
  'the checkpoint follower: start-up and the checkpoint reads wait for failing stores; it follows through dropped subscriptions',
  async (t) => {
    const sqlite = new SqliteEventStore(':memory:');
    const store = new FaultyEventStore(sqlite);
    await provision(sqlite, 'Before');
    const shared = new FlakyReadStore();
    const projector = new ProjectionRunner(sqlite, shared.inner, [...PROJECTIONS]);
    await projector.catchUp();

    store.failFor(200);
    shared.failing = true;
    const follower = new CheckpointFollower(
      store,
      shared,
      PROJECTIONS.map((p) => p.name),
      { backoff: BACKOFF },
    );
    const caughtUp = follower.catchUp();
    await shared.nextFailure();
    shared.failing = false;
    await caughtUp;
    t.equal(follower.position, await sqlite.headPosition(), 'caught up once both stores answer');

    store.dropSubscriptionsEvery(2);
    const last = await provision(sqlite, 'After');
    shared.failing = true;
    await shared.nextFailure();
    shared.failing = false;
    t.equal(
      await follower.waitFor(last.position, 10_000),
      true,
      'follows new events through failed checkpoint reads and drops',
    );
    t.ok(follower.position <= projector.position, 'never ahead of the projector');
    t.ok(store.counts.subscriptionsDropped > 0, `subscriptions dropped: ${JSON.stringify(store.counts)}`);
    await follower.stop();
    await projector.stop();
    await sqlite.close();
  },
);

t.test('a follower stopped while its store is down stops at once', async (t) => {
  const sqlite = new SqliteEventStore(':memory:');
  const store = new FaultyEventStore(sqlite);
  await provision(sqlite, 'Before');
  const runner = new ProjectionRunner(store, new MemoryReadStore(), [...PROJECTIONS], {
    backoff: { minDelayMs: 60_000, maxDelayMs: 60_000 },
  });
  await runner.catchUp();
  store.failFor(60_000);
  const stoppedAt = Date.now();
  await runner.stop();
  t.ok(Date.now() - stoppedAt < 1000, 'not held by the 60 s backoff');
  await sqlite.close();
});
