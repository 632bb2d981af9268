import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type JetStreamManager } from 'nats';
import { NatsBus, durableName, type NatsBusTimings } from '../../adapters/nats/bus.js';
import type { BusMessage } from '../../domain/ports/bus.js';
import { busContract } from '../contracts/bus.contract.js';
import { FAST_NATS_BUS_TIMINGS } from '../helpers/nats-bus-timings.js';
import { natsServerBinary, startNatsServer } from '../helpers/nats-server.js';
import { startTcpFaultProxy } from '../helpers/tcp-fault-proxy.js';

type Job = { v: number };

/**
 * Resolves once `check()` holds, polling the server state every 20 ms; fails after `timeoutMs`
 * (generous: on a loaded machine only a hang should reach it).
 */
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

if (!natsServerBinary()) {
  t.plan(0, 'nats-server is not on PATH: NATS bus tests skipped (apt-get install -y nats-server)');
} else {
  const server = await startNatsServer();
  const admin = await connect({ servers: server.url });
  const jsm: JetStreamManager = await admin.jetstreamManager();
  t.teardown(async () => {
    await admin.close();
    await server.stop();
  });

  let n = 0;
  /** A bus on a stream of its own covering `t<n>.>`; returns the subject `t<n>.solve` to use. */
  async function freshBus(t: Test, ackWaitMs = 1000): Promise<{ bus: NatsBus; stream: string; subject: string }> {
    n += 1;
    const stream = `T${n}`;
    const bus = await NatsBus.connect({ servers: server.url, stream, subjects: [`t${n}.>`], ackWaitMs });
    // Closes it when an assertion failed first, so a failing test does not keep the process alive.
    t.teardown(() => bus.close());
    return { bus, stream, subject: `t${n}.solve` };
  }
  const consumerInfo = (stream: string, subject: string) => jsm.consumers.info(stream, durableName(subject));

  let c = 0;
  /**
   * A bus for the contract on a new stream `C<c>` through `servers`. The contract uses fixed
   * subjects (solve.a, other.c ...), which only one stream may cover: the previous one is deleted.
   */
  async function contractBus(servers: string, timings?: Partial<NatsBusTimings>): Promise<NatsBus> {
    if (c > 0) await jsm.streams.delete(`C${c}`);
    c += 1;
    return NatsBus.connect({ servers, stream: `C${c}`, subjects: ['solve.>', 'other.>'], timings });
  }

  t.test('NatsBus contract', async (t) => {
    busContract(t, () => contractBus(server.url));
  });

  t.test('NatsBus contract through the TCP fault proxy (no fault: the proxy is transparent)', async (t) => {
    const proxy = await startTcpFaultProxy({ port: server.port });
    let opened = 0;
    busContract(t, async () => {
      opened += 1;
      return contractBus(`nats://127.0.0.1:${proxy.port}`, FAST_NATS_BUS_TIMINGS);
    });
    t.teardown(async () => {
      await proxy.close();
    });
    // Runs after the contract's subtests: each bus went through the proxy, on one connection.
    t.test('every contract bus connected through the proxy, none reconnected', async (t) => {
      t.ok(opened > 0, `${opened} buses opened`);
      t.equal(proxy.connections, opened, 'one proxied connection per bus');
    });
  });

  t.test('a message not settled within ack_wait is redelivered with attempt 2', async (t) => {
    const { bus, stream, subject } = await freshBus(t, 1000);
    const seen: { attempt: number; id: string; at: number }[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let redelivered!: () => void;
    const second = new Promise<void>((resolve) => (redelivered = resolve));
    const consumer = bus.consume<Job>(
      subject,
      async (m) => {
        seen.push({ attempt: m.attempt, id: m.id, at: Date.now() });
        if (m.attempt === 1) return held; // a stuck handler: no ack, no working
        m.ack();
        redelivered();
      },
      2,
    );
    const published = Date.now();
    await bus.publish(subject, 'slow', { v: 1 });
    await second;
    release();
    t.same(
      seen.map((s) => [s.id, s.attempt]),
      [
        ['slow', 1],
        ['slow', 2],
      ],
    );
    t.equal(
      (await consumerInfo(stream, subject)).config.ack_wait,
      1_000_000_000,
      'the consumer has the ack wait asked for (ns)',
    );
    // The server's ack timer starts at its delivery, after the publish began and before the
    // handler saw it (however late a loaded machine ran the handler): the redelivery cannot come
    // less than ack_wait after the publish, and comes long before the 30 s default.
    const sincePublish = seen[1]!.at - published;
    t.ok(sincePublish >= 990, `redelivered no sooner than ack_wait (1000 ms) after the publish: ${sincePublish} ms`);
    const gap = seen[1]!.at - seen[0]!.at;
    t.ok(gap < 15_000, `redelivered after ack_wait, not the 30 s default: ${gap} ms after the first delivery`);
    await until(async () => (await consumerInfo(stream, subject)).num_ack_pending === 0);
    t.equal((await jsm.streams.info(stream)).state.messages, 0, 'the acked message left the work queue');
    await consumer.close();
    await bus.close();
  });

  t.test('working() keeps a message past ack_wait without redelivery', async (t) => {
    // ack_wait 2 s against a working() every 200 ms: a loaded machine may delay a tick by well
    // over a second before the server would redeliver.
    const { bus, stream, subject } = await freshBus(t, 2000);
    const seen: number[] = [];
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const consumer = bus.consume<Job>(
      subject,
      async (m) => {
        seen.push(m.attempt);
        if (m.attempt > 1) return m.ack();
        // 2.5 ack_wait periods of work, telling the server every 200 ms.
        const started = Date.now();
        while (Date.now() - started < 5000) {
          m.working();
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        m.ack();
        finished();
      },
      2, // a free slot, so a redelivery would reach this consumer while the first one runs
    );
    await bus.publish(subject, 'long', { v: 1 });
    await done;
    await until(async () => (await consumerInfo(stream, subject)).num_ack_pending === 0);
    const info = await consumerInfo(stream, subject);
    t.same(seen, [1], 'delivered once');
    t.equal(info.delivered.consumer_seq, 1, 'the server made one delivery');
    t.equal(info.num_redelivered, 0);
    await consumer.close();
    await bus.close();
  });

  t.test('term() is never redelivered', async (t) => {
    const { bus, stream, subject } = await freshBus(t, 1000);
    const seen: string[] = [];
    const consumer = bus.consume<Job>(subject, async (m) => {
      seen.push(`${m.id}#${m.attempt}`);
      if (m.id === 'bad') m.term('invalid job');
      else m.ack();
    });
    await bus.publish(subject, 'bad', { v: 0 });
    await bus.publish(subject, 'good', { v: 1 });
    await until(() => seen.length === 2);
    await until(async () => (await consumerInfo(stream, subject)).num_ack_pending === 0);
    const info = await consumerInfo(stream, subject);
    t.same(seen, ['bad#1', 'good#1']);
    t.equal(info.num_pending + info.num_ack_pending + info.num_redelivered, 0, 'nothing left to (re)deliver');
    t.equal((await jsm.streams.info(stream)).state.messages, 0, 'the termed message left the work queue');
    await consumer.close();
    await bus.close();
  });

  t.test('a handler that throws without settling gets the message again, later', async (t) => {
    const { bus, subject } = await freshBus(t, 30_000);
    const seen: { attempt: number; at: number }[] = [];
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const consumer = bus.consume<Job>(subject, async (m) => {
      seen.push({ attempt: m.attempt, at: Date.now() });
      if (m.attempt === 1) throw new Error('solver crashed');
      m.ack();
      finished();
    });
    await bus.publish(subject, 'x', { v: 1 });
    await done;
    t.same(
      seen.map((s) => s.attempt),
      [1, 2],
    );
    const gap = seen[1]!.at - seen[0]!.at;
    // nak(1000), sent after the first delivery was seen; the bound only tells it from the 30 s ack_wait.
    t.ok(gap >= 900 && gap < 20_000, `redelivered after the nak delay, got ${gap} ms`);
    await consumer.close();
    await bus.close();
  });

  t.test('at most `concurrency` messages are in the handler at once', async (t) => {
    const { bus, stream, subject } = await freshBus(t, 30_000);
    let active = 0;
    let peak = 0;
    const ids: string[] = [];
    // Every message waits in the stream before the consumer starts, and the first handlers hold
    // until three are in: a fourth could only come from pulling beyond the concurrency.
    for (let i = 0; i < 10; i += 1) await bus.publish(subject, `c${i}`, { v: i });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const consumer = bus.consume<Job>(
      subject,
      async (m) => {
        active += 1;
        peak = Math.max(peak, active);
        await gate;
        await new Promise((resolve) => setTimeout(resolve, 40));
        ids.push(m.id);
        active -= 1;
        m.ack();
      },
      3,
    );
    await until(() => active === 3);
    // Room for a wrong fourth delivery to arrive while three are held (it would raise the peak).
    await until(async () => (await consumerInfo(stream, subject)).num_ack_pending === 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    open();
    await until(() => ids.length === 10);
    t.equal(peak, 3, 'three at a time, never more');
    t.same([...ids].sort(), Array.from({ length: 10 }, (_, i) => `c${i}`).sort());
    await consumer.close();
    await bus.close();
  });

  t.test('two solver nodes on one subject share the work, each message to one of them', async (t) => {
    // A long ack_wait: a handler delayed by a loaded machine must not cause a redelivery here.
    const { bus: a, stream, subject } = await freshBus(t, 30_000);
    const b = await NatsBus.connect({ servers: server.url, stream, subjects: [`t${n}.>`], ackWaitMs: 30_000 });
    t.teardown(() => b.close());
    const byNode: Record<'a' | 'b', string[]> = { a: [], b: [] };
    const handler = (node: 'a' | 'b') => async (m: BusMessage<Job>) => {
      byNode[node].push(m.id);
      await new Promise((resolve) => setTimeout(resolve, 20));
      m.ack();
    };
    const ca = a.consume<Job>(subject, handler('a'));
    const cb = b.consume<Job>(subject, handler('b'));
    // Both nodes pull before any message exists (a node slow to start could otherwise miss them all).
    await until(async () => {
      try {
        return (await consumerInfo(stream, subject)).num_waiting >= 2;
      } catch {
        return false; // the consumer is not created yet
      }
    });
    const total = 20;
    for (let i = 0; i < total; i += 1) await a.publish(subject, `j${i}`, { v: i });
    await until(() => byNode.a.length + byNode.b.length >= total);
    await until(async () => (await consumerInfo(stream, subject)).num_ack_pending === 0);
    const all = [...byNode.a, ...byNode.b].sort();
    t.same(all, Array.from({ length: total }, (_, i) => `j${i}`).sort(), 'every message once, none to both');
    t.ok(byNode.a.length > 0 && byNode.b.length > 0, `both nodes worked: a=${byNode.a.length} b=${byNode.b.length}`);
    t.equal((await consumerInfo(stream, subject)).delivered.consumer_seq, total, 'no redeliveries');
    await Promise.all([ca.close(), cb.close()]);
    await Promise.all([a.close(), b.close()]);
  });

  t.test('a published message survives a nats-server restart on the same store', async (t) => {
    const storeDir = mkdtempSync(join(tmpdir(), 'nats-restart-'));
    t.teardown(() => rmSync(storeDir, { recursive: true, force: true }));
    const first = await startNatsServer({ storeDir });
    const options = { stream: 'RESTART', subjects: ['restart.>'] };
    const publisher = await NatsBus.connect({ servers: first.url, ...options });
    await publisher.publish('restart.solve', 'job-1', { v: 42 });
    await publisher.close();
    await first.stop();

    const second = await startNatsServer({ port: first.port, storeDir });
    t.teardown(() => second.stop());
    const bus = await NatsBus.connect({ servers: second.url, ...options });
    t.teardown(() => bus.close());
    const got = await new Promise<BusMessage<Job>>((resolve) => {
      bus.consume<Job>('restart.solve', async (m) => {
        m.ack();
        resolve(m);
      });
    });
    t.same([got.id, got.subject, got.data, got.attempt], ['job-1', 'restart.solve', { v: 42 }, 1]);
    await bus.close();
  });
}
