/**
 * The pure parts of `npm run bench -- api` (scripts/bench-api.ts): the list of held-job levels,
 * the CPU time of a process from /proc/<pid>/stat, CPU per request, and the JSON line of a case.
 */

/** Names of the load cases in a figure line (`bare`: the bare Express baseline). */
export type CaseName = 'bare' | 'job' | 'list' | 'balance' | 'estimate' | 'job-computing' | 'pack';

/** One case's figures as `--json` prints them (one object per line). */
export interface CaseFigures {
  case: CaseName;
  /** Jobs held (queued, credits reserved) in the bench organization when the case started. */
  held: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  /** Non-2xx answers plus connection errors. */
  non2xx: number;
  /** Service CPU (user + system) per request, ms; null for the bare Express case or without /proc. */
  cpu_ms: number | null;
  /** Requests per second against bare Express in the same run (1 = as fast); null before it ran. */
  ratio: number | null;
  /** Succeeded jobs seeded in the organization. */
  jobs: number;
  /** Jobs held when the case ended (differs from `held` for `pack`, which adds jobs). */
  held_end: number;
}

/**
 * Parses `--held`: a comma list of whole numbers ≥ 0 ("0,100,1000,10000"), returned ascending
 * without repeats. Throws RangeError on anything else (bench.ts prints it as one line).
 */
export function parseHeldLevels(text: string): number[] {
  const parts = text.split(',').map((s) => s.trim());
  const levels = parts.map((p) => {
    if (!/^\d+$/.test(p)) throw new RangeError(`--held: "${p}" is not a whole number ≥ 0 (e.g. --held 0,100,1000)`);
    return Number(p);
  });
  return [...new Set(levels)].sort((a, b) => a - b);
}

/**
 * Parses a whole number option `name` (≥ `min`). Throws RangeError naming the option otherwise.
 */
export function wholeOption(name: string, text: string, min = 0): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min) throw new RangeError(`${name}: "${text}" is not a whole number ≥ ${min}`);
  return n;
}

/** CPU time a process has used: user and system, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
export interface CpuTicks {
  utime: number;
  stime: number;
}

/**
 * The user and system ticks of a /proc/<pid>/stat line. The process name (field 2) is in
 * parentheses and may hold spaces and parentheses itself, so fields are counted after the last
 * ')'. Throws Error on a line of another shape.
 */
export function parseProcStat(line: string): CpuTicks {
  const close = line.lastIndexOf(')');
  if (close < 0) throw new Error('not a /proc/<pid>/stat line: no process name');
  // After the name: field 3 (state) is index 0, so field n is index n - 3.
  const fields = line
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const utime = Number(fields[14 - 3]);
  const stime = Number(fields[15 - 3]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('not a /proc/<pid>/stat line: no CPU times');
  return { utime, stime };
}

/**
 * CPU ms per request between two readings: (Δutime + Δstime) / `ticksPerSecond` × 1000 /
 * `requests`. Null when no request was answered.
 */
export function cpuMsPerRequest(
  before: CpuTicks,
  after: CpuTicks,
  requests: number,
  ticksPerSecond: number,
): number | null {
  if (requests <= 0) return null;
  const ticks = after.utime - before.utime + (after.stime - before.stime);
  return ((ticks / ticksPerSecond) * 1000) / requests;
}

/** The `--json` line of a case: one JSON object, figures rounded (req/s whole, ms to 0.001). */
export function figuresLine(f: CaseFigures): string {
  const ms = (x: number): number => Math.round(x * 1000) / 1000;
  return JSON.stringify({
    case: f.case,
    held: f.held,
    rps: Math.round(f.rps),
    p50_ms: ms(f.p50_ms),
    p99_ms: ms(f.p99_ms),
    non2xx: f.non2xx,
    cpu_ms: f.cpu_ms === null ? null : ms(f.cpu_ms),
    ratio: f.ratio === null ? null : Math.round(f.ratio * 1000) / 1000,
    jobs: f.jobs,
    held_end: f.held_end,
  });
}
