/**
 * `npm run bench -- api`: load figures of the HTTP API on loopback.
 *
 *   npm run bench -- api [--jobs 2000] [--seconds 10] [--connections 50] [--only case,case]
 *
 * Fills a temporary data dir with `--jobs` succeeded jobs through the domain commands
 * (scripts/seed-log.ts, no HTTP), starts the service (`node --import tsx service/main.ts`, free
 * port, SOLVER_THREADS=1) and drives it with autocannon, one case after the other, each
 * `--seconds` long with `--connections` connections:
 *   bare-express   a bare Express route answering the same JSON as GET /v1/jobs/{id}, in a process
 *                  of its own like the service (scripts/bare-express.ts)
 *   job            GET /v1/jobs/{id}, ids cycled over the seeded jobs
 *   list           GET /v1/jobs?status=succeeded&limit=20
 *   balance        GET /v1/balance
 *   estimate       POST /v1/estimate, 200 units
 *   job-computing  GET /v1/jobs/{id} while 2 jobs with a 60 s budget compute (canceled afterwards)
 *   pack           POST /v1/pack admissions, no Idempotency-Key (the bench organization's rate
 *                  limits and queue limit are raised at seeding)
 * and prints: case, requests/s, p50 and p99 latency (ms), non-2xx answers, ratio of requests/s
 * to bare Express. Then it stops the service (SIGTERM), starts it again and prints the start-up
 * time (spawn → 'listening' log line, spawn → GET /health 200), the resident memory (VmRSS of
 * /proc/<pid>/status) and the events in the log; the same after a `kill -9`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { seedJobLog } from './seed-log.js';

/** Starts scripts/bare-express.ts answering the JSON in `bodyFile`; resolves with its port. */
async function startBareExpress(bodyFile: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./bare-express.ts', import.meta.url))],
    {
      env: { ...process.env, BODY_FILE: bodyFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  for await (const line of createInterface({ input: child.stdout })) {
    const m = /^listening (\d+)$/.exec(line);
    if (m) return { child, port: Number(m[1]) };
  }
  throw new Error('the bare Express process ended before listening');
}

/** Options of the `api` benchmark (strings from the command line). */
export interface ApiBenchOptions {
  jobs: string;
  seconds: string;
  connections: string;
  only?: string;
  /** Keep the data dir (and print its path) instead of removing it: e.g. to time a rebuild on it. */
  keep?: boolean;
}

/** The part of an autocannon result the table reads (latencies in ms). */
interface CannonResult {
  requests: { average: number };
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
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: CannonRequest[];
}) => Promise<CannonResult>;
// autocannon ships no type declarations: the shape above is what this file uses.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CASES = ['bare-express', 'job', 'list', 'balance', 'estimate', 'job-computing', 'pack'] as const;
type CaseName = (typeof CASES)[number];

/** A running service child: its URL and pid, and when it said 'listening' and answered /health. */
interface Started {
  child: ChildProcess;
  url: string;
  listeningMs: number;
  healthMs: number;
  exited: Promise<void>;
}

async function startService(dataDir: string): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PACKING_DATA_DIR: dataDir,
      SOLVER_THREADS: '1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const { port, listeningMs } = await new Promise<{ port: number; listeningMs: number }>((ok, fail) => {
    void exited.then(() => fail(new Error('the service exited before listening')));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"msg":"listening"'))
        ok({ port: (JSON.parse(line) as { port: number }).port, listeningMs: performance.now() - t0 });
    });
  });
  const url = `http://127.0.0.1:${port}`;
  // The first 200 of /health (polled from the 'listening' line on; it can only answer after it).
  for (;;) {
    const res = await fetch(`${url}/health`).catch(() => undefined);
    if (res?.status === 200) break;
    await new Promise((ok) => setTimeout(ok, 5));
  }
  return { child, url, listeningMs, healthMs: performance.now() - t0, exited };
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

