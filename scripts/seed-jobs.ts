/**
 * `npm run seed-jobs -- --jobs 1000 [--data-dir DIR]`: fills a data dir with jobs of mixed
 * outcomes through the real service over HTTP, for the billing audit replay and for load
 * figures. It starts `service/main.ts` as a child process on a free port, submits small realistic
 * loads in waves (at most 20 queued + running), and mixes in: cancellations (DELETE), jobs
 * with a 1 ms compute budget (`time_limit_exceeded` when nothing could be packed in time),
 * and crashes (`kill -9` with jobs queued, then a restart: `server_restarted`).
 * The jobs belong to an organization of their own ("Seed Logistics", 10,000 subscription
 * credits, rate limits out of the way: the demo organization's 60 requests a minute would stop
 * the run), made through the domain commands before the service starts.
 * Prints the outcome counts and the time taken; the service is stopped on any failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { SqliteEventStore } from '../adapters/sqlite/event-store.js';
import { createApiKey, provisionOrganization } from '../application/provision.js';

const opts = new Command('seed-jobs')
  .option('--jobs <n>', 'jobs to create', (v) => Number(v), 1000)
  .option('--data-dir <dir>', 'data dir', process.env['PACKING_DATA_DIR'] ?? './data-seed')
  .option('--seed <n>', 'PRNG seed', (v) => Number(v), 7)
  .parse(process.argv)
  .opts<{ jobs: number; dataDir: string; seed: number }>();

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dataDir = resolve(opts.dataDir);
let rng = opts.seed >>> 0 || 1;
const random = (): number => {
  rng ^= rng << 13;
  rng ^= rng >>> 17;
  rng ^= rng << 5;
  return (rng >>> 0) / 4294967296;
};
const pick = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));

/** The seed organization and its key, made in the data dir before the service opens it. */
async function seedKey(): Promise<string> {
  mkdirSync(dataDir, { recursive: true });
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    const now = new Date().toISOString();
    const org = await provisionOrganization(store, {
      name: 'Seed Logistics',
      ownerName: 'Seeder',
      subscriptionCredits: 10_000,
      expiresAt: null,
      now,
      limits: { rateLimits: { perMinute: 1_000_000, perHour: 1_000_000, perDay: 1_000_000 } },
    });
    return (await createApiKey(store, { orgId: org.orgId, memberId: org.ownerId, name: 'seed', now })).secret;
  } finally {
    await store.close();
  }
}
const seedSecret = await seedKey();

async function start(): Promise<{ child: ChildProcess; url: string; key: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PACKING_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((ok, fail) => {
    child.once('exit', () => fail(new Error('service exited')));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"listening"')) ok((JSON.parse(line) as { port: number }).port);
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, key: seedSecret };
}

function request(): Record<string, unknown> {
  const items = Array.from({ length: pick(1, 4) }, (_, i) => ({
    id: `sku-${i + 1}`,
    length: pick(20, 120),
    width: pick(20, 80),
    height: pick(15, 100),
    weight: pick(2, 60),
    quantity: pick(2, 30),
  }));
  return {
    reference: `seed-${pick(1, 1e6)}`,
    vehicles: [{ vehicle_id: random() < 0.5 ? 'rigid-7-5t' : 'container-20-dry' }],
    items,
  };
}

const outcomes = new Map<string, number>();
let service = await start();
/** The fields of a Job answer (or an error envelope) the seeding reads. */
interface JobAnswer {
  id: string;
  status: string;
  error?: { code: string };
}

const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: JobAnswer }> => {
  const res = await fetch(service.url + path, {
    method,
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as JobAnswer };
};

const started = Date.now();
let created = 0;
let crashes = 0;
// A failure must not leave the service running on its own.
process.on('uncaughtException', (err) => {
  service.child.kill('SIGKILL');
  console.error(err);
  process.exit(1);
});
process.on('unhandledRejection', (err) => {
  service.child.kill('SIGKILL');
  console.error(err);
  process.exit(1);
});
while (created < opts.jobs) {
  const wave: string[] = [];
  const crashThisWave = random() < 0.04;
  for (let i = 0; i < 15 && created < opts.jobs; i++) {
    const body = request();
    if (random() < 0.05) body['options'] = { time_limit: 0.001 };
    const posted = await call('POST', '/v1/pack', body);
    if (posted.status !== 202 && posted.status !== 200)
      throw new Error(`POST answered ${posted.status}: ${JSON.stringify(posted.body)}`);
    created++;
    wave.push(posted.body.id);
    if (random() < 0.08) await call('DELETE', `/v1/jobs/${posted.body.id}`);
  }
  if (crashThisWave) {
    service.child.kill('SIGKILL');
    await new Promise((ok) => service.child.once('exit', ok));
    crashes++;
    service = await start();
  }
  for (const id of wave) {
    const job = (await call('GET', `/v1/jobs/${id}?wait=60`)).body;
    const key = job.status === 'succeeded' ? 'succeeded' : `${job.status}:${job.error?.code}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
}
service.child.kill('SIGTERM');
await new Promise((ok) => service.child.once('exit', ok));
console.log(
  JSON.stringify({ jobs: created, crashes, outcomes: Object.fromEntries(outcomes), ms: Date.now() - started, dataDir }),
);
