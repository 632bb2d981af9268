/**
 * A preload of every tap test process (package.json `tap.node-arg`): when the test file's process
 * exits, it writes the CPU time the process used and that of the children it waited for (a
 * started service, nats-server, Chromium) to `.tap/cpu/<pid>.json`, from `/proc/self/stat` (Linux;
 * elsewhere it writes nothing). `npm run test:times` prints the costliest files from these records:
 * on 2 cores the run is CPU-bound, so CPU-s, not seconds of wall time, say what a file costs the run.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CPU_DIR, REPO_ROOT } from './test-phases.js';

/** One test file's record: its path (relative to the repository), own and children's CPU, s. */
export interface CpuRecord {
  file: string;
  selfSeconds: number;
  childrenSeconds: number;
}

/** The CPU fields of a `/proc/<pid>/stat` line, s: utime + stime, cutime + cstime (clock ticks of 1/100 s). */
export function cpuOfStat(stat: string, ticksPerSecond = 100): { self: number; children: number } {
  // Fields after the command name (which may hold spaces, in parentheses): state is the first.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = (i: number): number => Number(fields[i] ?? 0) / ticksPerSecond;
  return { self: tick(11) + tick(12), children: tick(13) + tick(14) };
}

const file = process.argv[1] ? relative(REPO_ROOT, process.argv[1]).split('\\').join('/') : '';
if (file.startsWith('test/') && /\.test\.[cm]?[jt]s$/.test(file)) {
  process.once('exit', () => {
    try {
      const { self, children } = cpuOfStat(readFileSync('/proc/self/stat', 'utf8'));
      const record: CpuRecord = { file, selfSeconds: self, childrenSeconds: children };
      mkdirSync(CPU_DIR, { recursive: true });
      writeFileSync(join(CPU_DIR, `${process.pid}.json`), JSON.stringify(record));
    } catch {
      // No /proc (not Linux), or the folder cannot be written: no record, the test's result stands.
    }
  });
}
