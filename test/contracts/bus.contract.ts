/** Contract every Bus adapter must honour (domain/ports/bus.ts). */
import type { Test } from 'tap';
import type { Bus, BusMessage } from '../../domain/ports/bus.js';

/** Resolves after `n` deliveries on `subject` have been handled by `handle`. */
function collect(bus: Bus, subject: string, n: number, handle: (m: BusMessage<{ v: number }>) => void) {
  const seen: BusMessage<{ v: number }>[] = [];
  let consumer: { close(): Promise<void> } | undefined;
  const done = new Promise<BusMessage<{ v: number }>[]>((resolve) => {
    consumer = bus.consume<{ v: number }>(subject, async (m) => {
      seen.push(m);
      handle(m);
      if (seen.length === n) resolve(seen);
    });
  });
  return { done, close: () => consumer!.close() };
}

export function busContract(t: Test, open: () => Promise<Bus>): void {
  busSignalContract(t, open);
  t.test('delivers a message once when acked; a duplicate id is dropped', async (t) => {
    const bus = await open();
    const c = collect(bus, 'solve.a', 2, (m) => m.ack());
    await bus.publish('solve.a', 'm1', { v: 1 });
    await bus.publish('solve.a', 'm1', { v: 1 });
    await bus.publish('solve.a', 'm2', { v: 2 });
    const seen = await c.done;
    t.same(
      seen.map((m) => [m.id, m.data.v, m.attempt]),
      [
        ['m1', 1, 1],
        ['m2', 2, 1],
      ],
    );
    await c.close();
    await bus.close();
  });

  t.test('a nak redelivers the message with the next attempt number', async (t) => {
    const bus = await open();
    const c = collect(bus, 'solve.b', 2, (m) => (m.attempt === 1 ? m.nak(10) : m.ack()));
    await bus.publish('solve.b', 'm1', { v: 7 });
    const seen = await c.done;
    t.same(
      seen.map((m) => [m.id, m.attempt]),
      [
        ['m1', 1],
        ['m1', 2],
      ],
    );
    await c.close();
    await bus.close();
  });

  t.test('messages of another subject are not delivered', async (t) => {
    const bus = await open();
    const c = collect(bus, 'solve.c', 1, (m) => m.ack());
    await bus.publish('other.c', 'x', { v: 0 });
    await bus.publish('solve.c', 'y', { v: 1 });
    const seen = await c.done;
    t.same(
      seen.map((m) => m.id),
      ['y'],
    );
    await c.close();
    await bus.close();
  });
}

/** Resolves with the first `n` values `listen` hands over; rejects after `timeoutMs` (generous: only a hang reaches it). */
function heard<T>(n: number, listen: (take: (value: T) => void) => void, timeoutMs = 10_000): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const values: T[] = [];
    const timer = setTimeout(
      () => reject(new Error(`heard ${values.length} of ${n} signals within ${timeoutMs} ms`)),
      timeoutMs,
    );
    listen((value) => {
      values.push(value);
      if (values.length === n) {
        clearTimeout(timer);
        resolve(values);
      }
    });
  });
}

/** Signals (domain/ports/bus.ts `signal`/`onSignal`): broadcast, not stored, not work-queue messages. */
export function busSignalContract(t: Test, open: () => Promise<Bus>): void {
  t.test(
    'signals: every listener of the subject hears each signal once; other subjects and stopped listeners hear nothing',
    async (t) => {
      const bus = await open();
      const first: unknown[] = [];
      const second: unknown[] = [];
      const stopped: unknown[] = [];
      const other: unknown[] = [];
      const stop = bus.onSignal<{ n: number }>('signals.a', (d) => stopped.push(d));
      stop();
      bus.onSignal<{ n: number }>('signals.b', (d) => other.push(d));
      const both = Promise.all([
        heard<{ n: number }>(2, (take) =>
          bus.onSignal<{ n: number }>('signals.a', (d) => {
            first.push(d);
            take(d);
          }),
        ),
        heard<{ n: number }>(2, (take) =>
          bus.onSignal<{ n: number }>('signals.a', (d) => {
            second.push(d);
            take(d);
          }),
        ),
      ]);
      await bus.signal('signals.a', { n: 1 });
      await bus.signal('signals.a', { n: 2 });
      await both;
      // A marker signal on the other subject, sent after: once it is heard, anything misrouted would have been too.
      await heard(1, (take) => {
        bus.onSignal('signals.b', take);
        void bus.signal('signals.b', { n: 3 });
      });
      t.same(first, [{ n: 1 }, { n: 2 }]);
      t.same(second, [{ n: 1 }, { n: 2 }]);
      t.same(stopped, [], 'a listener that stopped hears nothing');
      t.same(other, [{ n: 3 }], 'a listener of another subject hears only its own');
      await bus.close();
    },
  );

  t.test(
    'signals: not stored (a listener that starts later hears nothing earlier) and not work-queue messages',
    async (t) => {
      const bus = await open();
      const queued: unknown[] = [];
      const consumer = bus.consume<unknown>('solve.signal', async (m) => {
        queued.push(m.data);
        m.ack();
      });
      await bus.signal('signals.c', { n: 1 });
      const late: unknown[] = [];
      await heard(1, (take) => {
        bus.onSignal<{ n: number }>('signals.c', (d) => {
          late.push(d);
          take(d);
        });
        void bus.signal('signals.c', { n: 2 });
      });
      t.same(late, [{ n: 2 }], 'only the signal sent after it started listening');
      // A work message published after the signals arrives alone: no signal became a queued message.
      await bus.publish('solve.signal', 'w1', { n: 9 });
      await heard(1, (take) => {
        const timer = setInterval(() => {
          if (queued.length > 0) {
            clearInterval(timer);
            take(queued[0]);
          }
        }, 10);
      });
      t.same(queued, [{ n: 9 }]);
      await consumer.close();
      await bus.close();
    },
  );

  t.test('signals: signal() after close() rejects', async (t) => {
    const bus = await open();
    await bus.close();
    await t.rejects(bus.signal('signals.d', { n: 1 }));
  });
}
