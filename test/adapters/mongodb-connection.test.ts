/**
 * The MongoDB read store's connection (MONGO_CLIENT_OPTIONS in adapters/mongodb/read-store.ts),
 * against a wire-protocol stand-in (test/helpers/mongo-wire-stand-in.ts; no server here): the
 * settings reach the driver and the connection string wins over them; a server that stops
 * answering makes an in-flight read fail with a driver error instead of hanging, and the same
 * client reconnects on its own once the server answers again (the caller's retry succeeds).
 */
import t from 'tap';
import { MongoError } from 'mongodb';
import { MONGO_CLIENT_OPTIONS, MongoReadStore } from '../../adapters/mongodb/read-store.js';
import { startMongoWireStandIn } from '../helpers/mongo-wire-stand-in.js';

t.test('connect applies the settings; the connection string wins', async (t) => {
  const server = await startMongoWireStandIn();
  t.teardown(() => server.close());
  const store = await MongoReadStore.connect(server.url(), 'db', {});
  const o = store.client.options;
  const { ignoreUndefined, ...timings } = MONGO_CLIENT_OPTIONS;
  t.strictSame(
    {
      serverSelectionTimeoutMS: o.serverSelectionTimeoutMS,
      connectTimeoutMS: o.connectTimeoutMS,
      heartbeatFrequencyMS: o.heartbeatFrequencyMS,
      retryReads: o.retryReads,
      retryWrites: o.retryWrites,
    },
    timings,
  );
  t.equal(store.client.bsonOptions.ignoreUndefined, ignoreUndefined);
  t.equal(o.socketTimeoutMS, 0, 'no socket timeout: a silent connection is ended by the monitor (see the next test)');
  await store.close();
  const tuned = await MongoReadStore.connect(
    server.url('serverSelectionTimeoutMS=1500&heartbeatfrequencyms=700'),
    'db',
    {},
  );
  t.equal(tuned.client.options.serverSelectionTimeoutMS, 1500);
  t.equal(tuned.client.options.heartbeatFrequencyMS, 700, 'option names in any case, as the driver reads them');
  t.equal(tuned.client.options.connectTimeoutMS, 10_000, 'the others still apply');
  await tuned.close();
});

t.test(
  'a server gone silent: the in-flight read rejects (no hang); answering again, the same client reconnects',
  async (t) => {
    const server = await startMongoWireStandIn();
    t.teardown(() => server.close());
    server.collections.set('rm2_checkpoints', [{ _id: 'jobs', position: 5 }]);
    // Short timings to keep the test short; the mechanism is the driver's, whatever the values.
    const store = await MongoReadStore.connect(
      server.url('heartbeatFrequencyMS=500&connectTimeoutMS=1000&serverSelectionTimeoutMS=2000'),
      'db',
      {},
      2,
    );
    t.teardown(() => store.close());
    t.equal(await store.checkpoint('jobs'), 5, 'read through the stand-in');

    server.silent = true;
    const started = Date.now();
    const failed = await store.checkpoint('jobs').then(
      () => undefined,
      (err: unknown) => err,
    );
    const ms = Date.now() - started;
    t.ok(failed instanceof MongoError, `a driver error: ${(failed as Error)?.name}: ${(failed as Error)?.message}`);
    t.ok(ms < 8_000, `rejected after ${ms} ms (heartbeat 500 + its timeout 1000 + the retry's server selection 2000)`);

    const before = server.connections;
    server.silent = false;
    const deadline = Date.now() + 15_000;
    let value: number | undefined;
    while (value === undefined && Date.now() < deadline) {
      value = await store.checkpoint('jobs').catch(() => undefined);
    }
    t.equal(value, 5, "the caller's retry succeeds on the same client");
    t.ok(server.connections > before, 'over new connections the driver opened itself');
  },
);
