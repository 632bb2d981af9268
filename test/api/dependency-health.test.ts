/**
 * Dependency health (adapters/health/dependency-health.ts) and the watching decorators around the store ports
 * (adapters/health/watched-stores.ts): which failures mark a dependency down, the next success or a probe
 * marks it up, the grace period, what each role needs.
 */
import t from 'tap';
import { MemoryReadStore } from '../../adapters/memory/read-store.js';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { DependencyHealth, failedDependencyOf, neededBy } from '../../adapters/health/dependency-health.js';
import { isStoreFailure } from '../../domain/ports/store-unavailable.js';
import { watchEventStore, watchReadStore } from '../../adapters/health/watched-stores.js';
import { DomainError } from '../../domain/errors.js';
import { ConcurrencyError, type EventStore, type RecordedEvent } from '../../domain/ports/event-store.js';
import type { ReadCollection, ReadDocument, ReadStore } from '../../domain/ports/read-store.js';

/** An engine that refuses connections while `down` is true. */
function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:2113'), { code: 'ECONNREFUSED' });
}

/** `inner` failing every call with a connection error while `switch.down`, and with `switch.error` when set. */
function faultyStore(inner: EventStore, fault: { down: boolean; error?: Error }): EventStore {
  const guard = <T>(call: () => Promise<T>): Promise<T> => {
    if (fault.error) return Promise.reject(fault.error);
    return fault.down ? Promise.reject(refused()) : call();
  };
  return {
    append: (s, e, x) => guard(() => inner.append(s, e, x)),
    readStream: (s, f) => guard(() => inner.readStream(s, f)),
    readLastEvent: (s) => guard(() => inner.readLastEvent(s)),
    readAll: (a, l) => guard(() => inner.readAll(a, l)),
    headPosition: () => guard(() => inner.headPosition()),
    deleteStream: (s) => guard(() => inner.deleteStream(s)),
    subscribeAll: (a) => inner.subscribeAll(a),
    close: () => inner.close(),
  };
}

