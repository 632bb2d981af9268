/**
 * `npm run bench -- api`: load figures of the HTTP API on loopback, and how they grow with an
 * organization's backlog.
 *
 *   npm run bench -- api [--jobs 2000] [--seconds 10] [--connections 50] [--only case,case] [--json] [--keep]
 *   npm run bench -- api --held 0,100,1000,10000 [--jobs 100000] [--seconds 10] [--json]
 *   npm run bench -- api --restart-queued 10000 [--jobs 2000] [--json]
 *
 * Runs the service as production does: the compiled JavaScript (`node --enable-source-maps
 * dist/service/main.js`, dist/ rebuilt first when a source changed: scripts/build-server.ts
 * `--if-stale`), free port, SOLVER_THREADS=1; the bare Express baseline (scripts/bare-express.ts)
 * likewise as plain JavaScript in a process of its own (compiled in memory, no loader). Fills a
 * temporary data dir with `--jobs` succeeded jobs of one organization first (scripts/seed-log.ts,
 * through the domain commands, no HTTP; prints how long it took), then drives the service with
 * autocannon, one case after the other, each `--seconds` long with `--connections` connections:
 *   bare           a bare Express route answering the same JSON as GET /v1/jobs/{id}
 *                  (`bare-express` is accepted in --only too)
 *   job            GET /v1/jobs/{id}, ids cycled over the seeded jobs
 *   list           GET /v1/jobs?status=succeeded&limit=20
 *   balance        GET /v1/balance
 *   estimate       POST /v1/estimate, 200 units
 *   job-computing  GET /v1/jobs/{id} while 2 jobs with a 60 s budget compute (canceled afterwards;
 *                  not with --held)
 *   pack           POST /v1/pack admissions, no Idempotency-Key (the organization's rate limits
 *                  and queue limit are raised at seeding)
 * Per case it prints requests/s, p50 and p99 latency (ms), non-2xx answers, the ratio of
 * requests/s to bare Express, and the service's CPU per request (utime + stime of
 * /proc/<pid>/stat over the case, divided by its requests, ms).
 *
 * `--held L1,L2,…`: the organization gets no compute slot (limits concurrency 0: the ledger's
 * StartNextJob never starts a job, so admitted jobs stay queued with their credits reserved, as a
 * backlog waiting for a slot does; QUEUE_TIMEOUT_SECONDS is a day). For each level, lowest first,
 * the running service is brought to exactly L held jobs (admissions through POST /v1/pack, or
 * cancels of the newest through DELETE when the pack case left more), the balance read model is
 * waited for, and the cases run (default bare, job, list, balance, pack; pack last, as it adds
 * jobs: its line says how many were held at its start and end). After the largest level the
 * service is stopped (SIGTERM) and started again: time to the 'listening' line, then a check that
 * every job held at the stop ended `failed` with `server_restarted` exactly once (its job stream)
 * and was settled exactly once (the ledger), that no credits stay reserved (GET /v1/balance), and
 * `npm run replay-billing` on the data dir (0 differences).
 *
 * `--restart-queued N`: seeds N queued jobs (admitted, request stored, queued, never started)
 * after the `--jobs` succeeded ones straight into the log, builds the read models (as a service
 * that stopped had them), starts the service and times it to 'listening', then the same checks.
 *
 * Without `--held`, the organization computes (concurrency 2) and after the cases the start-up
 * time (spawn → 'listening', spawn → GET /health 200), resident memory (VmRSS) and events in the
 * log are printed after a clean stop and after a `kill -9`.
 *
 * `--json`: stdout gets one JSON object per line and case (scripts/bench-api-figures.ts
 * `figuresLine`: case, held, rps, p50_ms, p99_ms, non2xx, cpu_ms, ratio, jobs, held_end) and one
 * per restart (`"case": "restart"`: held, listening_ms, health_ms, failed_once, settled_once,
 * reserved_credits, replay_differences); nothing else (progress goes to stderr).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import ts from 'typescript';
import { SqliteEventStore } from '../adapters/sqlite/event-store.js';
import { rebuildReadModels } from '../service/read-models-rebuild.js';
import {
  cpuMsPerRequest,
  figuresLine,
  parseHeldLevels,
  parseProcStat,
  wholeOption,
  type CaseFigures,
  type CaseName,
  type CpuTicks,
} from './bench-api-figures.js';
import { seedJobLog, type SeededLog } from './seed-log.js';

/** Options of the `api` benchmark (strings from the command line). */
export interface ApiBenchOptions {
  jobs: string;
  seconds: string;
  connections: string;
  only?: string;
  /** Held-job levels, e.g. "0,100,1000,10000". */
  held?: string;
  /** Queued jobs seeded into the log for the start-up figure. */
  restartQueued?: string;
  json?: boolean;
  /** Keep the data dir (and print its path) instead of removing it: e.g. to time a rebuild on it. */
  keep?: boolean;
}