/** The `api` subcommand. */
export async function benchApi(options: ApiBenchOptions): Promise<void> {
  const jobs = Number(options.jobs);
  const seconds = Number(options.seconds);
  const connections = Number(options.connections);
  const only = new Set((options.only ?? CASES.join(',')).split(',').map((s) => s.trim()));
  for (const c of only)
    if (!(CASES as readonly string[]).includes(c))
      throw new Error(`--only: unknown case ${c}; cases: ${CASES.join(', ')}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  let service: Started | undefined;
  let bare: ChildProcess | undefined;
  try {
    const seedStart = performance.now();
    const seeded = await seedJobLog(dataDir, {
      jobs,
      credits: 10_000_000,
      limits: { rateLimits: { perMinute: 1e9, perHour: 1e9, perDay: 1e9 }, maxQueuedJobs: 1_000_000, concurrency: 2 },
      onProgress: (n) => process.stderr.write(`seeded ${n} jobs\n`),
    });
    console.log(
      `seeded ${jobs} succeeded jobs (${seeded.events} events) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s; data dir ${dataDir}`,
    );
    service = await startService(dataDir);
    const auth = { authorization: `Bearer ${seeded.key}` };
    const first = await fetch(`${service.url}/v1/jobs/${seeded.jobIds[0]}`, { headers: auth });
    writeFileSync(join(dataDir, 'bare-body.json'), await first.text());
    const started = await startBareExpress(join(dataDir, 'bare-body.json'));
    bare = started.child;
    const bareUrl = `http://127.0.0.1:${started.port}`;
    let next = 0;
    const jobPath = (req: CannonRequest): CannonRequest => ({
      ...req,
      path: `/v1/jobs/${seeded.jobIds[next++ % seeded.jobIds.length]}`,
    });
    const cases: Record<CaseName, () => Promise<CannonResult>> = {
      'bare-express': () =>
        autocannon({ url: bareUrl, connections, duration: seconds, requests: [{ setupRequest: jobPath }] }),
      job: () =>
        autocannon({
          url: service!.url,
          connections,
          duration: seconds,
          headers: auth,
          requests: [{ setupRequest: jobPath }],
        }),
      list: () =>
        autocannon({
          url: `${service!.url}/v1/jobs?status=succeeded&limit=20`,
          connections,
          duration: seconds,
          headers: auth,
        }),
      balance: () => autocannon({ url: `${service!.url}/v1/balance`, connections, duration: seconds, headers: auth }),
      estimate: () =>
        autocannon({
          url: `${service!.url}/v1/estimate`,
          connections,
          duration: seconds,
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
            duration: seconds,
            headers: auth,
            requests: [{ setupRequest: jobPath }],
          });
        } finally {
          for (const id of busy) await fetch(`${service!.url}/v1/jobs/${id}`, { method: 'DELETE', headers: auth });
        }
      },
      pack: () =>
        autocannon({
          url: `${service!.url}/v1/pack`,
          connections,
          duration: seconds,
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: PACK_BODY,
        }),
    };
    const widths = [14, 10, 8, 8, 8, 9];
    console.log(`\n${seconds} s per case, ${connections} connections, loopback`);
    console.log(row(['case', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'vs bare'], widths));
    let bareRate: number | undefined;
    for (const name of CASES) {
      if (!only.has(name)) continue;
      const r = await cases[name]();
      if (name === 'bare-express') bareRate = r.requests.average;
      const ratio = bareRate ? `${((100 * r.requests.average) / bareRate).toFixed(0)} %` : '-';
      console.log(
        row([name, r.requests.average.toFixed(0), r.latency.p50, r.latency.p99, r.non2xx + r.errors, ratio], widths),
      );
    }

    const startups: string[] = [];
    const measure = async (after: string, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> => {
      service!.child.kill(signal);
      await service!.exited;
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
    console.log(
      `\nstart-up with the log built above (spawn → 'listening' line, spawn → /health 200, resident memory then)`,
    );
    console.log(row(['after', 'events', 'listening ms', 'health ms', 'RSS MB'], [12, 10, 14, 14, 8]));
    for (const line of startups) console.log(line);
  } finally {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    if (bare && bare.exitCode === null) bare.kill('SIGTERM');
    if (options.keep) console.log(`data dir kept: ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}
