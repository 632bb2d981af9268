/**
 * Head reads shared by concurrent read-your-writes waits (projections/shared-head-read.ts): one
 * read at a time, and never a read that began before the caller asked.
 */
import t from 'tap';
import { SharedHeadRead } from '../../projections/shared-head-read.js';

/** A store whose head reads stay pending until the test answers them, in order. */
function manualHead() {
  const pending: { began: number; answer: (n: number) => void; fail: (e: Error) => void }[] = [];
  let clock = 0;
  return {
    pending,
    tick: () => ++clock,
    store: {
      headPosition: () =>
        new Promise<number>((answer, fail) => {
          pending.push({ began: clock, answer, fail });
        }),
    },
  };
}

const settled = () => new Promise((r) => setImmediate(r));

t.test('callers during a running read share the next one, which begins after them', async (t) => {
  const head = manualHead();
  const shared = new SharedHeadRead(head.store);
  const first = shared.read();
  t.equal(head.pending.length, 1);
  head.tick(); // time passes: an event may be stored now
  const late = [shared.read(), shared.read(), shared.read()];
  t.equal(head.pending.length, 1, 'no second read while one runs');
  head.pending[0]!.answer(10);
  t.equal(await first, 10);
  await settled();
  t.equal(head.pending.length, 2, 'the late callers get one read of their own');
  t.equal(head.pending[1]!.began, 1, 'begun after they asked');
  head.pending[1]!.answer(12);
  t.same(await Promise.all(late), [12, 12, 12]);
  const again = shared.read();
  t.equal(head.pending.length, 3, 'nothing running: a new read at once');
  head.pending[2]!.answer(13);
  t.equal(await again, 13);
});

t.test('a failed read fails its callers only; the queued ones get a fresh read', async (t) => {
  const head = manualHead();
  const shared = new SharedHeadRead(head.store);
  const first = shared.read();
  const queued = shared.read();
  head.pending[0]!.fail(new Error('unavailable'));
  await t.rejects(first, /unavailable/);
  await settled();
  head.pending[1]!.answer(7);
  t.equal(await queued, 7);
});