/** Resolves once `check()` holds (polled every 10 ms); rejects after 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

t.test(
  'a dependency down shorter than the grace period is degraded; a needed one past it is down; one not needed stays degraded',
  async (t) => {
    let now = Date.parse('2026-11-26T00:00:00.000Z');
    const health = new DependencyHealth({
      used: ['event_store', 'read_store'],
      needed: neededBy(['api']),
      graceMs: 60_000,
      now: () => now,
    });
    t.same(
      health.report(),
      { status: 'ok', dependencies: { event_store: 'up', read_store: 'up' } },
      'no bus for an API process',
    );

    health.markDown('event_store', 'connection refused');
    t.equal(health.downForMs('event_store'), 0);
    now += 120_000;
    t.equal(health.downForMs('event_store'), 120_000);
    t.equal(health.downForMs('read_store'), 0, 'up');
    health.markDown('event_store', 'again'); // the first failure's time is kept
    t.same(
      health.report(),
      { status: 'degraded', dependencies: { event_store: 'down since 2026-11-26T00:00:00.000Z', read_store: 'up' } },
      'the API needs no event store to answer reads',
    );

    health.markDown('read_store', 'timeout');
    t.equal(health.report().status, 'degraded', 'read store down for less than the grace period');
    now += 60_000;
    t.equal(health.report().status, 'degraded', 'exactly the grace period: still degraded');
    now += 1;
    t.same(health.report(), {
      status: 'down',
      dependencies: {
        event_store: 'down since 2026-11-26T00:00:00.000Z',
        read_store: 'down since 2026-11-26T00:02:00.000Z',
      },
    });

    health.markUp('read_store');
    health.markUp('event_store');
    t.same(health.report(), { status: 'ok', dependencies: { event_store: 'up', read_store: 'up' } });
  },
);

t.test('what each role needs', async (t) => {
  t.same([...neededBy(['api'])].sort(), ['read_store']);
  t.same([...neededBy(['solver'])].sort(), ['bus', 'event_store']);
  t.same([...neededBy(['projector'])].sort(), ['event_store', 'read_store']);
  t.same([...neededBy(['scheduler'])].sort(), ['bus', 'event_store', 'read_store']);
  t.same([...neededBy(['api', 'solver'])].sort(), ['bus', 'event_store', 'read_store']);
});

t.test('the bus reports its own state changes, with their time', async (t) => {
  const health = new DependencyHealth({
    used: ['event_store', 'read_store', 'bus'],
    needed: neededBy(['solver']),
    graceMs: 1000,
    now: () => Date.parse('2026-11-26T00:00:05.000Z'),
  });
  const changes: string[] = [];
  health.onChange((d, state) => changes.push(`${d} ${state}`));
  health.busStatus({ state: 'down', since: '2026-11-26T00:00:01.500Z', reason: 'disconnected' });
  t.same(health.report(), {
    status: 'down',
    dependencies: { event_store: 'up', read_store: 'up', bus: 'down since 2026-11-26T00:00:01.500Z' },
  });
  health.busStatus({ state: 'up', since: '2026-11-26T00:00:06.000Z' });
  t.equal(health.report().status, 'ok');
  t.same(changes, ['bus down', 'bus up']);
});

t.test('infrastructure failures, not refusals, mark a store down', async (t) => {
  t.ok(isStoreFailure(refused()));
  t.ok(isStoreFailure(Object.assign(new Error('database is locked'), { name: 'SqliteError', code: 'SQLITE_BUSY' })));
  t.notOk(isStoreFailure(new ConcurrencyError('job-1', 3, 4)), 'a lost race');
  t.notOk(isStoreFailure(new DomainError('job_not_found', 'no such job')));
  t.notOk(isStoreFailure(Object.assign(new Error('event of 3 MB'), { name: 'EventTooLarge' })), 'a size refusal');
  t.notOk(isStoreFailure(new RangeError('limit must be positive')));
  t.notOk(
    isStoreFailure(Object.assign(new Error('body chunks do not match their digest'), { name: 'JobBodyCorruptError' })),
    'a body that does not decode',
  );
});

t.test(
  'the event store decorator: down on an infrastructure failure, up on the next success; errors pass through unchanged',
  async (t) => {
    const inner = new SqliteEventStore(':memory:');
    const fault: { down: boolean; error?: Error } = { down: false };
    const health = new DependencyHealth({
      used: ['event_store', 'read_store'],
      needed: ['event_store'],
      graceMs: 60_000,
    });
    const store = watchEventStore(faultyStore(inner, fault), health, { probeMs: 60_000 });
    t.teardown(async () => {
      store.stopWatching();
      await inner.close();
    });

    await store.append('job-1', [{ id: 'e1', type: 'Happened', data: {} }], 'no_stream');
    t.equal(health.report().status, 'ok');

    fault.error = new ConcurrencyError('job-1', 0, 1);
    await t.rejects(store.append('job-1', [{ id: 'e2', type: 'Happened', data: {} }], 0), ConcurrencyError);
    t.equal(health.isDown('event_store'), false, 'a ConcurrencyError is no outage');
    t.equal(failedDependencyOf(fault.error), undefined);
    delete fault.error;

    fault.down = true;
    const failure = await store.readStream('job-1').then(
      () => undefined,
      (err: unknown) => err,
    );
    t.match(failure, { code: 'ECONNREFUSED' }, 'the driver error itself reaches the caller');
    t.equal(health.isDown('event_store'), true);
    t.equal(failedDependencyOf(failure), 'event_store', 'noted for the error middleware (503)');
    t.equal(failedDependencyOf(new Error('wrapped', { cause: failure })), 'event_store', 'also when wrapped');
    t.match(health.report().dependencies.event_store, /^down since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    fault.down = false;
    t.same(
      (await store.readStream('job-1')).map((e: RecordedEvent) => e.id),
      ['e1'],
    );
    t.equal(health.isDown('event_store'), false, 'the next success marks it up');
  },
);

t.test('a quiet process: while the event store is down a probe marks it up once it answers', async (t) => {
  const inner = new SqliteEventStore(':memory:');
  const fault = { down: true };
  const health = new DependencyHealth({
    used: ['event_store', 'read_store'],
    needed: ['event_store'],
    graceMs: 60_000,
  });
  const store = watchEventStore(faultyStore(inner, fault), health, { probeMs: 20 });
  t.teardown(async () => {
    store.stopWatching();
    await inner.close();
  });
  await t.rejects(store.headPosition());
  t.equal(health.isDown('event_store'), true);
  fault.down = false;
  await until(() => !health.isDown('event_store'), 'the probe to find the event store back');
  t.pass('up again without any call of the process');
});

t.test('a failing subscription marks the event store down; its next event marks it up', async (t) => {
  const health = new DependencyHealth({
    used: ['event_store', 'read_store'],
    needed: ['event_store'],
    graceMs: 60_000,
  });
  let fail = true;
  const event: RecordedEvent = {
    id: 'e',
    type: 'T',
    data: {},
    metadata: {},
    stream: 's',
    revision: 0,
    position: 1,
    recordedAt: '2026-11-26T00:00:00.000Z',
  };
  const inner = {
    subscribeAll: () => ({
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          if (fail) throw refused();
          return { done: false, value: event };
        },
      }),
      close: () => undefined,
    }),
  } as unknown as EventStore;
  const store = watchEventStore(inner, health, { probeMs: 60_000 });
  t.teardown(() => store.stopWatching());
  const iterator = store.subscribeAll(0)[Symbol.asyncIterator]();
  await t.rejects(iterator.next(), { code: 'ECONNREFUSED' });
  t.equal(health.isDown('event_store'), true);
  fail = false;
  t.same((await iterator.next()).value, event);
  t.equal(health.isDown('event_store'), false);
});

t.test('the read store decorator: down and up like the event store, atomically kept', async (t) => {
  const inner = new MemoryReadStore();
  let down = false;
  const failing: ReadStore = {
    collection<T extends ReadDocument>(name: string): ReadCollection<T> {
      const c = inner.collection<T>(name);
      return {
        get: (id) => (down ? Promise.reject(refused()) : c.get(id)),
        put: (doc) => (down ? Promise.reject(refused()) : c.put(doc)),
        delete: (id) => c.delete(id),
        find: (q) => (down ? Promise.reject(refused()) : c.find(q)),
        count: (f) => c.count(f),
      };
    },
    ensureIndexes: (c, i) => inner.ensureIndexes(c, i),
    checkpoint: (p) => (down ? Promise.reject(refused()) : inner.checkpoint(p)),
    setCheckpoint: (p, n) => inner.setCheckpoint(p, n),
    atomically: (work) => work(),
    close: () => inner.close(),
  };
  const health = new DependencyHealth({ used: ['event_store', 'read_store'], needed: ['read_store'], graceMs: 60_000 });
  const reads = watchReadStore(failing, health, { probeMs: 20 });
  t.teardown(() => reads.stopWatching());
  t.equal(typeof reads.atomically, 'function', 'a store with transactions keeps them');
  await reads.collection('jobs').put({ id: 'job_1' });
  down = true;
  await t.rejects(reads.collection('jobs').get('job_1'), { code: 'ECONNREFUSED' });
  t.equal(health.isDown('read_store'), true);
  t.equal(health.report().dependencies.read_store?.startsWith('down since '), true);
  down = false;
  await until(() => !health.isDown('read_store'), 'the probe to find the read store back');
  t.same(await reads.collection('jobs').get('job_1'), { id: 'job_1' });
  const plain = watchReadStore(new MemoryReadStore(), health);
  plain.stopWatching();
  t.equal(typeof plain.atomically, 'undefined', 'none invented for a store without transactions');
});
