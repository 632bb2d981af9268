/**
 * `npm run bench -- verify [--units 2000] [--types 50] [--sizes 20-120] [--runs 20] [--work 20000]`:
 * the time to verify a large plan (plan editing, POST /v1/plans/verify). A job of `units` boxes of `types`
 * kinds (sizes 20–120 cm or `--sizes`, weights 5–60 kg, fixed seed; upright) into 13.6 m trailers in auto mode
 * is solved by the service started in this process (deterministic mode, `work` block
 * placements); its result is then verified `runs` times in process (checkLayout: plan rebuilt
 * from the layout and verified, with the two parts apart) and `runs` times through
 * POST /v1/plans/verify on loopback (whole request: JSON, request check, verification, answer).
 * Prints the median and the range of each, ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../api/http/pack-request/check.js';
import { createApiKey, provisionOrganization } from '../application/provision.js';
import type { Plan } from '../domain/pack/plan.js';
import type { ItemInput, PackRequest } from '../domain/pack/request.js';
import { startService } from '../service/server.js';
import { layoutOf, planFromLayout } from '../solver/edit/layout.js';
import { checkLayout } from '../solver/edit/plan-check.js';
import { mulberry32 } from '../solver/search/prng.js';
import { verifyPlan } from '../solver/verify/verify.js';

/** Options of the `verify` bench (strings as commander gives them). */
export interface VerifyBenchOptions {
  units: string;
  types: string;
  runs: string;
  work: string;
  /** Box sizes, cm: `min-max` (20-120: about 220 units per trailer; 20-50: about 1,000). */
  sizes: string;
}

/** The large job's request (deterministic for the same arguments). */
export function largeRequest(
  units: number,
  types: number,
  work: number,
  sizes: { min: number; max: number } = { min: 20, max: 120 },
): PackRequest {
  const rng = mulberry32(20261126);
  const size = (): number => sizes.min + Math.floor(rng() * (sizes.max - sizes.min + 1));
  const items: ItemInput[] = [];
  for (let i = 0; i < types; i++) {
    items.push({
      id: `sku${i + 1}`,
      label: `SKU ${i + 1}`,
      length: size(),
      width: size(),
      height: size(),
      weight: 5 + Math.floor(rng() * 56),
      quantity: Math.floor(units / types) + (i < units % types ? 1 : 0),
      rotation: 'upright',
    });
  }
  return {
    reference: `verify bench ${units} units`,
    vehicles: [
      {
        id: 'trailer',
        type: 'trailer',
        name: 'Trailer 13.6 m',
        length: 1360,
        width: 248,
        height: 270,
        max_weight: 24_000,
      },
    ],
    items,
    options: { packing_mode: 'auto', work_limit: work, time_limit: 60, seed: 1 },
  };
}

/** The fields of a Job the bench reads. */
interface JobAnswer {
  id: string;
  status: string;
  summary: { compute_ms: number };
}

/** Median and range of `ms`, rounded to 0.1 ms. */
function summary(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const mid = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  const r = (x: number) => x.toFixed(1);
  return `median ${r(mid)} ms (min ${r(s[0]!)}, max ${r(s[s.length - 1]!)}, ${s.length} runs)`;
}

/** `runs` timings of `f` after two untimed warm-up calls, ms. */
async function timed(runs: number, f: () => unknown): Promise<number[]> {
  for (let i = 0; i < 2; i++) await f();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    out.push(performance.now() - t0);
  }
  return out;
}

/** Runs the bench (prints its figures). */
export async function benchVerify(o: VerifyBenchOptions): Promise<void> {
  const units = Number(o.units),
    runs = Number(o.runs);
  const [min, max] = o.sizes.split('-').map(Number) as [number, number];
  const request = largeRequest(units, Number(o.types), Number(o.work), { min, max });
  const dir = mkdtempSync(join(tmpdir(), 'packing-bench-verify-'));
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
  });
  try {
    const now = new Date().toISOString();
    const org = await provisionOrganization(service.services.store, {
      name: 'bench',
      ownerName: 'Owner',
      subscriptionCredits: 1000,
      expiresAt: '2099-01-01T00:00:00.000Z',
      now,
      axleAccess: false,
      limits: { rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 } },
    });
    const key = await createApiKey(service.services.store, {
      orgId: org.orgId,
      memberId: org.ownerId,
      name: 'bench',
      now,
    });
    await service.services.projections.waitFor(key.position);
    const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(service.url + path, {
        method,
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const answer = (await res.json()) as T;
      if (res.status >= 300)
        throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer).slice(0, 500)}`);
      return answer;
    };
    let job = await api<JobAnswer>('POST', '/v1/pack?wait=60', request);
    while (job.status === 'queued' || job.status === 'running')
      job = await api<JobAnswer>('GET', `/v1/jobs/${job.id}?wait=60`);
    if (job.status !== 'succeeded') throw new Error(`the job ended ${job.status}`);
    const result = await api<Plan>('GET', `/v1/jobs/${job.id}/result`);
    const plan: Plan = { vehicles: result.vehicles, unplaced: result.unplaced };
    const placed = plan.vehicles.reduce((n, v) => n + v.placements.length, 0);
    const most = Math.max(...plan.vehicles.map((v) => v.placements.length));
    console.log(`plan: ${placed}/${units} units placed in ${plan.vehicles.length} trailers (at most ${most} in one)`);
    console.log(`  boxes ${o.sizes} cm (work_limit ${o.work}, compute ${job.summary.compute_ms} ms)`);

    const checked = checkPackRequest(request, SCRIPT_CHECK_CONTEXT);
    if (!checked.ok) throw new Error(`request: ${checked.message}`);
    const { model } = checked;
    const layout = layoutOf(plan);
    const check = checkLayout(model, layout);
    if (!check.valid) throw new Error(`the job's plan does not verify: ${JSON.stringify(check.problems.slice(0, 3))}`);
    console.log(
      `checkLayout (rebuild + verify), in process: ${summary(await timed(runs, () => checkLayout(model, layout)))}`,
    );
    console.log(
      `  planFromLayout alone:                    ${summary(await timed(runs, () => planFromLayout(model, layout)))}`,
    );
    console.log(
      `  verifyPlan alone:                        ${summary(await timed(runs, () => verifyPlan(model, check.plan)))}`,
    );
    const body = JSON.stringify({ request, result });
    console.log(`POST /v1/plans/verify (${(body.length / 1024).toFixed(0)} KiB body), loopback:`);
    const http = await timed(runs, async () => {
      const answer = await api<{ valid: boolean }>('POST', '/v1/plans/verify', { request, result });
      if (answer.valid !== true) throw new Error('the verify route refused the job’s plan');
    });
    console.log(`  ${summary(http)}`);
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
