/**
 * `npm run bench -- threads-loader [--files BR7,BR15] [--instances 1-5] [--work 20000] [--threads 1] [--rounds 3]`:
 * the search's placements per second with the compiled JavaScript (`dist/`, what `npm start`
 * runs, scripts/build-server.ts) against the same TypeScript through the tsx loader (what tests
 * and scripts run). Same work: every instance of the BR files (scripts/bench-br.ts) runs in
 * deterministic mode (`workLimit` block placements per thread); each round solves them all in
 * two fresh node processes, one per loader (plain `node` importing `dist/solver/solve.js`, and
 * `node --import tsx` importing `solver/solve.ts`; the pool's threads load `thread.js` or
 * `thread.ts` beside them), alternating which goes first. Prints, per file and loader, the
 * placements per second of all threads (thousands: work over compute ms of wall time, the median
 * round and the range), the same per CPU-second of the process (what other work on a shared
 * machine does not inflate) and whether both loaders placed the same units with the same work
 * (they must: same seed, same work). Builds `dist/` first when it is stale.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PackModel } from '../domain/pack/plan.js';
import { parseRange, resolveBrFile } from './bench-br.js';
import { median } from './page-transfer.js';
import { brModel, parseBr } from './br-format.js';
import { SERVER_DIST, buildServer, serverBuildState } from './build-server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Options of the `threads-loader` bench (strings as commander gives them). */
export interface ThreadsLoaderOptions {
  files: string;
  instances: string;
  work: string;
  threads: string;
  rounds: string;
}

/** How the solver's code is loaded: compiled JavaScript, or TypeScript through tsx. */
type Loader = 'compiled' | 'tsx';

/**
 * One solve in a child process: block placements of all threads, compute ms (wall time), CPU ms
 * of the process (every thread; what a busy machine's other work does not inflate), units placed.
 */
interface ChildRow {
  work: number;
  ms: number;
  cpuMs: number;
  placed: number;
}

/**
 * The child's program (ESM, plain JavaScript so both loaders run it alike; a file, since the
 * pool's threads inherit the process's options and `--eval` is not one of theirs): argv[2] the
 * solver module's URL, argv[3] threads; the models on stdin (a JSON array); a JSON array of rows out.
 */
const CHILD = `
const { Solver } = await import(process.argv[2]);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const solver = new Solver({ threads: Number(process.argv[3]) });
await solver.warm();
const rows = [];
for (const model of JSON.parse(input)) {
  const cpu = process.cpuUsage();
  const out = await solver.solve(model);
  const used = process.cpuUsage(cpu);
  if (out.status !== 'solved') throw new Error('instance not solved: ' + out.status);
  const placed = out.plan.vehicles.reduce((s, v) => s + v.items_placed, 0);
  rows.push({ work: out.work, ms: out.computeMs, cpuMs: (used.user + used.system) / 1000, placed });
}
await solver.close();
process.stdout.write(JSON.stringify(rows));
`;

/** Solves `models` in a fresh node process with `loader`; rejects when the child fails. */
function solveInChild(loader: Loader, program: string, models: PackModel[], threads: number): Promise<ChildRow[]> {
  const solveModule =
    loader === 'compiled'
      ? pathToFileURL(join(SERVER_DIST, 'solver', 'solve.js')).href
      : pathToFileURL(join(ROOT, 'solver', 'solve.ts')).href;
  const args = [...(loader === 'tsx' ? ['--import', 'tsx'] : []), program];
  // NODE_OPTIONS could carry a loader into the compiled child: both run without it.
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  const child = spawn(process.execPath, [...args, solveModule, String(threads)], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stdin.end(JSON.stringify(models));
  return new Promise((ok, fail) =>
    child.once('exit', (code) =>
      code === 0 ? ok(JSON.parse(out) as ChildRow[]) : fail(new Error(`the ${loader} child exited with ${code}`)),
    ),
  );
}

/** Thousands per ms: the median and the range, e.g. `17.2 (11.9–32.7)`. */
const figure = (xs: number[]): string =>
  `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

/** Runs the bench and prints its table; rejects on a failed child or bad options. */
export async function benchThreadsLoader(o: ThreadsLoaderOptions): Promise<void> {
  const work = Number(o.work);
  const threads = Number(o.threads);
  const rounds = Number(o.rounds);
  if (!(work >= 1) || !(threads >= 1) || !(rounds >= 1))
    throw new RangeError('--work, --threads and --rounds must be at least 1');
  const state = serverBuildState();
  if (state !== 'fresh') {
    const ms = buildServer();
    console.log(`built the server into dist in ${(ms / 1000).toFixed(1)} s (it was ${state})`);
  }
  const wanted = parseRange(o.instances);
  const dir = mkdtempSync(join(tmpdir(), 'bench-threads-loader-'));
  const program = join(dir, 'child.mjs');
  writeFileSync(program, CHILD);
  try {
    await runFiles(o, wanted, work, threads, rounds, program);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runFiles(
  o: ThreadsLoaderOptions,
  wanted: number[],
  work: number,
  threads: number,
  rounds: number,
  program: string,
): Promise<void> {
  console.log(
    `threads-loader: instances ${o.instances}, work ${work} per thread (deterministic), ${threads} threads, ${rounds} rounds`,
  );
  console.log(
    'file         loader    k placements/s (median, range)   k per CPU-second (median, range)   ms per instance   same plans',
  );
  for (const arg of o.files.split(',')) {
    const path = resolveBrFile(arg.trim());
    // A budget far above the work: the work limit ends every search, not the clock.
    const models = parseBr(readFileSync(path, 'utf8'))
      .filter((p) => wanted.includes(p.number))
      .map((p): PackModel => ({ ...brModel(p, 600_000), workLimit: work }));
    const rates: Record<Loader, number[]> = { compiled: [], tsx: [] };
    const perCpu: Record<Loader, number[]> = { compiled: [], tsx: [] };
    const msPer: Record<Loader, number[]> = { compiled: [], tsx: [] };
    const outcomes: Record<Loader, string[]> = { compiled: [], tsx: [] };
    for (let round = 0; round < rounds; round++) {
      const order: Loader[] = round % 2 === 0 ? ['tsx', 'compiled'] : ['compiled', 'tsx'];
      for (const loader of order) {
        const rows = await solveInChild(loader, program, models, threads);
        const ms = rows.reduce((s, r) => s + r.ms, 0);
        const cpuMs = rows.reduce((s, r) => s + r.cpuMs, 0);
        const placements = rows.reduce((s, r) => s + r.work, 0);
        rates[loader].push(placements / Math.max(1, ms));
        perCpu[loader].push(placements / Math.max(1, cpuMs));
        msPer[loader].push(ms / Math.max(1, rows.length));
        outcomes[loader].push(JSON.stringify(rows.map((r) => [r.work, r.placed])));
      }
    }
    const same = new Set([...outcomes.compiled, ...outcomes.tsx]).size === 1;
    for (const loader of ['tsx', 'compiled'] as const) {
      console.log(
        [
          basename(path).padEnd(12),
          loader.padEnd(9),
          figure(rates[loader]).padEnd(33),
          figure(perCpu[loader]).padEnd(35),
          median(msPer[loader]).toFixed(0).padStart(15),
          `  ${same ? 'yes' : 'NO'}`,
        ].join(' '),
      );
    }
  }
}
