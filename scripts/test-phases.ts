/**
 * The phases of `npm test` (scripts/test-suite.ts) and where their times are kept: one module for
 * the runner that writes them and for `npm run test:times` (scripts/test-times.ts) that prints
 * them again.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** tap's own folder of a run's records (`.tap/`, git-ignored): test-results/, processinfo/. */
export const TAP_DIR = join(REPO_ROOT, '.tap');

/** Where each test file's process writes its CPU record (scripts/test-cpu-record.mjs), one JSON file a process. */
export const CPU_DIR = join(TAP_DIR, 'cpu');

/** Where the last `npm test` wrote its phase times. */
export const PHASE_TIMES_FILE = join(TAP_DIR, 'phase-times.json');

/** One phase of a run: its name, wall time (s, from its start to its end) and exit code. */
export interface PhaseTime {
  name: string;
  seconds: number;
  status: number;
  /** When the phase started, s after the run's start (phases on two lanes overlap). */
  startedAt: number;
}

/** A run's phases in the order they started, and the run's whole wall time (s). */
export interface PhaseTimes {
  phases: PhaseTime[];
  totalSeconds: number;
}

/** Writes the phase times (the folder is made when missing). */
export function writePhaseTimes(times: PhaseTimes): void {
  mkdirSync(dirname(PHASE_TIMES_FILE), { recursive: true });
  writeFileSync(PHASE_TIMES_FILE, `${JSON.stringify(times, null, 1)}\n`);
}

/** The phase times of the last run, or undefined when no run wrote them. */
export function readPhaseTimes(file = PHASE_TIMES_FILE): PhaseTimes | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as PhaseTimes;
}