/** The part of an autocannon result the bench reads (latencies in ms). */
interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
interface CannonRequest {
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
  setupRequest?: (req: CannonRequest) => CannonRequest;
  onResponse?: (status: number, body: string) => void;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: CannonRequest[];
}) => Promise<CannonResult>;
// autocannon ships no type declarations: the shape above is what this file uses.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CASES: readonly CaseName[] = ['bare', 'job', 'list', 'balance', 'estimate', 'job-computing', 'pack'];
const HELD_CASES: readonly CaseName[] = ['bare', 'job', 'list', 'balance', 'pack'];

/** Progress and tables: stdout, or stderr with --json (stdout then carries only JSON lines). */
let say: (text: string) => void = (text) => console.log(text);

/** Compiles dist/ when a source changed (scripts/build-server.ts --if-stale); its output goes to stderr. */
function buildServerIfStale(): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts', '--if-stale'], {
    cwd: ROOT,
    stdio: ['ignore', process.stderr, 'inherit'],
  });
  if (run.status !== 0) throw new Error('building dist/ failed (scripts/build-server.ts --if-stale)');
}

/** Starts scripts/bare-express.ts as plain JavaScript answering the JSON in `bodyFile`; resolves with its port. */
async function startBareExpress(bodyFile: string): Promise<{ child: ChildProcess; port: number }> {
  const source = readFileSync(fileURLToPath(new URL('./bare-express.ts', import.meta.url)), 'utf8');
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  // An ES module evaluated from the repository's root: `express` resolves from its node_modules.
  const child = spawn(process.execPath, ['--input-type=module', '--eval', js], {
    cwd: ROOT,
    env: { ...process.env, BODY_FILE: bodyFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout })) {
    const m = /^listening (\d+)$/.exec(line);
    if (m) return { child, port: Number(m[1]) };
  }
  throw new Error('the bare Express process ended before listening');
}

/** A running service child: its URL and pid, and when it said 'listening' and answered /health. */
interface Started {
  child: ChildProcess;
  url: string;
  listeningMs: number;
  /** CPU time (user + system, all threads) the service had used at its 'listening' line, ms; NaN without /proc. */
  listeningCpuMs: number;
  healthMs: number;
  exited: Promise<void>;
}

/** CPU time (user + system) `pid` has used, ms (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms); NaN where /proc is missing. */
function cpuMs(pid: number): number {
  try {
    // The fields after the command name in parentheses (which may hold spaces): utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

async function startService(dataDir: string): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/service/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PACKING_DATA_DIR: dataDir,
      SOLVER_THREADS: '1',
      LOG_LEVEL: 'info',
      // Held jobs wait for the whole bench: no queue_timeout meanwhile.
      QUEUE_TIMEOUT_SECONDS: '86400',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const { port, listeningMs, listeningCpuMs } = await new Promise<{
    port: number;
    listeningMs: number;
    listeningCpuMs: number;
  }>((ok, fail) => {
    void exited.then(() => fail(new Error('the service exited before listening')));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"msg":"listening"'))
        ok({
          port: (JSON.parse(line) as { port: number }).port,
          listeningMs: performance.now() - t0,
          listeningCpuMs: cpuMs(child.pid!),
        });
    });
  });
  const url = `http://127.0.0.1:${port}`;
  // The first 200 of /health (polled from the 'listening' line on; it can only answer after it).
  for (;;) {
    const res = await fetch(`${url}/health`).catch(() => undefined);
    if (res?.status === 200) break;
    await new Promise((ok) => setTimeout(ok, 5));
  }
  return { child, url, listeningMs, listeningCpuMs, healthMs: performance.now() - t0, exited };
}

async function stopService(service: Started, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  if (service.child.exitCode === null) service.child.kill(signal);
  await service.exited;
}

