/**
 * The resuming subscription (domain/log/resuming-subscription.ts): over a store whose
 * subscriptions fail at random points, the events seen are exactly the log after the start, in
 * order, each once; a close during the backoff ends the iteration at once; poll reaches the
 * subscription underneath.
 */
import t from 'tap';
import fc from 'fast-check';
import { resumingSubscription } from '../../../domain/log/resuming-subscription.js';
import type { EventStore, RecordedEvent, Subscription } from '../../../domain/ports/event-store.js';

/** A log of `gaps.length` events at strictly growing positions (a gap stands for deleted events). */
function logOf(gaps: number[]): RecordedEvent[] {
  let position = 0;
  return gaps.map((gap, i) => {
    position += gap;
    return {
      id: `e${i}`,
      type: 'Happened',
      data: { i },
      metadata: {},
      stream: `s-${i % 3}`,
      revision: i,
      position,
      recordedAt: new Date(0).toISOString(),
    };
  });
}

/**
 * A store over `log` whose n-th subscription delivers `plan[n].deliver` events and then throws
 * (synchronously at the step, or after a tick); past the plan, subscriptions end at the log's end.
 * With `replayFrom`, a subscription starts `replayFrom` events before where it was asked to
 * (adapters that hand out the event at their start position again).
 */
function flakyStore(
  log: RecordedEvent[],
  plan: { deliver: number; async: boolean }[],
  replayFrom = 0,
): { store: EventStore; opened: number[]; polls: number[] } {
  const opened: number[] = [];
  const polls: number[] = [];
  const subscribeAll = (after: number): Subscription<RecordedEvent> => {
    const n = opened.length;
    opened.push(after);
    const failure = plan[n];
    let closed = false;
    async function* iterate(): AsyncGenerator<RecordedEvent> {
      const firstIndex = log.findIndex((e) => e.position > after);
      const start = firstIndex === -1 ? log.length : Math.max(0, firstIndex - replayFrom);
      let delivered = 0;
      for (let i = start; i < log.length && !closed; i++) {
        if (failure && delivered === failure.deliver) break;
        await Promise.resolve();
        delivered++;
        yield log[i]!;
      }
      if (failure) {
        if (failure.async) await new Promise((r) => setImmediate(r));
        throw new Error(`connection lost (subscription ${n})`);
      }
    }
    const iterator = iterate();
    return { [Symbol.asyncIterator]: () => iterator, close: () => (closed = true), poll: () => polls.push(n) };
  };
  const unused = (): never => {
    throw new Error('not used by the resuming subscription');
  };
  const store: EventStore = {
    subscribeAll,
    append: unused,
    readStream: unused,
    readLastEvent: unused,
    readAll: unused,
    headPosition: unused,
    deleteStream: unused,
    close: async () => undefined,
  };
  return { store, opened, polls };
}

async function collect(sub: Subscription<RecordedEvent>): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of sub) out.push(e);
  return out;
}

t.test(
  'over subscriptions failing at random points: exactly the log after the start, in order, each once',
  async (t) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 0, maxLength: 60 }),
        fc.array(fc.record({ deliver: fc.integer({ min: 0, max: 12 }), async: fc.boolean() }), { maxLength: 15 }),
        fc.nat({ max: 30 }),
        fc.integer({ min: 0, max: 2 }),
        async (gaps, plan, startIndex, replayFrom) => {
          const log = logOf(gaps);
          const after = startIndex < log.length ? log[startIndex]!.position - 1 : (log.at(-1)?.position ?? 0);
          const { store, opened } = flakyStore(log, plan, replayFrom);
          const errors: { resumeAfter: number; failures: number }[] = [];
          let recoveries = 0;
          const seen = await collect(
            resumingSubscription(store, after, {
              minDelayMs: 1,
              maxDelayMs: 2,
              onError: (_err, resumeAfter, failures) => errors.push({ resumeAfter, failures }),
              onRecovered: () => recoveries++,
            }),
          );
          const expected = log.filter((e) => e.position > after);
          if (JSON.stringify(seen.map((e) => e.position)) !== JSON.stringify(expected.map((e) => e.position))) {
            throw new Error(
              `saw ${JSON.stringify(seen.map((e) => e.position))}, the log after ${after} is ${JSON.stringify(expected.map((e) => e.position))}`,
            );
          }
          if (errors.length !== plan.length)
            throw new Error(`${errors.length} failures reported, ${plan.length} injected`);
          // Each resubscription starts after the last event handed out before its failure.
          for (const [i, e] of errors.entries()) {
            if (opened[i + 1] !== e.resumeAfter)
              throw new Error(`failure ${i}: resumed after ${opened[i + 1]}, reported ${e.resumeAfter}`);
          }
          if (recoveries > errors.length) throw new Error(`${recoveries} recoveries for ${errors.length} failures`);
        },
      ),
      { numRuns: 200 },
    );
    t.pass('200 random logs and failure plans');
  },
);

