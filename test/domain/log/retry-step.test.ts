/**
 * Retried follower steps (domain/log/retry-step.ts): a step that fails is run again with a
 * growing, capped backoff until it succeeds, with each failure and the recovery told once; an
 * abort ends the wait at once with StepStopped.
 */
import t from 'tap';
import fc from 'fast-check';
import { backoffDelay, withJitter } from '../../../domain/log/backoff.js';
import { retryStep, StepStopped } from '../../../domain/log/retry-step.js';

t.test('a step failing n times is run n + 1 times; failures counted up, recovery told once', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: 6 }), async (n) => {
      let runs = 0;
      const errors: number[] = [];
      const recovered: number[] = [];
      const value = await retryStep(
        async () => {
          if (runs++ < n) throw new Error(`failure ${runs}`);
          return 'done';
        },
        { minDelayMs: 1, maxDelayMs: 2, onError: (_e, k) => errors.push(k), onRecovered: (k) => recovered.push(k) },
      );
      if (value !== 'done' || runs !== n + 1) throw new Error(`value ${value}, ${runs} runs for ${n} failures`);
      if (JSON.stringify(errors) !== JSON.stringify(Array.from({ length: n }, (_, i) => i + 1)))
        throw new Error(`errors ${JSON.stringify(errors)}`);
      if (JSON.stringify(recovered) !== JSON.stringify(n > 0 ? [n] : []))
        throw new Error(`recovered ${JSON.stringify(recovered)}`);
    }),
    { numRuns: 30 },
  );
  t.pass('30 failure counts');
});

t.test('the backoff doubles from the first delay and stops at the cap', async (t) => {
  t.same(
    [1, 2, 3, 4, 5, 6, 7, 40].map((f) => backoffDelay(f, 100, 5000)),
    [100, 200, 400, 800, 1600, 3200, 5000, 5000],
  );
});

t.test('jitter keeps a wait between half of it and all of it', async (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 100_000 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (ms, r) => {
      const jittered = withJitter(ms, () => r);
      return jittered >= Math.floor(ms / 2) && jittered <= ms;
    }),
  );
  t.equal(
    withJitter(1000, () => 0),
    500,
    'the least: half',
  );
  t.equal(
    withJitter(1000, () => 0.999999),
    1000,
    'the most: all of it',
  );
});

t.test('an abort during the wait ends it at once with StepStopped, and the step is not run again', async (t) => {
  const stopping = new AbortController();
  let runs = 0;
  let failed!: () => void;
  const firstFailure = new Promise<void>((resolve) => (failed = resolve));
  const retrying = retryStep(
    async () => {
      runs++;
      throw new Error('down');
    },
    { minDelayMs: 60_000, signal: stopping.signal, onError: () => failed() },
  );
  await firstFailure;
  const abortedAt = Date.now();
  stopping.abort();
  await t.rejects(retrying, StepStopped, 'rejects with StepStopped');
  t.ok(Date.now() - abortedAt < 1000, 'at once, not after the 60 s backoff');
  t.equal(runs, 1, 'run once');
});