/** Resident memory of `pid` in MB (VmRSS of /proc/<pid>/status), NaN where /proc is missing. */
function residentMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK; 100 where getconf is missing). */
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** CPU ticks `pid` has used so far, undefined where /proc is missing. */
function cpuTicks(pid: number): CpuTicks | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Events in the log (read-only look at `<dataDir>/events.db`). */
function eventCount(dataDir: string): number {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** 200 units in 4 kinds into the 20 ft container (POST /v1/estimate). */
const ESTIMATE_BODY = JSON.stringify({
  vehicles: [{ vehicle_id: 'container-20-dry' }],
  items: [40, 50, 60, 70].map((l, i) => ({
    id: `sku-${i}`,
    length: l,
    width: 40,
    height: 30,
    weight: 8,
    quantity: 50,
  })),
});
/** A small admission (POST /v1/pack): one kind, a 0.2 s budget. */
const PACK_BODY = JSON.stringify({
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'ctn', length: 60, width: 40, height: 40, weight: 12, quantity: 10 }],
  options: { time_limit: 0.2 },
});
/** 200 kinds that do not all fit a van: the search runs its whole 60 s budget. */
const BUSY_BODY = JSON.stringify({
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: Array.from({ length: 200 }, (_, i) => ({
    id: `sku-${i}`,
    length: 20 + (i % 37),
    width: 15 + (i % 23),
    height: 10 + (i % 29),
    weight: 3,
    quantity: 10,
  })),
  options: { packing_mode: 'fleet_only', time_limit: 60 },
});

const row = (cells: (string | number)[], widths: number[]): string =>
  cells.map((c, i) => String(c).padStart(widths[i]!)).join('  ');
const TABLE = [14, 7, 9, 8, 8, 8, 8, 9];
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** Parses `--only` against `allowed` (`bare-express` names `bare`). Throws RangeError on an unknown case. */
function casesOf(only: string | undefined, allowed: readonly CaseName[], defaults: readonly CaseName[]): Set<CaseName> {
  if (only === undefined) return new Set(defaults);
  const picked = new Set<CaseName>();
  for (const raw of only.split(',').map((s) => s.trim())) {
    const name = (raw === 'bare-express' ? 'bare' : raw) as CaseName;
    if (!allowed.includes(name)) throw new RangeError(`--only: unknown case ${raw}; cases: ${allowed.join(', ')}`);
    picked.add(name);
  }
  return picked;
}

/** Seeds the log: `jobs` succeeded jobs and `queued` queued ones, prints the time it took. */
async function seed(dataDir: string, jobs: number, queued: number, concurrency: number): Promise<SeededLog> {
  const started = performance.now();
  const seeded = await seedJobLog(dataDir, {
    jobs,
    queued,
    credits: 100_000_000,
    limits: { rateLimits: { perMinute: 1e9, perHour: 1e9, perDay: 1e9 }, maxQueuedJobs: 1_000_000, concurrency },
    onProgress: (n) => process.stderr.write(`seeded ${n} jobs (${seconds(performance.now() - started)})\n`),
  });
  say(
    `seeded ${jobs} succeeded${queued ? ` and ${queued} queued` : ''} jobs (${seeded.events} events) in ${seconds(performance.now() - started)}; data dir ${dataDir}`,
  );
  return seeded;
}

/** What the restart check found (see checkRestart). */
interface RestartCheck {
  failedOnce: number;
  settledOnce: number;
  reservedCredits: number;
  replayDifferences: number | null;
}

/**
 * After a restart: counts, in the log, the jobs of `heldIds` with exactly one JobFailed whose code
 * is server_restarted and exactly one JobSettled on the ledger; reads the reserved credits of
 * GET /v1/balance once the balances read model shows the settlements (waits up to 60 s).
 */
