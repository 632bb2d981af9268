/**
 * `npm run bench -- fairness`: does a tiny job of one organization wait behind long jobs of
 * others? The embedded service in this process on a temporary data dir; organizations A and C
 * each start a long job (a load that cannot converge early, `--budget` ms, default 90 s); once
 * both compute, organization B posts a tiny job (a few ms of compute) with `?wait=60`. Prints, per
 * job, the wall time from its POST to its end, `queue_ms` and `compute_ms` (B's target: within
 * 1 s while A and C compute), then the status of A and C when B ended.
 *
 *   npm run bench -- fairness [--budget ms] [--concurrency n] [--threads n] [--pool-threads n]
 *
 * `--pool-threads n`: the same three jobs on the Solver alone (no service, no queue), with a pool
 * of n worker threads: with n = threads the running jobs share one set of threads (piscina queues
 * B's tasks behind the long tasks), with n = threads × concurrency (the service's choice) each has
 * its own and the operating system time-slices them. Prints B's wall time for the comparison.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createApiKey, provisionOrganization } from '../application/provision.js';
import { startService, type RunningService } from '../service/server.js';
import os from 'node:os';
import { checkPackRequest } from '../api/http/pack-request/check.js';
import { DEFAULT_LIMITS } from '../domain/organization/limits.js';
import { findPreset } from '../domain/vehicle/presets.js';
import type { PackModel } from '../domain/pack/plan.js';
import { Solver } from '../solver/solve.js';
import { DEFAULT_SOLVER_CONCURRENCY } from '../service/solver-node/node.js';
import { call } from '../test/helpers/service-process.js';
import { computing, untilJob } from '../test/helpers/job-state.js';

/** Options of the `fairness` benchmark (strings from the command line). */
export interface FairnessOptions {
  budget: string;
  concurrency?: string;
  threads?: string;
  poolThreads?: string;
}

/** A load of 2,000 units in 200 kinds on one van: it never fits, so the search runs its whole budget. */
function longRequest(budgetMs: number): unknown {
  const items = Array.from({ length: 200 }, (_, i) => ({
    id: `sku-${i}`,
    length: 20 + (i % 37),
    width: 15 + (i % 23),
    height: 10 + (i % 29),
    weight: 3,
    quantity: 10,
  }));
  return {
    vehicles: [{ vehicle_id: 'van-3-5t' }],
    items,
    options: { packing_mode: 'fleet_only', time_limit: budgetMs / 1000 },
  };
}

/** One carton on one truck: a few ms of compute. */
const TINY = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 1 }],
};

async function organization(service: RunningService, name: string): Promise<string> {
  const now = new Date().toISOString();
  const o = await provisionOrganization(service.services.store, {
    name,
    ownerName: 'Bench',
    subscriptionCredits: 1000,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
    limits: { rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 } },
  });
  const k = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'bench', now });
  await service.services.projections.waitFor(k.position);
  return k.secret;
}

/** Waits for the job's end (`?wait=60` repeated); returns the final Job. */
async function ended(url: string, key: string, jobId: string): Promise<JobAnswer> {
  for (;;) {
    const job = (await call(url, key, 'GET', `/v1/jobs/${jobId}?wait=60`)).body as JobAnswer;
    if (['succeeded', 'failed', 'canceled'].includes(job.status)) return job;
  }
}

/** The fields of a Job answer the bench reads (ms). */
interface JobAnswer {
  id: string;
  status: string;
  summary: { queue_ms: number; compute_ms: number };
}

