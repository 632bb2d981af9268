/**
 * `npm run test:times [-- --top 10] [--phase name=seconds …]`: where the last `npm test` spent its
 * time, from that run's own records (nothing is run again):
 *
 * - the phases (scripts/test-suite.ts writes `.tap/phase-times.json`), with each `--phase` given
 *   first (`.ci/run` passes `npm-ci=…`, which `npm test` cannot time);
 * - the slowest test files, seconds from their process's start to its exit, from tap's process
 *   records (`.tap/processinfo/*.json`: `externalID` is the test file, `runtime` ms), which
 *   include Node's start and the loaders, unlike the `# time=` tap prints; with the number of
 *   files, their sum and how many ran at once on average (sum / tap's wall time);
 * - the costliest test files in CPU-s, their own and their waited-for children's
 *   (`.tap/cpu/*.json`, scripts/test-cpu-record.mjs), with the sum over all files.
 *
 * Prints "no …" lines, never a stack trace, when a record is missing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { CPU_DIR, TAP_DIR, readPhaseTimes } from './test-phases.js';
import { sourceOfBundle } from './test-bundles.js';

/** A test file's process: its path (relative to the repository) and run time, s. */
export interface FileTime {
  file: string;
  seconds: number;
}

/** The test files' process times of the last tap run, slowest first. */
export function fileTimes(dir = join(TAP_DIR, 'processinfo')): FileTime[] {
  if (!existsSync(dir)) return [];
  const byFile = new Map<string, number>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    const info = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { externalID?: string; runtime?: number };
    // Processes a test file started (a service, a cluster node) carry no externalID of their own.
    // A file run twice (a rerun into the same folder) counts once, at its longer time.
    // npm test runs bundles: a bundle's time is its source file's (scripts/test-bundles.ts).
    if (info.externalID && typeof info.runtime === 'number') {
      const file = sourceOfBundle(info.externalID);
      byFile.set(file, Math.max(byFile.get(file) ?? 0, info.runtime / 1000));
    }
  }
  const times = [...byFile].map(([file, seconds]): FileTime => ({ file, seconds }));
  return times.sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
}

/** One test file's CPU: its path (relative to the repository), its process's own and its waited-for children's CPU, s. */
export interface CpuRecord {
  file: string;
  selfSeconds: number;
  childrenSeconds: number;
}

/** The CPU fields of a `/proc/<pid>/stat` line, s: utime + stime, cutime + cstime (clock ticks of 1/100 s). */
export function cpuOfStat(stat: string, ticksPerSecond = 100): { self: number; children: number } {
  // The fields after the command name (which may hold spaces, in parentheses); state is the first.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = (i: number): number => Number(fields[i] ?? 0) / ticksPerSecond;
  return { self: tick(11) + tick(12), children: tick(13) + tick(14) };
}

/**
 * The test files' CPU of the last tap run, from the records of scripts/test-cpu-record.mjs
 * (`{file, stat}`), costliest first (own + children's CPU); a file recorded twice (tap run
 * again without npm test, which clears them) counts once, its latest record.
 */
export function cpuTimes(dir = CPU_DIR): CpuRecord[] {
  if (!existsSync(dir)) return [];
  const latest = new Map<string, { at: number; record: CpuRecord }>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    const path = join(dir, name);
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { file: string; stat: string };
    const { self, children } = cpuOfStat(raw.stat);
    const record: CpuRecord = { file: raw.file, selfSeconds: self, childrenSeconds: children };
    const at = statSync(path).mtimeMs;
    if ((latest.get(record.file)?.at ?? -1) <= at) latest.set(record.file, { at, record });
  }
  const cost = (r: CpuRecord): number => r.selfSeconds + r.childrenSeconds;
  return [...latest.values()].map((l) => l.record).sort((a, b) => cost(b) - cost(a) || a.file.localeCompare(b.file));
}

const s1 = (seconds: number): string => seconds.toFixed(1).padStart(7);

const program = new Command('test:times')
  .description("print the last npm test's phase times and slowest test files")
  .option('--top <n>', 'how many of the slowest files', '10')
  .option('--phase <name=seconds...>', 'a phase timed outside npm test, printed first', [])
  .action((o: { top: string; phase: string[] }) => {
    const lines: string[] = [];
    const extra = o.phase.map((p) => {
      const [name, value] = p.split('=');
      return { name: name ?? p, seconds: Number(value) };
    });
    const recorded = readPhaseTimes();
    lines.push('phase times (s, wall):');
    for (const p of extra) lines.push(`${s1(p.seconds)}  ${p.name}`);
    if (!recorded) lines.push('  no phase times: .tap/phase-times.json is missing (run npm test)');
    else {
      for (const p of recorded.phases)
        lines.push(
          `${s1(p.seconds)}  ${p.name} (from ${p.startedAt.toFixed(1)} s${p.status === 0 ? '' : `, exit ${p.status}`})`,
        );
      lines.push(`${s1(recorded.totalSeconds)}  npm test, whole`);
    }
    const files = fileTimes();
    const top = Math.max(1, Number(o.top) || 10);
    lines.push(`the ${top} slowest test files (s, process start to exit):`);
    if (files.length === 0) lines.push('  no test-file records: .tap/processinfo is missing (run tap)');
    for (const f of files.slice(0, top)) lines.push(`${s1(f.seconds)}  ${f.file}`);
    const sum = files.reduce((a, f) => a + f.seconds, 0);
    const tap = recorded?.phases.find((p) => p.name === 'tap');
    if (files.length)
      lines.push(
        `${files.length} test files, ${sum.toFixed(0)} s in all` +
          (tap && tap.seconds > 0
            ? `, ${(sum / tap.seconds).toFixed(2)} at once on average over tap's ${tap.seconds.toFixed(0)} s`
            : ''),
      );
    const cpu = cpuTimes();
    lines.push(`the ${top} costliest test files (CPU-s: the file's process + the children it waited for):`);
    if (cpu.length === 0) lines.push('  no CPU records: .tap/cpu is missing (run tap on Linux)');
    for (const c of cpu.slice(0, top))
      lines.push(
        `${s1(c.selfSeconds + c.childrenSeconds)}  ${c.file} (${c.selfSeconds.toFixed(1)} + ${c.childrenSeconds.toFixed(1)})`,
      );
    if (cpu.length) {
      const own = cpu.reduce((a, c) => a + c.selfSeconds, 0);
      const children = cpu.reduce((a, c) => a + c.childrenSeconds, 0);
      lines.push(
        `${cpu.length} test files, ${(own + children).toFixed(0)} CPU-s in all (${own.toFixed(0)} own + ${children.toFixed(0)} children)`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  });

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) program.parse();
