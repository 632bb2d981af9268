/**
 * `npm run bench -- cores [--ms 3000] [--rounds 3] [--kernels compute,cache,memory,allocation]`:
 * what 1 → 2 threads can give on this machine, whatever the search does. Each kernel
 * (scripts/core-kernels.ts) runs for `ms` in one worker thread alone, then in two at once; the
 * scaling is the two threads' iterations over the one thread's, in the same round (rounds
 * alternate which runs first). Printed: the median of the one-thread rates, of the two-thread
 * rates and of the per-round ratios (each median on its own, so not always of one round), and
 * the ratios' range. A search thread's
 * 1 → 2 scaling (`npm run bench -- br BR13 --threads 1`, then `2`) is read against these: a kernel
 * that cannot reach 2× here marks a ceiling of the machine (shared caches, memory, the
 * hypervisor's placement of the virtual cores), not of the search.
 */
import { Piscina } from 'piscina';
import type { KernelName, KernelRunTask, KernelTask } from './core-kernels.js';
import { median } from './page-transfer.js';

const KERNELS: readonly KernelName[] = ['compute', 'cache', 'memory', 'allocation'];

/** Options of the `cores` bench (strings as commander gives them). */
export interface CoresBenchOptions {
  ms: string;
  rounds: string;
  kernels: string;
}

/** One kernel's figures: iterations per second with one and with two threads, per round. */
export interface KernelScaling {
  kernel: KernelName;
  /** Iterations per second of one thread alone, per round. */
  one: number[];
  /** Iterations per second of two threads at once (their sum), per round. */
  two: number[];
}

/** Two threads' throughput over one thread's, per round (the same rounds, in order). */
export function scalings(k: KernelScaling): number[] {
  return k.one.map((one, i) => (one > 0 ? k.two[i]! / one : NaN));
}

/**
 * Runs `task` in `threads` worker threads at once (a fresh pool, so no thread has warmed up in an
 * earlier run); resolves to their iterations per second, summed. The threads inherit the process's
 * Node options: its TypeScript loader, and V8 flags to compare (`node --single-threaded-gc …`).
 */
async function runThreads(task: KernelTask, threads: number, module: URL): Promise<number> {
  const pool = new Piscina<KernelRunTask, { iterations: number; synced: boolean }>({
    filename: module.href,
    minThreads: threads,
    maxThreads: threads,
  });
  try {
    const arrived = new Int32Array(new SharedArrayBuffer(4));
    const counts = await Promise.all(Array.from({ length: threads }, () => pool.run({ ...task, arrived, threads })));
    if (counts.some((c) => !c.synced))
      throw new Error(`the ${threads} threads of kernel ${task.kernel} did not all start within 10 s`);
    return (counts.reduce((a, c) => a + c.iterations, 0) * 1000) / task.ms;
  } finally {
    await pool.destroy();
  }
}

/** The threads' module: the kernels' TypeScript, which the threads load through the process's tsx. */
export const KERNELS_MODULE = new URL('./core-kernels.ts', import.meta.url);

/**
 * Measures every kernel of `kernels` for `rounds` rounds of one thread and two threads (`ms`
 * each, ms), the threads running `module` (core-kernels.ts's default export, in any form that
 * loads). Throws when a run's threads did not start together (coresOptions checks the arguments).
 */
export async function measureCores(
  kernels: readonly KernelName[],
  ms: number,
  rounds: number,
  module: URL = KERNELS_MODULE,
): Promise<KernelScaling[]> {
  const out: KernelScaling[] = [];
  for (const kernel of kernels) {
    const k: KernelScaling = { kernel, one: [], two: [] };
    for (let r = 0; r < rounds; r++) {
      const task: KernelTask = { kernel, ms };
      if (r % 2 === 0) {
        k.one.push(await runThreads(task, 1, module));
        k.two.push(await runThreads(task, 2, module));
      } else {
        k.two.push(await runThreads(task, 2, module));
        k.one.push(await runThreads(task, 1, module));
      }
    }
    out.push(k);
  }
  return out;
}

/** Parses the options (RangeError on bad ones). */
export function coresOptions(o: CoresBenchOptions): { kernels: KernelName[]; ms: number; rounds: number } {
  const ms = Number(o.ms);
  const rounds = Number(o.rounds);
  if (!Number.isInteger(ms) || ms < 10) throw new RangeError(`--ms must be an integer of at least 10, not "${o.ms}"`);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new RangeError(`--rounds must be a positive integer, not "${o.rounds}"`);
  const kernels = o.kernels.split(',').map((s) => s.trim());
  for (const k of kernels)
    if (!(KERNELS as readonly string[]).includes(k))
      throw new RangeError(`unknown kernel "${k}" (known: ${KERNELS.join(', ')})`);
  return { kernels: kernels as KernelName[], ms, rounds };
}

/** The `cores` bench: prints one line per kernel (see top). */
export async function benchCores(o: CoresBenchOptions): Promise<void> {
  const { kernels, ms, rounds } = coresOptions(o);
  console.log(`1 → 2 threads, ${ms} ms per run, ${rounds} rounds (medians; the ratio's range)`);
  for (const k of await measureCores(kernels, ms, rounds)) {
    const s = scalings(k);
    const m = (v: number): string => `${(v / 1e6).toFixed(1)}M/s`;
    console.log(
      `${k.kernel.padEnd(11)} 1 thread ${m(median(k.one)).padStart(9)}  2 threads ${m(median(k.two)).padStart(9)}  ` +
        `${median(s).toFixed(2)}× (${Math.min(...s).toFixed(2)}–${Math.max(...s).toFixed(2)})`,
    );
  }
}
