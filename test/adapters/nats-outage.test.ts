/**
 * The NATS bus through network faults and server restarts (DESIGN §2, distributed profile): a
 * cut longer than the client's old 20 s give-up, a stalled connection, a slow one, a server
 * restarted with an empty store, a server that refuses the client's credentials, a process
 * started before its server. Faults come from test/helpers/tcp-fault-proxy.ts; restarts on the
 * same port from test/helpers/nats-server.ts.
 */
import t, { type Test } from 'tap';
import { Writable } from 'node:stream';
import { JSONCodec, connect, type JetStreamManager } from 'nats';
import { pino } from 'pino';
import { NatsBus, durableName, type NatsBusStatus, type NatsBusTimings } from '../../adapters/nats/bus.js';
import { FAST_NATS_BUS_TIMINGS } from '../helpers/nats-bus-timings.js';
import { natsServerBinary, startNatsServer } from '../helpers/nats-server.js';
import { startTcpFaultProxy } from '../helpers/tcp-fault-proxy.js';

/** Short waits so an outage test takes seconds beyond its fault: a stall is found within 1.5 s. */
const FAST: NatsBusTimings = FAST_NATS_BUS_TIMINGS;
/** Longest time from a stall to status `down` with {@link FAST}: (maxPingOut + 1) pings. */
const STALL_BOUND_MS = (FAST.maxPingOut + 1) * FAST.pingIntervalMs;
/** Length of the cut: longer than the client's default give-up (10 attempts 2 s apart). */
const CUT_MS = 30_000;
/** Length of the cut in the middle of a stream of publishes, and the pace of that stream. */
const SHORT_CUT_MS = 3000;
const STREAM_PACE_MS = 100;

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** Resolves once `check()` holds, polling every 20 ms; fails after `timeoutMs`. */
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A pino logger whose JSON lines land in `lines` (with the time each was written). */
function capturedLog(): { lines: { at: number; level: number; msg: string; reason?: string }[]; log: pino.Logger } {
  const lines: { at: number; level: number; msg: string; reason?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line) lines.push({ at: Date.now(), ...(JSON.parse(line) as { level: number; msg: string }) });
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, sink) };
}

type Job = { v: number };

// No failure of the bus may escape as an unhandled rejection; the last subtest checks.
const rejections: unknown[] = [];
const onRejection = (reason: unknown): void => {
  rejections.push(reason);
};
process.on('unhandledRejection', onRejection);
t.teardown(() => {
  process.off('unhandledRejection', onRejection);
});