async function checkRestart(
  dataDir: string,
  heldIds: readonly string[],
  url: string,
  auth: Record<string, string>,
): Promise<Omit<RestartCheck, 'replayDifferences'>> {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  const failed = new Map<string, number>();
  const settled = new Map<string, number>();
  try {
    for (const r of db.prepare("SELECT data FROM events WHERE type = 'JobFailed'").iterate() as Iterable<{
      data: string;
    }>) {
      const d = JSON.parse(r.data) as { jobId: string; code: string };
      failed.set(d.jobId, (failed.get(d.jobId) ?? 0) + (d.code === 'server_restarted' ? 1 : 1000));
    }
    for (const r of db.prepare("SELECT data FROM events WHERE type = 'JobSettled'").iterate() as Iterable<{
      data: string;
    }>) {
      const d = JSON.parse(r.data) as { jobId: string };
      settled.set(d.jobId, (settled.get(d.jobId) ?? 0) + 1);
    }
  } finally {
    db.close();
  }
  let reservedCredits = NaN;
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const res = await fetch(`${url}/v1/balance`, { headers: auth });
    reservedCredits = ((await res.json()) as { reserved_credits: number }).reserved_credits;
    if (reservedCredits === 0) break;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  return {
    failedOnce: heldIds.filter((id) => failed.get(id) === 1).length,
    settledOnce: heldIds.filter((id) => settled.get(id) === 1).length,
    reservedCredits,
  };
}

/** `npm run replay-billing -- --data-dir <dir> --json` (the service stopped): its difference count, null if it failed. */
function replayBilling(dataDir: string): number | null {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/replay-billing.ts', '--data-dir', dataDir, '--json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, PACKING_DATA_DIR: dataDir },
    },
  );
  try {
    return (JSON.parse(run.stdout) as { differences: number }).differences;
  } catch {
    process.stderr.write(run.stderr);
    return null;
  }
}

/** Prints a restart's figures and checks (table line or JSON line). */
function reportRestart(json: boolean, held: number, started: Started, check: RestartCheck): void {
  if (json) {
    console.log(
      JSON.stringify({
        case: 'restart',
        held,
        listening_ms: Math.round(started.listeningMs),
        listening_cpu_ms: started.listeningCpuMs,
        health_ms: Math.round(started.healthMs),
        failed_once: check.failedOnce,
        settled_once: check.settledOnce,
        reserved_credits: check.reservedCredits,
        replay_differences: check.replayDifferences,
      }),
    );
    return;
  }
  say(
    `\nrestart with ${held} jobs queued: 'listening' after ${started.listeningMs.toFixed(0)} ms (${started.listeningCpuMs} ms CPU), /health 200 after ${started.healthMs.toFixed(0)} ms`,
  );
  say(`  failed server_restarted exactly once: ${check.failedOnce} of ${held}`);
  say(`  settled exactly once:                 ${check.settledOnce} of ${held}`);
  say(`  reserved credits after:               ${check.reservedCredits}`);
  say(
    `  replay-billing:                       ${check.replayDifferences === null ? 'failed (see stderr)' : `${check.replayDifferences} differences`}`,
  );
}

/** `--restart-queued N`: N queued jobs seeded into the log, the read models built, one timed start. */
async function benchRestartQueued(dataDir: string, jobs: number, queued: number, json: boolean): Promise<void> {
  const seeded = await seed(dataDir, jobs, queued, 0);
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    const rebuilt = await rebuildReadModels(store, dataDir);
    say(`read models built from the log (${rebuilt.position} events) in ${seconds(rebuilt.ms)}`);
  } finally {
    await store.close();
  }
  const service = await startService(dataDir);
  let check: Omit<RestartCheck, 'replayDifferences'>;
  try {
    check = await checkRestart(dataDir, seeded.queuedIds, service.url, { authorization: `Bearer ${seeded.key}` });
  } finally {
    await stopService(service);
  }
  reportRestart(json, queued, service, { ...check, replayDifferences: replayBilling(dataDir) });
}