export async function benchFairness(options: FairnessOptions): Promise<void> {
  const budgetMs = Number(options.budget);
  const concurrency = options.concurrency ? Number(options.concurrency) : DEFAULT_SOLVER_CONCURRENCY;
  const threads = options.threads ? Number(options.threads) : os.availableParallelism();
  if (options.poolThreads) {
    await solverOnly(budgetMs, threads, concurrency, Number(options.poolThreads));
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-fairness-'));
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    log: pino({ level: 'silent' }),
    solverThreads: threads,
    solverConcurrency: concurrency,
  });
  try {
    const [a, b, c] = [
      await organization(service, 'A'),
      await organization(service, 'B'),
      await organization(service, 'C'),
    ];
    // The solver warms its threads after start: one tiny job first, so no figure includes that.
    await call(service.url, b, 'POST', '/v1/pack?wait=60', TINY);
    console.log(
      `fairness: A and C run ${budgetMs} ms jobs, then B a tiny one; SOLVER_CONCURRENCY ${concurrency}, ${threads} thread(s) per job, pool ${threads * concurrency} threads`,
    );
    const posted = new Map<string, number>();
    const post = async (name: string, key: string, body: unknown, wait = 0): Promise<JobAnswer> => {
      posted.set(name, Date.now());
      const res = await call(service.url, key, 'POST', `/v1/pack${wait ? `?wait=${wait}` : ''}`, body);
      if (res.status !== 202 && res.status !== 200)
        throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as JobAnswer;
    };
    const jobA = await post('A', a, longRequest(budgetMs));
    const jobC = await post('C', c, longRequest(budgetMs));
    await untilJob(service.services, jobA.id, 'computing', computing, 120_000);
    await untilJob(service.services, jobC.id, 'computing', computing, 120_000);
    let jobB = await post('B', b, TINY, 60);
    if (!['succeeded', 'failed', 'canceled'].includes(jobB.status)) jobB = await ended(service.url, b, jobB.id);
    const bWall = Date.now() - posted.get('B')!;
    const duringB = await Promise.all(
      [jobA, jobC].map(
        async (j, i) => ((await call(service.url, [a, c][i]!, 'GET', `/v1/jobs/${j.id}`)).body as JobAnswer).status,
      ),
    );
    const endA = await ended(service.url, a, jobA.id);
    const aWall = Date.now() - posted.get('A')!;
    const endC = await ended(service.url, c, jobC.id);
    const cWall = Date.now() - posted.get('C')!;
    console.log(['org', 'status', 'wall ms', 'queue_ms', 'compute_ms'].join('\t'));
    for (const [name, job, wall] of [
      ['A', endA, aWall],
      ['C', endC, cWall],
      ['B', jobB, bWall],
    ] as const) {
      console.log([name, job.status, wall, job.summary.queue_ms, job.summary.compute_ms].join('\t'));
    }
    console.log(
      `when B ended, A was ${duringB[0]} and C ${duringB[1]}; B within 1 s: ${bWall <= 1000 ? 'yes' : 'no'} (${bWall} ms)`,
    );
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The model the API would build from `body` (default limits, presets, seed 1). */
function modelOf(body: unknown): PackModel {
  const checked = checkPackRequest(body, {
    allowedVehicleTypes: DEFAULT_LIMITS.allowedVehicleTypes,
    maxItemsPerRequest: DEFAULT_LIMITS.maxItemsPerRequest,
    maxVehiclesPerRequest: DEFAULT_LIMITS.maxVehiclesPerRequest,
    maxTimeLimitSeconds: DEFAULT_LIMITS.maxTimeLimitSeconds,
    axleAccess: false,
    findVehicle: findPreset,
    findTemplate: () => undefined,
    seed: 1,
  });
  if (!checked.ok) throw new Error(checked.message);
  return checked.model;
}

/** The comparison on the Solver alone: two long solves, then a tiny one once they run; B's wall time. */
async function solverOnly(budgetMs: number, threads: number, concurrency: number, poolThreads: number): Promise<void> {
  const solver = new Solver({ threads, concurrency, poolThreads });
  try {
    await solver.warm();
    const long = modelOf(longRequest(budgetMs));
    const longs = [solver.solve(long), solver.solve(long)];
    // Both long solves have handed their tasks to the pool (one tick), then B comes.
    await new Promise((resolve) => setImmediate(resolve));
    const started = Date.now();
    const tiny = await solver.solve(modelOf(TINY));
    const wall = Date.now() - started;
    const outs = await Promise.all(longs);
    console.log(
      `solver only: pool ${poolThreads} threads, ${threads} per solve; A and C ${budgetMs} ms budget (${outs.map((o) => `${o.status} ${o.computeMs} ms`).join(', ')})`,
    );
    console.log(`B: ${tiny.status}, wall ${wall} ms, compute_ms ${tiny.computeMs}`);
  } finally {
    await solver.close();
  }
}