if (!natsServerBinary()) {
  t.plan(0, 'nats-server is not on PATH: NATS outage tests skipped (apt-get install -y nats-server)');
} else {
  const server = await startNatsServer();
  const admin = await connect({ servers: server.url });
  const jsm: JetStreamManager = await admin.jetstreamManager();
  t.teardown(async () => {
    await admin.close();
    await server.stop();
  });

  let n = 0;
  /** A bus on its own stream through a new fault proxy, with FAST timings; statuses and log lines recorded. */
  async function proxiedBus(t: Test) {
    n += 1;
    const proxy = await startTcpFaultProxy({ port: server.port });
    const statuses: NatsBusStatus[] = [];
    const { lines, log } = capturedLog();
    const stream = `OUT${n}`;
    const bus = await NatsBus.connect({
      servers: `nats://127.0.0.1:${proxy.port}`,
      stream,
      subjects: [`out${n}.>`],
      ackWaitMs: 30_000,
      pullExpiresMs: 1000,
      log,
      onStatus: (s) => statuses.push(s),
      timings: FAST,
    });
    t.teardown(async () => {
      await bus.close();
      await proxy.close();
    });
    return { bus, proxy, statuses, lines, stream, subject: `out${n}.solve` };
  }
  /** Consumes `subject`, acking each message; `seen` lists the ids in delivery order. */
  function recording(bus: NatsBus, subject: string) {
    const seen: string[] = [];
    const consumer = bus.consume<Job>(subject, async (m) => {
      seen.push(m.id);
      m.ack();
    });
    return { seen, consumer };
  }

  t.test(
    `a ${CUT_MS / 1000} s cut: every message once, the consumer takes messages again, down then up once`,
    async (t) => {
      const { bus, proxy, statuses, lines, stream, subject } = await proxiedBus(t);
      let consoleErrors = 0;
      const consoleError = console.error;
      console.error = (...args: unknown[]) => {
        consoleErrors += 1;
        consoleError(...args);
      };
      t.teardown(() => {
        console.error = consoleError;
      });
      const { seen, consumer } = recording(bus, subject);
      await bus.publish(subject, 'before-1', { v: 1 });
      await bus.publish(subject, 'before-2', { v: 2 });
      await until(() => seen.length === 2);
      // Both acks reached the server before the cut: an ack still in flight would be lost with the
      // connection, and JetStream redelivers such a message after its ack wait (at least once).
      await until(async () => (await jsm.consumers.info(stream, durableName(subject))).num_ack_pending === 0);

      await proxy.cut();
      const cutAt = Date.now();
      await until(() => bus.status.state === 'down');
      // Published while the bus is cut off, by a process that still reaches the server.
      await admin.jetstream().publish(subject, JSONCodec().encode({ v: 3 }), { msgID: 'during-1' });
      // A publish through the cut bus waits publishWaitMs for the connection, then says why it failed.
      await t.rejects(bus.publish(subject, 'never-sent', { v: 0 }), /NATS bus is down since .*disconnected from/);
      // The fault itself lasts a fixed time: that is what is tested.
      await new Promise((resolve) => setTimeout(resolve, CUT_MS - (Date.now() - cutAt)));
      t.same(seen, ['before-1', 'before-2'], 'nothing arrives while cut off');
      t.equal(bus.status.state, 'down', `still down after ${CUT_MS} ms: the bus never gave up`);
      const linesWhileCut = lines.filter((l) => l.at >= cutAt).length;

      // Issued while still cut off: it waits for the connection instead of being dropped by the client.
      const atRestore = bus.publish(subject, 'at-restore', { v: 4 });
      await proxy.restore();
      const restoredAt = Date.now();
      await atRestore;
      await until(() => bus.status.state === 'up');
      await bus.publish(subject, 'after-1', { v: 5 });
      await until(() => seen.length >= 5);
      const firstAfter = Date.now() - restoredAt;
      await until(async () => (await jsm.consumers.info(stream, durableName(subject))).num_ack_pending === 0);
      const info = await jsm.consumers.info(stream, durableName(subject));
      t.same(
        [...seen].sort(),
        ['after-1', 'at-restore', 'before-1', 'before-2', 'during-1'],
        'each message delivered once',
      );
      t.equal(info.delivered.consumer_seq, 5, 'the server made five deliveries');
      t.equal(info.num_redelivered, 0, 'none of them again');
      t.equal((await jsm.streams.info(stream)).state.messages, 0, 'the work queue is empty');

      t.same(
        statuses.map((s) => s.state),
        ['down', 'up'],
        'status: down once, then up once',
      );
      t.match(statuses[0]!.reason, /disconnected from/);
      t.ok(
        statuses.every((s) => RFC3339.test(s.since)),
        `since is RFC 3339: ${statuses.map((s) => s.since).join(', ')}`,
      );
      t.ok(
        Date.parse(statuses[1]!.since) >= Date.parse(statuses[0]!.since) + CUT_MS - 1000,
        'up since the restore, down since the cut',
      );
      t.equal(bus.status.reason, undefined, 'no reason while up');
      const stateLines = lines.map((l) => l.msg).filter((m) => /disconnected|reconnect/.test(m));
      t.same(
        stateLines,
        ['nats bus: disconnected', 'nats bus: reconnecting', 'nats bus: reconnected'],
        'one line per change of state',
      );
      t.ok(
        linesWhileCut <= 4,
        `${linesWhileCut} log lines in ${CUT_MS / 1000} s of cut (${(linesWhileCut / (CUT_MS / 1000)).toFixed(2)}/s)`,
      );
      t.equal(consoleErrors, 0, 'nothing written with console.error');
      t.comment(`first delivery ${firstAfter} ms after the restore; ${linesWhileCut} log lines while cut`);
      await consumer.close();
    },
  );

  t.test(
    `a ${SHORT_CUT_MS / 1000} s cut in the middle of a stream of publishes: every message published is delivered exactly once`,
    async (t) => {
      const { bus, proxy, statuses, stream, subject } = await proxiedBus(t);
      const { seen, consumer } = recording(bus, subject);
      const ids: string[] = [];
      const publishes: Promise<void>[] = [];
      let retries = 0;
      /** Publishes message `i` without waiting for it; a publish that throws is tried again with the same id. */
      const publishOne = (i: number): void => {
        const id = `m-${i}`;
        ids.push(id);
        publishes.push(
          (async () => {
            for (;;) {
              try {
                return await bus.publish(subject, id, { v: i });
              } catch {
                retries += 1;
                await new Promise((resolve) => setTimeout(resolve, 50));
              }
            }
          })(),
        );
      };
      /** Publishes a message every STREAM_PACE_MS for `ms`, numbered from `from`; resolves with the next number. */
      const publishFor = async (from: number, ms: number): Promise<number> => {
        const started = Date.now();
        let i = from;
        while (Date.now() - started < ms) {
          publishOne(i);
          i += 1;
          await new Promise((resolve) => setTimeout(resolve, STREAM_PACE_MS));
        }
        return i;
      };

      let next = await publishFor(0, 1000);
      await until(() => seen.length === next);
      // Every ack reached the server: what the cut loses is a publish, never a settlement.
      await until(async () => (await jsm.consumers.info(stream, durableName(subject))).num_ack_pending === 0);
      const before = next;
      // A publish on its way as the connection is cut.
      publishOne(next);
      next += 1;
      await proxy.cut();
      const cutAt = Date.now();
      next = await publishFor(next, SHORT_CUT_MS - (Date.now() - cutAt));
      const during = next - before;
      await proxy.restore();
      next = await publishFor(next, 1000);
      await Promise.all(publishes);
      await until(() => seen.length >= ids.length);
      await until(async () => (await jsm.consumers.info(stream, durableName(subject))).num_ack_pending === 0);
      const info = await jsm.consumers.info(stream, durableName(subject));

      t.same(
        [...seen].sort(),
        [...ids].sort(),
        `each of the ${ids.length} messages delivered (${before} before the cut, ${during} during it)`,
      );
      t.equal(new Set(seen).size, seen.length, 'none delivered twice');
      t.equal(
        info.delivered.consumer_seq,
        ids.length,
        'the server stored and delivered each message once (retried publishes deduplicated by id)',
      );
      t.equal(info.num_redelivered, 0, 'no redelivery');
      t.equal((await jsm.streams.info(stream)).state.messages, 0, 'the work queue is empty');
      t.ok(retries > 0, `publishes made during the cut failed and were tried again (${retries} retries)`);
      t.same(
        statuses.map((s) => s.state),
        ['down', 'up'],
        'down once, up once',
      );
      t.comment(`${ids.length} messages, ${during} published during the ${SHORT_CUT_MS} ms cut, ${retries} retries`);
      await consumer.close();
    },
  );

  t.test(
    `a stalled connection is found within ${STALL_BOUND_MS} ms (pings) and replaced when bytes flow again`,
    async (t) => {
      const { bus, proxy, statuses, subject } = await proxiedBus(t);
      const { seen, consumer } = recording(bus, subject);
      await bus.publish(subject, 's-1', { v: 1 });
      await until(() => seen.length === 1);
      const stalledAt = Date.now();
      proxy.stall();
      await until(() => bus.status.state === 'down', 10_000);
      const found = Date.now() - stalledAt;
      // A loaded machine runs each of the ping timers late: three intervals of slack.
      t.ok(found <= STALL_BOUND_MS + 3 * FAST.pingIntervalMs, `found after ${found} ms (bound ${STALL_BOUND_MS} ms)`);
      t.match(bus.status.reason, /stale connection/);
      await proxy.restore();
      await until(() => bus.status.state === 'up');
      await bus.publish(subject, 's-2', { v: 2 });
      await until(() => seen.length === 2);
      t.same(seen, ['s-1', 's-2']);
      t.same(
        statuses.map((s) => s.state),
        ['down', 'up'],
      );
      await consumer.close();
    },
  );

  t.test('a slow connection (pongs late but within the ping budget) stays up and delivers', async (t) => {
    const { bus, proxy, statuses, subject } = await proxiedBus(t);
    const { seen, consumer } = recording(bus, subject);
    proxy.slow(100);
    for (let i = 0; i < 3; i += 1) await bus.publish(subject, `slow-${i}`, { v: i });
    await until(() => seen.length === 3);
    // Several ping rounds, each answered late.
    await new Promise((resolve) => setTimeout(resolve, 4 * FAST.pingIntervalMs));
    t.same(seen, ['slow-0', 'slow-1', 'slow-2']);
    t.same(statuses, [], 'never down');
    t.equal(bus.status.state, 'up');
    await proxy.restore();
    await consumer.close();
  });

  t.test('close() while the server is unreachable neither throws nor waits for it', async (t) => {
    const { bus, proxy, stream, subject } = await proxiedBus(t);
    const { consumer } = recording(bus, subject);
    // The consume loop is pulling (not still making its consumer, a request that would wait for its 5 s timeout).
    await until(async () => {
      try {
        return (await jsm.consumers.info(stream, durableName(subject))).num_waiting >= 1;
      } catch {
        return false;
      }
    });
    await proxy.cut('refuse');
    await until(() => bus.status.state === 'down');
    const started = Date.now();
    await consumer.close();
    await t.resolves(bus.close());
    t.ok(Date.now() - started < 3000, `closed in ${Date.now() - started} ms`);
    t.same(bus.status, { ...bus.status, state: 'down', reason: 'bus closed' });
    await t.rejects(bus.publish(subject, 'x', { v: 0 }), /closed/);
  });

  t.test('a server restarted with an EMPTY store: publish and consume work again on the same bus', async (t) => {
    const restartable = await startNatsServer();
    t.teardown(() => restartable.stop());
    const statuses: NatsBusStatus[] = [];
    const bus = await NatsBus.connect({
      servers: restartable.url,
      stream: 'EMPTY',
      subjects: ['empty.>'],
      pullExpiresMs: 1000,
      onStatus: (s) => statuses.push(s),
      timings: FAST,
    });
    t.teardown(() => bus.close());
    const { seen, consumer } = recording(bus, 'empty.solve');
    await bus.publish('empty.solve', 'm-1', { v: 1 });
    await until(() => seen.length === 1);

    const firstStore = restartable.storeDir;
    await restartable.stop({ keepStore: true });
    await until(() => bus.status.state === 'down');
    await restartable.start({ emptyStore: true });
    t.not(restartable.storeDir, firstStore, 'the new server has another, empty store');
    await until(() => bus.status.state === 'up');
    await bus.publish('empty.solve', 'm-2', { v: 2 });
    await until(() => seen.length === 2);
    t.same(seen, ['m-1', 'm-2'], 'consumed again without a new NatsBus');

    const other = await connect({ servers: restartable.url });
    t.teardown(() => other.close());
    const otherJsm = await other.jetstreamManager();
    t.equal((await otherJsm.streams.info('EMPTY')).config.name, 'EMPTY', 'the stream was made again');
    t.equal(
      (await otherJsm.consumers.info('EMPTY', durableName('empty.solve'))).config.durable_name,
      'empty_solve',
      'and the consumer',
    );
    t.same(
      statuses.map((s) => s.state),
      ['down', 'up'],
    );
    await consumer.close();
  });

  t.test('a process started before its nats-server waits and comes up when the server does', async (t) => {
    const later = await startNatsServer({ stopped: true });
    t.teardown(() => later.stop());
    const statuses: NatsBusStatus[] = [];
    const { lines, log } = capturedLog();
    const connecting = NatsBus.connect({
      servers: later.url,
      stream: 'LATE',
      subjects: ['late.>'],
      log,
      onStatus: (s) => statuses.push(s),
      timings: FAST,
    });
    await until(() => statuses.length === 1);
    t.equal(statuses[0]!.state, 'down');
    t.match(statuses[0]!.reason, /not reachable/);
    await later.start();
    const bus = await connecting;
    t.teardown(() => bus.close());
    t.same(
      statuses.map((s) => s.state),
      ['down', 'up'],
    );
    t.same(
      lines.map((l) => l.msg),
      ['nats bus: waiting for the server', 'nats bus: connected'],
      'one line while waiting, one when connected',
    );
    const { seen, consumer } = recording(bus, 'late.solve');
    await bus.publish('late.solve', 'late-1', { v: 1 });
    await until(() => seen.length === 1);
    t.same(seen, ['late-1']);
    await consumer.close();
  });

  t.test('a connection the client closes for good (credentials refused) is reported down and replaced', async (t) => {
    const restartable = await startNatsServer();
    t.teardown(() => restartable.stop());
    const statuses: NatsBusStatus[] = [];
    const { lines, log } = capturedLog();
    const bus = await NatsBus.connect({
      servers: restartable.url,
      stream: 'AUTH',
      subjects: ['auth.>'],
      pullExpiresMs: 1000,
      log,
      onStatus: (s) => statuses.push(s),
      timings: FAST,
    });
    t.teardown(() => bus.close());
    const { seen, consumer } = recording(bus, 'auth.solve');

    await restartable.stop({ keepStore: true });
    await until(() => bus.status.state === 'down');
    // The same store, but now every client must sign in: the client gives up after two refusals.
    await restartable.start({ args: ['--user', 'someone', '--pass', 'secret'] });
    await until(() => /connection closed/.test(bus.status.reason ?? ''));
    t.match(bus.status.reason, /authorization/i, 'the reason names the refusal');
    await restartable.stop({ keepStore: true });
    await restartable.start();
    await until(() => bus.status.state === 'up');
    await bus.publish('auth.solve', 'a-1', { v: 1 });
    await until(() => seen.length === 1);
    t.same(seen, ['a-1'], 'the consume loop works on the new connection');
    t.same(
      statuses.map((s) => [s.state, /connection closed/.test(s.reason ?? '')]),
      [
        ['down', false],
        ['down', true],
        ['up', false],
      ],
    );
    t.equal(lines.filter((l) => l.msg === 'nats bus: connection closed; making a new one').length, 1);
    t.equal(lines.filter((l) => l.msg === 'nats bus: connected again').length, 1);
    await consumer.close();
  });

  t.test(
    'a stream deleted under a running bus is made again by the next publish, and its consumer by the pull loop',
    async (t) => {
      const { bus, statuses, lines, stream, subject } = await proxiedBus(t);
      const missingLines = () => lines.filter((l) => l.msg.startsWith('nats bus: the stream is missing')).length;
      await bus.publish(subject, 'd-1', { v: 1 });
      await jsm.streams.delete(stream);
      // No consumer yet: only the publish can find the stream missing; it makes it and publishes again.
      await bus.publish(subject, 'd-2', { v: 2 });
      t.equal(missingLines(), 1, 'one line for the missing stream');
      t.equal(
        (await jsm.streams.info(stream)).state.messages,
        1,
        'the new stream holds the message published after the loss',
      );
      const { seen, consumer } = recording(bus, subject);
      await until(() => seen.length === 1);
      // Deleted again under a running consume loop: whichever of the loop and the next publish
      // finds it missing first makes it again.
      await jsm.streams.delete(stream);
      await bus.publish(subject, 'd-3', { v: 3 });
      await until(() => seen.length === 2);
      t.same(seen, ['d-2', 'd-3']);
      t.equal(
        (await jsm.consumers.info(stream, durableName(subject))).config.durable_name,
        durableName(subject),
        'the consumer was made again',
      );
      t.same(statuses, [], 'the connection itself never went down');
      const pullLines = lines.filter((l) => l.msg.startsWith('nats bus: pulling'));
      t.ok(
        pullLines.length <= 2,
        `at most one failure and one recovery line: ${pullLines.map((l) => l.msg).join(' | ')}`,
      );
      t.ok(missingLines() <= 2, 'at most one more line for the missing stream');
      await consumer.close();
    },
  );

  t.test('no unhandled rejection', async (t) => {
    t.same(rejections, []);
  });
}
