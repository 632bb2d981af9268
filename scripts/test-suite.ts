/**
 * `npm test [-- --skip eslint,prettier]`: the whole test run, in timed phases; `npm run test:deep`
 * (`--deep`): the same with the property tests' deep counts (test/helpers/property-runs.ts).
 *
 * - `prepare` (scripts/test-prepare.ts): tap's test class built for package.json's plugins, the
 *   two front ends and the compiled server (`dist/`) built when missing or stale, once;
 * - `native`: better-sqlite3's binding compiled (`npm rebuild better-sqlite3`) when it is missing,
 *   as after `npm ci --ignore-scripts` (.ci/run), at `-O1` (NATIVE_CFLAGS);
 * - `tap`: every test file, as the bundle `prepare` made of it (scripts/test-bundles.ts);
 * - the static checks `typecheck`, `eslint`, `prettier` and `layers` (npm run lint:layers).
 *
 * `prepare` and `native` run first, side by side: tap needs both (`dist/`, tap's class, the
 * bundles, the binding). The static checks start after `prepare` and run beside `native` and tap
 * on two lanes (ESLint alone on one, the others one after another on the other) at a lower CPU
 * priority (`nice`, LINT_NICENESS):
 * on 2 cores tap keeps both busy but for its waits (a nats-server stopped for a minute, store
 * faults held for seconds), and the checks fill those instead of holding tap back for their
 * 150-odd CPU-s. A static phase's output is printed whole after tap's (tap's streams; text
 * written between would split its lines), under a line with its name, time and exit code.
 * Every phase runs even when an earlier one failed, so one run reports every failure. The phase
 * times go to `.tap/phase-times.json` (scripts/test-phases.ts) for `npm run test:times`. Exit
 * code: 0 when every phase passed, else that of the first phase to end failing.
 */
import { spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import { Command } from 'commander';
import { existsSync, rmSync } from 'node:fs';
import { CPU_DIR, REPO_ROOT, TAP_DIR, writePhaseTimes, type PhaseTime } from './test-phases.js';
import { BUNDLE_TAP_RC, LAUNCH_DIR } from './test-bundles.js';

/** A phase: a command run in the repository's root. */
interface Phase {
  name: string;
  command: string;
  args: string[];
  /** Variables added to the environment. */
  env?: Record<string, string>;
}

/** Phases run one after another, side by side with other lanes. */
interface Lane {
  phases: readonly Phase[];
  /** Its phases run under `nice -n` this niceness (Unix), lower priority than tap's test processes. */
  niceness?: number;
}

const node = process.execPath;
/** A command npm installed into node_modules/.bin. */
const bin = (name: string): string => join(REPO_ROOT, 'node_modules', '.bin', name);

/** The static checks' niceness beside tap: they take what tap's files leave, and still end within its run. */
const LINT_NICENESS = 10;

const PREPARE: Phase = { name: 'prepare', command: node, args: ['--import', 'tsx', 'scripts/test-prepare.ts'] };
const TYPECHECK: Phase = { name: 'typecheck', command: 'npm', args: ['run', '-s', 'typecheck'] };
const ESLINT: Phase = { name: 'eslint', command: bin('eslint'), args: ['.'] };
const PRETTIER: Phase = { name: 'prettier', command: bin('prettier'), args: ['--check', '.'] };
const LAYERS: Phase = { name: 'layers', command: 'npm', args: ['run', '-s', 'lint:layers'] };
/**
 * tap over the test files' bundles that `prepare` built (scripts/test-bundles.ts), with their
 * configuration (package.json's, without tsx): a file's process loads a few JavaScript files
 * instead of its TypeScript modules through tsx. tap runs each bundle's launcher, which runs
 * the bundle without tap's processinfo preload (scripts/test-launch.mjs).
 */
const TAP: Phase = {
  name: 'tap',
  command: bin('tap'),
  args: [relative(REPO_ROOT, LAUNCH_DIR)],
  env: { TAP_RCFILE: BUNDLE_TAP_RC },
};
/**
 * The native build's C flags: `-O1` after the package's own `-O3` (gcc takes the last). SQLite's
 * amalgamation compiles on 27 CPU-s at `-O1` against 55 at `-O3` here; the tests' SQLite work is
 * a small part of their CPU. A production `npm ci` runs the package's own build, at `-O3`.
 */
const NATIVE_CFLAGS = '-O1';
const NATIVE: Phase = {
  name: 'native',
  command: 'npm',
  args: ['rebuild', 'better-sqlite3'],
  env: { CFLAGS: NATIVE_CFLAGS, CXXFLAGS: NATIVE_CFLAGS },
};

/** better-sqlite3's compiled binding: absent after `npm ci --ignore-scripts` until `native` builds it. */
const SQLITE_BINDING = join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

/**
 * The static checks' lanes, side by side beside tap at LINT_NICENESS. They start after `prepare`:
 * rebuilding tap's test class rewrites the types the type-aware checks read.
 */
const CHECK_LANES: readonly Lane[] = [
  { phases: [ESLINT], niceness: LINT_NICENESS },
  { phases: [TYPECHECK, PRETTIER, LAYERS], niceness: LINT_NICENESS },
];

const started = performance.now();
const seconds = (ms: number): number => Math.round(ms / 100) / 10;
const times: PhaseTime[] = [];

/**
 * Runs one phase (under `nice -n niceness` when given, on Unix); `buffered`: its output is kept
 * for its report, else it streams. Resolves with its report: a line with its name, time and
 * result, then the kept output. Its time and exit code (1 when it could not start or was killed
 * by a signal) go to `times`.
 */
function runPhase(phase: Phase, how: { buffered: boolean; niceness?: number | undefined }): Promise<string> {
  const t0 = performance.now();
  const niced = how.niceness !== undefined && process.platform !== 'win32';
  return new Promise((resolve) => {
    const child = spawn(
      niced ? 'nice' : phase.command,
      niced ? ['-n', String(how.niceness), phase.command, ...phase.args] : phase.args,
      {
        cwd: REPO_ROOT,
        env: { ...process.env, ...phase.env },
        stdio: how.buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      },
    );
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    const done = (status: number): void => {
      const time: PhaseTime = {
        name: phase.name,
        seconds: seconds(performance.now() - t0),
        status,
        startedAt: seconds(t0 - started),
      };
      times.push(time);
      writePhaseTimes({ phases: times, totalSeconds: seconds(performance.now() - started) });
      const head = `── ${phase.name}: ${time.seconds.toFixed(1)} s, ${status === 0 ? 'passed' : `failed (exit ${status})`}`;
      resolve(`${head}\n${Buffer.concat(output).toString()}`);
    };
    child.once('error', (err) => {
      output.push(Buffer.from(`${phase.name} did not start: ${err.message}\n`));
      done(1);
    });
    child.once('exit', (code) => done(code ?? 1));
  });
}

/** Runs a lane's phases one after another, buffered, but those in `skip`; resolves with their reports. */
async function runLane(lane: Lane, skip: ReadonlySet<string>): Promise<string> {
  let reports = '';
  for (const phase of lane.phases)
    if (!skip.has(phase.name)) reports += await runPhase(phase, { buffered: true, niceness: lane.niceness });
  return reports;
}

const write = (text: string): boolean => process.stdout.write(text);

const program = new Command('test')
  .description('type-check, lint and run every tap test, each phase timed (.tap/phase-times.json)')
  .option(
    '--skip <phases>',
    'comma-separated phases to leave out: native, prepare, typecheck, eslint, prettier, layers, tap',
    '',
  )
  .option(
    '--deep',
    'property tests try more cases from fresh seeds (PACKING_TEST_DEPTH=deep: test/helpers/property-runs.ts)',
  )
  .action(async (o: { skip: string; deep?: boolean }) => {
    const skip = new Set(o.skip.split(',').filter(Boolean));
    if (o.deep) process.env['PACKING_TEST_DEPTH'] = 'deep';
    // The native build needs only the compiler; nothing before tap loads the binding.
    const native = existsSync(SQLITE_BINDING) ? Promise.resolve('') : runLane({ phases: [NATIVE] }, skip);
    write(await runLane({ phases: [PREPARE] }, skip));
    const checks = Promise.all(CHECK_LANES.map((lane) => runLane(lane, skip)));
    write(await native);
    // The CPU records and per-file results are of one tap run (test:times and test:failures read
    // them; tap leaves the results of files it did not run, a deleted or renamed one's too).
    if (!skip.has(TAP.name)) {
      rmSync(CPU_DIR, { recursive: true, force: true });
      rmSync(join(TAP_DIR, 'test-results'), { recursive: true, force: true });
      write(await runPhase(TAP, { buffered: false }));
    }
    // The checks' reports after tap's output, which streams (text written into it would split its lines).
    write((await checks).join(''));
    const failed = times.filter((p) => p.status !== 0);
    process.stdout.write(
      `── npm test: ${seconds(performance.now() - started).toFixed(1)} s; ` +
        `${failed.length ? `failed: ${failed.map((p) => p.name).join(', ')}` : 'every phase passed'}\n`,
    );
    process.exitCode = failed[0]?.status ?? 0;
  });

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
