/** The machine's 1 → 2 thread calibration (scripts/bench-cores.ts, scripts/core-kernels.ts). */
import t from 'tap';
import { coresOptions, measureCores, median, scalings } from '../../scripts/bench-cores.js';
import { runKernel } from '../../scripts/core-kernels.js';

t.test('median and scaling per round', async (t) => {
  t.equal(median([3, 1, 2]), 2);
  t.equal(median([4, 1, 3, 2]), 2.5);
  t.ok(Number.isNaN(median([])));
  t.same(scalings({ kernel: 'compute', one: [100, 200], two: [190, 300] }), [1.9, 1.5]);
});

t.test('options: bad numbers and unknown kernels are RangeErrors naming the value', async (t) => {
  t.same(coresOptions({ ms: '50', rounds: '2', kernels: 'compute, memory' }), {
    kernels: ['compute', 'memory'],
    ms: 50,
    rounds: 2,
  });
  t.throws(() => coresOptions({ ms: 'x', rounds: '1', kernels: 'compute' }), RangeError);
  t.throws(() => coresOptions({ ms: '50', rounds: '0', kernels: 'compute' }), RangeError);
  t.throws(() => coresOptions({ ms: '50', rounds: '1', kernels: 'compute,disk' }), /unknown kernel "disk"/);
});

t.test('every kernel runs for its time and counts whole chunks', async (t) => {
  for (const kernel of ['compute', 'cache', 'allocation'] as const) {
    const started = performance.now();
    const { iterations } = runKernel({ kernel, ms: 30 });
    const took = performance.now() - started;
    t.ok(iterations > 0 && iterations % 4_096 === 0, `${kernel}: ${iterations} iterations in whole chunks`);
    t.ok(took >= 30, `${kernel} ran its 30 ms (${took.toFixed(0)} ms)`);
  }
});

t.test('one and two worker threads per round, each round measured', async (t) => {
  const [k] = await measureCores(['compute'], 40, 2);
  t.equal(k!.kernel, 'compute');
  t.equal(k!.one.length, 2);
  t.equal(k!.two.length, 2);
  for (const v of [...k!.one, ...k!.two]) t.ok(v > 0, `${v.toFixed(0)} iterations/s`);
});
