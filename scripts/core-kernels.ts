/**
 * Piscina worker of `npm run bench -- cores` (scripts/bench-cores.ts): runs one kernel for `ms`
 * milliseconds of wall time, once every thread of the run has arrived, and returns the number of
 * iterations it completed. The kernels stand for the kinds of work a search thread does, so their
 * 1 → 2 thread scaling tells what the machine itself allows:
 * - `compute`: integer arithmetic in registers, no memory traffic, no allocation;
 * - `cache`: dependent random reads over 8 MiB (beyond one core's 2 MiB L2, within a shared L3);
 * - `memory`: dependent random reads over 256 MiB (main memory);
 * - `allocation`: short-lived small objects and arrays, a few kept (the young generation and
 *   its scavenges, as the search's space lists and candidate blocks make them: the search's
 *   own maximal spaces here).
 */
import type { Space } from '../solver/search/maximal-space.js';

/** A kernel's name (see the top of this file). */
export type KernelName = 'compute' | 'cache' | 'memory' | 'allocation';

/** What the thread is given: the kernel and how long it runs, ms. */
export interface KernelTask {
  kernel: KernelName;
  ms: number;
}

/** A task of a run of `threads` threads: each starts its clock once all have arrived on `arrived`. */
export interface KernelRunTask extends KernelTask {
  arrived: Int32Array;
  threads: number;
}

/** Iterations per time check: small enough to stop within about a millisecond. */
const CHUNK = 4_096;

/** A random cyclic permutation of 0…n−1 (Sattolo), so reads follow one long chain; 4 bytes per entry. */
function chain(n: number): Int32Array {
  const next = new Int32Array(n);
  for (let i = 0; i < n; i++) next[i] = i;
  let s = 0x9e3779b9 | 0;
  for (let i = n - 1; i > 0; i--) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const j = (s >>> 0) % i;
    const t = next[i]!;
    next[i] = next[j]!;
    next[j] = t;
  }
  return next;
}

/** What a kernel reads, built before any clock starts: the chain of `cache` and `memory`, else null. */
export function prepareKernel(kernel: KernelName): Int32Array | null {
  const mib = kernel === 'cache' ? 8 : kernel === 'memory' ? 256 : 0;
  return mib > 0 ? chain(mib * 262_144) : null; // MiB of 4-byte entries
}

/** What a kernel run returns: whole chunks done, and a checksum that keeps the work from being optimized away. */
export interface KernelCount {
  iterations: number;
  checksum: number;
}

/**
 * Runs `task.kernel` over `prepared` (prepareKernel's) until `task.ms` have passed, at least one
 * chunk; returns the iterations done.
 */
export function runKernel(task: KernelTask, prepared = prepareKernel(task.kernel)): KernelCount {
  const until = performance.now() + task.ms;
  let iterations = 0;
  let checksum = 0;
  if (task.kernel === 'compute') {
    let s = 1;
    do {
      for (let i = 0; i < CHUNK; i++) {
        s ^= s << 13;
        s ^= s >>> 17;
        s ^= s << 5;
        checksum = (checksum + (s & 0xff)) | 0;
      }
      iterations += CHUNK;
    } while (performance.now() < until);
  } else if (prepared) {
    let at = 0;
    do {
      for (let i = 0; i < CHUNK; i++) at = prepared[at]!;
      iterations += CHUNK;
    } while (performance.now() < until);
    checksum = at;
  } else {
    const kept: Space[][] = new Array<Space[]>(1_024);
    let k = 0;
    do {
      for (let i = 0; i < CHUNK / 16; i++) {
        const boxes: Space[] = [];
        for (let j = 0; j < 16; j++)
          boxes.push({
            x0: j,
            y0: i,
            z0: k,
            x1: j + 10,
            y1: i + 10,
            z1: k + 10,
            level: 0,
            capacity: Infinity,
            palletBase: true,
            bearerDensity: Infinity,
            bearerWeight: Infinity,
          });
        const big = boxes.filter((b) => (b.x0 + b.z0) % 3 !== 0);
        checksum = (checksum + big.length) | 0;
        // One list in 64 survives a while, as the search's best loadings and beam nodes do.
        if (i % 64 === 0) kept[k++ % kept.length] = big;
      }
      iterations += CHUNK;
    } while (performance.now() < until);
  }
  return { iterations, checksum };
}

/**
 * Piscina entry: builds what the kernel reads, then waits (without spinning, at most 10 s) until
 * every thread of the run has arrived, then runs. `synced` is false when the wait timed out (the
 * threads' clocks did not start together).
 */
export default function run(task: KernelRunTask): KernelCount & { synced: boolean } {
  const prepared = prepareKernel(task.kernel);
  Atomics.add(task.arrived, 0, 1);
  Atomics.notify(task.arrived, 0);
  const until = Date.now() + 10_000;
  let synced = false;
  for (;;) {
    const seen = Atomics.load(task.arrived, 0);
    if (seen >= task.threads) synced = true;
    if (synced || Date.now() >= until) break;
    Atomics.wait(task.arrived, 0, seen, until - Date.now());
  }
  return { ...runKernel({ kernel: task.kernel, ms: task.ms }, prepared), synced };
}
