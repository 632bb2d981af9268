/**
 * The scheduler's reactions (service/scheduler-reactions.ts) over an event store that fails
 * (test/helpers/faulty-event-store.ts): every event reaches the process managers once, in log
 * order, through dropped subscriptions; a reaction that meets an unreachable store is tried again
 * until it succeeds; any other failure is logged once and the next event follows.
 */
import t from 'tap';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { startReactions } from '../../service/scheduler-reactions.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import { FaultyEventStore, InjectedConnectionLoss } from '../helpers/faulty-event-store.js';

/** A logger whose JSON lines are kept in `lines`. */
function capturingLog(): { log: ReturnType<typeof pino>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

const append = (store: SqliteEventStore, i: number) =>
  store.append(`thing-${i}`, [{ id: `e${i}`, type: i === 3 ? 'Broken' : 'Happened', data: { i } }], 'no_stream');

t.test('each event once, in order, across dropped subscriptions and reactions that meet an outage', async (t) => {
  const sqlite = new SqliteEventStore(':memory:');
  const store = new FaultyEventStore(sqlite);
  store.dropSubscriptionsEvery(2);
  const { log, lines } = capturingLog();
  const reacted: number[] = [];
  const attempts = new Map<number, number>();
  let done!: () => void;
  const allDone = new Promise<void>((resolve) => (done = resolve));
  const stop = startReactions({
    store,
    from: 0,
    log,
    backoff: { minDelayMs: 1, maxDelayMs: 5 },
    react: async (event: RecordedEvent) => {
      const i = (event.data as { i: number }).i;
      attempts.set(i, (attempts.get(i) ?? 0) + 1);
      if (i === 2 && attempts.get(i)! <= 2) throw new InjectedConnectionLoss('reaction');
      if (event.type === 'Broken') throw new TypeError('a bug in a reaction');
      reacted.push(i);
      if (i === 6) done();
    },
  });
  for (let i = 1; i <= 6; i++) await append(sqlite, i);
  await allDone;
  await stop();
  t.same(reacted, [1, 2, 4, 5, 6], 'every event reacted to once and in order (the broken one left to the repair tick)');
  t.equal(attempts.get(2), 3, 'the reaction that met an unreachable store was tried until it succeeded');
  t.equal(attempts.get(3), 1, 'a bug is not tried again');
  const msgs = lines.map((l) => l['msg']);
  t.equal(
    msgs.filter((m) => m === 'process manager step failed; trying it again').length,
    1,
    'one line for the outage of a reaction',
  );
  t.equal(msgs.filter((m) => m === 'process manager step succeeded again').length, 1, 'one line for its recovery');
  t.equal(
    msgs.filter((m) => m === 'process manager step failed; the repair tick finishes it').length,
    1,
    'one line for the bug',
  );
  t.ok(store.counts.subscriptionsDropped >= 2, `subscriptions dropped ${store.counts.subscriptionsDropped} times`);
  await sqlite.close();
});
