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
  t.test('delivers a message once when acked; a duplicate id is dropped', async (t) => {
    const bus = await open();
    const c = collect(bus, 'solve.a', 2, (m) => m.ack());
    await bus.publish('solve.a', 'm1', { v: 1 });
    await bus.publish('solve.a', 'm1', { v: 1 });
    await bus.publish('solve.a', 'm2', { v: 2 });
    const seen = await c.done;
    t.same(seen.map((m) => [m.id, m.data.v, m.attempt]), [
      ['m1', 1, 1],
      ['m2', 2, 1],
    ]);
    await c.close();
    await bus.close();
  });

  t.test('a nak redelivers the message with the next attempt number', async (t) => {
    const bus = await open();
    const c = collect(bus, 'solve.b', 2, (m) => (m.attempt === 1 ? m.nak(10) : m.ack()));
    await bus.publish('solve.b', 'm1', { v: 7 });
    const seen = await c.done;
    t.same(seen.map((m) => [m.id, m.attempt]), [
      ['m1', 1],
      ['m1', 2],
    ]);
    await c.close();
    await bus.close();
  });

  t.test('messages of another subject are not delivered', async (t) => {
    const bus = await open();
    const c = collect(bus, 'solve.c', 1, (m) => m.ack());
    await bus.publish('other.c', 'x', { v: 0 });
    await bus.publish('solve.c', 'y', { v: 1 });
    const seen = await c.done;
    t.same(seen.map((m) => m.id), ['y']);
    await c.close();
    await bus.close();
  });
}