t.test('the failure count grows while failures follow each other, and recovery is told once', async (t) => {
  const log = logOf([1, 1, 1, 1]);
  const { store } = flakyStore(log, [
    { deliver: 1, async: false },
    { deliver: 0, async: true },
    { deliver: 0, async: false },
  ]);
  const errors: number[] = [];
  const recovered: { position: number; failures: number }[] = [];
  const seen = await collect(
    resumingSubscription(store, 0, {
      minDelayMs: 20,
      maxDelayMs: 20,
      onError: (_e, _a, n) => errors.push(n),
      onRecovered: (position, failures) => recovered.push({ position, failures }),
    }),
  );
  t.same(
    seen.map((e) => e.position),
    [1, 2, 3, 4],
    'every event once',
  );
  t.same(errors, [1, 2, 3], 'failures in a row counted up');
  t.same(recovered, [{ position: 2, failures: 3 }], 'recovery told once, at the first event after the failures');
});

t.test('a close during the backoff ends the iteration at once', async (t) => {
  const { store } = flakyStore(
    [],
    Array.from({ length: 5 }, () => ({ deliver: 0, async: false })),
  );
  let failed!: () => void;
  const firstFailure = new Promise<void>((resolve) => (failed = resolve));
  const sub = resumingSubscription(store, 0, { minDelayMs: 60_000, maxDelayMs: 60_000, onError: () => failed() });
  const step = sub[Symbol.asyncIterator]().next();
  await firstFailure;
  const closedAt = Date.now();
  sub.close();
  const result = await step;
  const ms = Date.now() - closedAt;
  t.equal(result.done, true, 'the iteration ended');
  t.ok(ms < 1000, `ended ${ms} ms after the close, not after the 60 s backoff`);
});

t.test('poll reaches the subscription underneath, also after a resubscription', async (t) => {
  const log = logOf([1, 1, 1]);
  const { store, polls } = flakyStore(log, [{ deliver: 1, async: false }]);
  const sub = resumingSubscription(store, 0, { minDelayMs: 1, maxDelayMs: 1 });
  const it = sub[Symbol.asyncIterator]();
  t.equal((await it.next()).value?.position, 1, 'the first event');
  sub.poll?.();
  t.equal((await it.next()).value?.position, 2, 'the event after the failure');
  sub.poll?.();
  t.same(polls, [0, 1], 'first the first subscription, then the one that replaced it');
  sub.close();
  t.equal((await it.next()).done, true, 'closed');
});

t.test(
  'a subscription that stayed up as long as the wait before it ends the run of failures: the next one waits the shortest again',
  async (t) => {
    // Subscriptions: three fail at once, the fourth stays up 80 ms (longer than any wait, at most
    // maxDelayMs 40) and fails, the fifth fails at once, the sixth ends (the log is empty).
    const holds = [0, 0, 0, 80, 0];
    let n = 0;
    const subscribedAt: number[] = [];
    const unused = (): never => {
      throw new Error('not used');
    };
    const store: EventStore = {
      subscribeAll: () => {
        const hold = holds[n++];
        subscribedAt.push(Date.now());
        async function* iterate(): AsyncGenerator<RecordedEvent> {
          if (hold === undefined) return;
          if (hold > 0) await new Promise((r) => setTimeout(r, hold));
          yield* []; // no event before the connection is lost
          throw new Error('connection lost');
        }
        const iterator = iterate();
        return { [Symbol.asyncIterator]: () => iterator, close: () => undefined };
      },
      append: unused,
      readStream: unused,
      readLastEvent: unused,
      readAll: unused,
      headPosition: unused,
      deleteStream: unused,
      close: async () => undefined,
    };
    const runs: number[] = [];
    const recovered: number[] = [];
    await collect(
      resumingSubscription(store, 0, {
        minDelayMs: 10,
        maxDelayMs: 40,
        onError: (_e, _a, k) => runs.push(k),
        onRecovered: (_p, k) => recovered.push(k),
      }),
    );
    t.same(runs, [1, 2, 3, 1, 2], 'the failure after the long-lived subscription starts a new run');
    t.same(recovered, [3], 'the run before it is told over once');
    const waitAfterLongLived = subscribedAt[4]! - subscribedAt[3]! - 80;
    t.ok(
      waitAfterLongLived < 30,
      `waited ${waitAfterLongLived} ms after it (the shortest wait, 5 to 10 ms, not 20 to 40)`,
    );
  },
);