/** The `api` subcommand. */
export async function benchApi(options: ApiBenchOptions): Promise<void> {
  const json = options.json === true;
  if (json) say = (text) => void process.stderr.write(`${text}\n`);
  const jobs = wholeOption('--jobs', options.jobs);
  const duration = wholeOption('--seconds', options.seconds, 1);
  const connections = wholeOption('--connections', options.connections, 1);
  const levels = options.held !== undefined ? parseHeldLevels(options.held) : undefined;
  const only = casesOf(
    options.only,
    levels ? CASES.filter((c) => c !== 'job-computing') : CASES,
    levels ? HELD_CASES : CASES,
  );
  const restartQueued =
    options.restartQueued !== undefined ? wholeOption('--restart-queued', options.restartQueued, 1) : undefined;

  buildServerIfStale();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  chmodSync(dataDir, 0o700);
  let service: Started | undefined;
  let bare: ChildProcess | undefined;
  try {
    if (restartQueued !== undefined) {
      await benchRestartQueued(dataDir, jobs, restartQueued, json);
      return;
    }
    // With --held the organization has no compute slot: its admissions stay queued (held).
    const seeded = await seed(dataDir, jobs, 0, levels ? 0 : 2);
    const first = performance.now();
    service = await startService(dataDir);
    say(`service up (read models caught up with the log) in ${seconds(performance.now() - first)}`);
    const auth = { authorization: `Bearer ${seeded.key}` };
    const res = await fetch(`${service.url}/v1/jobs/${seeded.jobIds[0]}`, { headers: auth });
    writeFileSync(join(dataDir, 'bare-body.json'), await res.text());
    const started = await startBareExpress(join(dataDir, 'bare-body.json'));
    bare = started.child;
    const bareUrl = `http://127.0.0.1:${started.port}`;
    let next = 0;
    const jobPath = (req: CannonRequest): CannonRequest => ({
      ...req,
      path: `/v1/jobs/${seeded.jobIds[next++ % seeded.jobIds.length]}`,
    });

    /** Jobs held (queued, credits reserved) as last read by consistentHeld, with the credits each reserved. */
    let held = new Map<string, number>();
    const packRequest: CannonRequest = {
      method: 'POST',
      path: '/v1/pack',
      headers: { ...auth, 'content-type': 'application/json' },
      body: PACK_BODY,
    };
    const getJson = async <T>(path: string): Promise<T> => {
      const res = await fetch(`${service!.url}${path}`, { headers: auth });
      if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
      return (await res.json()) as T;
    };
    /**
     * The organization's queued jobs, newest first, once the jobs read model (GET /v1/jobs?status=queued,
     * every page) and the balances read model (GET /v1/balance reserved_credits) agree on them: admissions
     * still in flight when a timed case ended are counted too. Waits up to 5 minutes.
     */
    const consistentHeld = async (): Promise<Map<string, number>> => {
      const until = Date.now() + 300_000;
      for (;;) {
        const queued = new Map<string, number>();
        let cursor = '';
        do {
          const page = await getJson<{
            data: { id: string; cost: { reserved_credits: number } }[];
            next_cursor: string;
          }>(`/v1/jobs?status=queued&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          for (const j of page.data) queued.set(j.id, j.cost.reserved_credits);
          cursor = page.next_cursor;
        } while (cursor);
        const { reserved_credits: reserved } = await getJson<{ reserved_credits: number }>('/v1/balance');
        const expected = [...queued.values()].reduce((a, b) => a + b, 0);
        if (Math.abs(reserved - expected) < 1e-6 * Math.max(1, queued.size)) return (held = queued);
        if (Date.now() > until) throw new Error(`the balance shows ${reserved} reserved, the queued jobs ${expected}`);
        await new Promise((ok) => setTimeout(ok, 50));
      }
    };
    /** Brings the held jobs to exactly `level`: admissions (POST /v1/pack), or cancels of the newest (DELETE). */
    const holdExactly = async (level: number): Promise<void> => {
      const t0 = performance.now();
      for (;;) {
        await consistentHeld();
        if (held.size === level) break;
        if (held.size < level) {
          const r = await autocannon({
            url: service!.url,
            connections,
            amount: level - held.size,
            requests: [packRequest],
          });
          if (r.non2xx + r.errors > 0) say(`  ${r.non2xx + r.errors} admissions refused on the way to ${level} held`);
          continue;
        }
        // The newest beyond the level are canceled, 16 at a time; each must answer 2xx.
        const surplus = [...held.keys()].slice(0, held.size - level);
        let i = 0;
        await Promise.all(
          Array.from({ length: 16 }, async () => {
            while (i < surplus.length) {
              const id = surplus[i++]!;
              const res = await fetch(`${service!.url}/v1/jobs/${id}`, { method: 'DELETE', headers: auth });
              await res.arrayBuffer();
              if (!res.ok) throw new Error(`DELETE /v1/jobs/${id} answered ${res.status}`);
            }
          }),
        );
      }
      say(`${level} jobs held (${seconds(performance.now() - t0)} to get there)`);
    };

    const cases: Record<CaseName, () => Promise<CannonResult>> = {
      bare: () => autocannon({ url: bareUrl, connections, duration, requests: [{ setupRequest: jobPath }] }),
      job: () =>
        autocannon({ url: service!.url, connections, duration, headers: auth, requests: [{ setupRequest: jobPath }] }),
      list: () =>
        autocannon({
          url: `${service!.url}/v1/jobs?status=succeeded&limit=20`,
          connections,
          duration,
          headers: auth,
        }),
      balance: () => autocannon({ url: `${service!.url}/v1/balance`, connections, duration, headers: auth }),
      estimate: () =>
        autocannon({
          url: `${service!.url}/v1/estimate`,
          connections,
          duration,
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: ESTIMATE_BODY,
        }),
      'job-computing': async () => {
        const busy: string[] = [];
        for (let i = 0; i < 2; i++) {
          const res = await fetch(`${service!.url}/v1/pack`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: BUSY_BODY,
          });
          busy.push(((await res.json()) as { id: string }).id);
        }
        try {
          return await autocannon({
            url: service!.url,
            connections,
            duration,
            headers: auth,
            requests: [{ setupRequest: jobPath }],
          });
        } finally {
          for (const id of busy) await fetch(`${service!.url}/v1/jobs/${id}`, { method: 'DELETE', headers: auth });
        }
      },
      pack: () => autocannon({ url: service!.url, connections, duration, requests: [packRequest] }),
    };

    say(`\n${duration} s per case, ${connections} connections, loopback, compiled service (dist/)`);
    say(row(['case', 'held', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'vs bare', 'CPU ms/req'], TABLE));
    let bareRate: number | undefined;
    for (const level of levels ?? [0]) {
      if (levels) await holdExactly(level);
      for (const name of CASES) {
        if (!only.has(name)) continue;
        const heldAtStart = held.size;
        const target = name === 'bare' ? undefined : service.child.pid!;
        const before = target === undefined ? undefined : cpuTicks(target);
        const r = await cases[name]();
        const after = target === undefined ? undefined : cpuTicks(target);
        if (levels && name === 'pack') await consistentHeld();
        if (name === 'bare') bareRate = r.requests.average;
        const figures: CaseFigures = {
          case: name,
          held: levels ? heldAtStart : 0,
          rps: r.requests.average,
          p50_ms: r.latency.p50,
          p99_ms: r.latency.p99,
          non2xx: r.non2xx + r.errors,
          cpu_ms: before && after ? cpuMsPerRequest(before, after, r.requests.total, TICKS_PER_SECOND) : null,
          ratio: bareRate ? r.requests.average / bareRate : null,
          jobs,
          held_end: levels ? held.size : 0,
        };
        if (json) console.log(figuresLine(figures));
        else
          say(
            row(
              [
                name,
                name === 'pack' && levels ? `${figures.held}→${figures.held_end}` : figures.held,
                figures.rps.toFixed(0),
                figures.p50_ms,
                figures.p99_ms,
                figures.non2xx,
                figures.ratio === null ? '-' : `${(100 * figures.ratio).toFixed(0)} %`,
                figures.cpu_ms === null ? '-' : figures.cpu_ms.toFixed(3),
              ],
              TABLE,
            ),
          );
      }
    }

    if (levels) {
      // The restart after the largest level: every job held now must end server_restarted once.
      const heldIds = [...held.keys()];
      await stopService(service);
      service = await startService(dataDir);
      const check = await checkRestart(dataDir, heldIds, service.url, auth);
      await stopService(service);
      reportRestart(json, heldIds.length, service, { ...check, replayDifferences: replayBilling(dataDir) });
      return;
    }

    const startups: string[] = [];
    const measure = async (after: string, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> => {
      await stopService(service!, signal);
      const events = eventCount(dataDir);
      service = await startService(dataDir);
      startups.push(
        row(
          [
            after,
            events,
            service.listeningMs.toFixed(0),
            service.healthMs.toFixed(0),
            residentMb(service.child.pid!).toFixed(0),
          ],
          [12, 10, 14, 14, 8],
        ),
      );
    };
    await measure('clean stop', 'SIGTERM');
    await measure('kill -9', 'SIGKILL');
    say(`\nstart-up with the log built above (spawn → 'listening' line, spawn → /health 200, resident memory then)`);
    say(row(['after', 'events', 'listening ms', 'health ms', 'RSS MB'], [12, 10, 14, 14, 8]));
    for (const line of startups) say(line);
  } finally {
    if (service) await stopService(service);
    if (bare && bare.exitCode === null) bare.kill('SIGTERM');
    if (options.keep) say(`data dir kept: ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}
