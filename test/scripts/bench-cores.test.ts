/** The machine's 1 → 2 thread calibration (scripts/bench-cores.ts, scripts/core-kernels.ts). */
import t from 'tap';
import { coresOptions, measureCores, scalings } from '../../scripts/bench-cores.js';
import { runKernel } from '../../scripts/core-kernels.js';
import { threadModuleOf } from '../helpers/compiled-service.js';

t.test('scaling per round', async (t) => {
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

t.test('every kernel counts whole chunks, at least one', async (t) => {
  for (const kernel of ['compute', 'cache', 'allocation'] as const) {
    const { iterations } = runKernel({ kernel, ms: 0 });
    t.equal(iterations, 4_096, `${kernel}: one chunk when the time is already over`);
    const longer = runKernel({ kernel, ms: 30 }).iterations;
    t.ok(longer >= 4_096 && longer % 4_096 === 0, `${kernel}: ${longer} iterations in 30 ms, whole chunks`);
  }
});

t.test('one and two worker threads per round, each round measured', async (t) => {
  const [k] = await measureCores(['compute'], 40, 2, threadModuleOf('scripts/core-kernels.ts'));
  t.equal(k!.kernel, 'compute');
  t.equal(k!.one.length, 2);
  t.equal(k!.two.length, 2);
  for (const v of [...k!.one, ...k!.two]) t.ok(v > 0, `${v.toFixed(0)} iterations/s`);
});
