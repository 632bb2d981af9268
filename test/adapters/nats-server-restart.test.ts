/**
 * The test helper that starts a real `nats-server` (test/helpers/nats-server.ts) stops it and
 * starts it again on the same port: on the same JetStream store a stream and its messages are
 * still there, with `emptyStore` they are gone; the final stop removes the store dirs it made.
 * The NATS outage test (test/e2e/nats-outage.test.ts) relies on both.
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import { connect } from 'nats';
import { natsServerBinary, startNatsServer } from '../helpers/nats-server.js';

/** Messages in `stream`, or null when the server has no such stream. */
async function streamMessages(url: string, stream: string): Promise<number | null> {
  const nc = await connect({ servers: url, reconnect: false });
  try {
    const jsm = await nc.jetstreamManager();
    return (await jsm.streams.info(stream)).state.messages;
  } catch (err) {
    if (String(err).includes('stream not found')) return null;
    throw err;
  } finally {
    await nc.close();
  }
}

if (!natsServerBinary()) {
  if (process.env['CI']) t.fail('nats-server is not installed, and CI must run the NATS tests');
  else t.pass('skipped: no nats-server', { skip: "nats-server is not installed (bash .ci/run installs Debian's)" });
} else {
  t.test('stop and start again on the same port: same store keeps the stream, an empty store loses it', async (t) => {
    const server = await startNatsServer();
    t.teardown(() => server.stop());
    const firstStore = server.storeDir;
    const nc = await connect({ servers: server.url });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'KEEP', subjects: ['keep.>'] });
    await nc.jetstream().publish('keep.one', new TextEncoder().encode('1'));
    await nc.close();
    t.equal(await streamMessages(server.url, 'KEEP'), 1);

    const firstReady = server.readyAt;
    await server.stop({ keepStore: true });
    t.notOk(server.running, 'stopped');
    t.ok(Number.isNaN(server.readyAt), 'no ready time while stopped');
    await t.rejects(streamMessages(server.url, 'KEEP'), 'nothing answers on the port while stopped');

    await server.start();
    t.ok(server.running, 'running again');
    t.ok(server.readyAt >= firstReady, 'a new ready time');
    t.equal(server.storeDir, firstStore, 'on the same store dir');
    t.equal(await streamMessages(server.url, 'KEEP'), 1, 'the stream and its message survived on the same port');
    await t.rejects(server.start(), /is running/, 'starting a running server is refused');

    await server.stop({ keepStore: true });
    await server.start({ emptyStore: true });
    t.not(server.storeDir, firstStore, 'on a new store dir');
    t.equal(await streamMessages(server.url, 'KEEP'), null, 'the stream is gone with an empty store');
    const secondStore = server.storeDir;

    await server.stop();
    t.same(
      [existsSync(firstStore), existsSync(secondStore)],
      [false, false],
      'the final stop removed both store dirs it made',
    );
  });
}
