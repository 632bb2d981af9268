import t from 'tap';
import fc from 'fast-check';
import { backoffDelay, ReconnectPacing } from '../../adapters/nats/reconnect-pacing.js';

t.test('the wait doubles from minMs, is capped at maxMs, and its jitter keeps it in the upper half', async (t) => {
  const bounds = { minMs: 100, maxMs: 2000 };
  t.equal(
    backoffDelay(0, bounds, () => 0.5),
    0,
    'no failure: no wait',
  );
  t.same(
    [1, 2, 3, 4, 5, 6, 10].map((f) => backoffDelay(f, bounds, () => 1)),
    [100, 200, 400, 800, 1600, 2000, 2000],
    'nominal waits (jitter at its top)',
  );
  t.same(
    [1, 2, 5, 6].map((f) => backoffDelay(f, bounds, () => 0)),
    [50, 100, 800, 1000],
    'jitter at its bottom: half the nominal wait',
  );
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 1, max: 60_000 }),
      fc.integer({ min: 1, max: 200 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (minMs, extra, failures, r) => {
        const maxMs = minMs + extra;
        const ms = backoffDelay(failures, { minMs, maxMs }, () => r);
        return ms >= Math.floor(minMs / 2) && ms <= maxMs;
      },
    ),
  );
});

t.test('the pacing draws one wait per attempt and starts over after a connection', async (t) => {
  const draws = [0, 1, 0.5];
  const pacing = new ReconnectPacing({ minMs: 100, maxMs: 1000 }, () => draws.shift() ?? 0);
  t.equal(pacing.delayMs(), 100, 'before any attempt: the shortest wait');
  pacing.attempted();
  const first = pacing.delayMs();
  t.equal(pacing.delayMs(), first, 'asked again before the next attempt: the same wait');
  pacing.attempted();
  t.equal(pacing.delayMs(), 200, 'second attempt: doubled (drawn at the top)');
  t.equal(pacing.attempts, 2);
  pacing.reset();
  t.equal(pacing.attempts, 0);
  t.equal(pacing.delayMs(), 100, 'after a connection: the shortest wait again');
});
