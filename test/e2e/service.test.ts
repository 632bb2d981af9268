/**
 * End to end on the embedded default: the real service process, a temporary data dir, every
 * example over HTTP, each plan checked by the independent verifier; bad bodies; a restart and a
 * kill -9 lose nothing; a job open at a crash fails with server_restarted and is not charged.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plan } from '../../domain/pack/plan.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import { modelOf } from '../helpers/example-model.js';
import { call, startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const examples = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.json'))
  .sort();
const dataDir = mkdtempSync(join(tmpdir(), 'packing-e2e-'));
let service: ServiceProcess;

t.before(async () => {
  service = await startServiceProcess(dataDir);
  // The solver threads may still be loading when the service listens, and a job's budget runs
  // from its start: one small job first, so the examples' default budgets go to the search.
  const warm = await call(service.url, service.key, 'POST', '/v1/pack?wait=60', {
    vehicles: [{ vehicle_id: 'van-3-5t' }],
    items: [{ length: 10, width: 10, height: 10, weight: 1 }],
    options: { time_limit: 60 },
  });
  if (warm.body.status !== 'succeeded') throw new Error(`warm-up job: ${JSON.stringify(warm.body)}`);
});
t.teardown(async () => {
  await service.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function waitEnded(id: string) {
  for (;;) {
    const got = await call(service.url, service.key, 'GET', `/v1/jobs/${id}?wait=60&include=result`);
    if (['succeeded', 'failed', 'canceled'].includes(got.body.status) && got.body.cost.credits > 0) return got;
    if (['failed', 'canceled'].includes(got.body.status)) return got;
  }
}

const finished: Record<string, { job: any; result: any }> = {};

t.test('every example is packed into a plan that passes the verifier', async (t) => {
  t.ok(examples.length >= 4, `at least four examples (found ${examples.length})`);
  for (const file of examples) {
    const body = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'));
    const checked = modelOf(body);
    const posted = await call(service.url, service.key, 'POST', '/v1/pack?wait=60', body);
    t.ok([200, 202].includes(posted.status), `${file}: POST answered ${posted.status}`);
    t.match(posted.headers.get('x-request-id'), /^req_/);
    const got = posted.status === 200 ? posted : await waitEnded(posted.body.id);
    const job = got.body;
    t.equal(job.status, 'succeeded', `${file}: ${JSON.stringify(job.error)}`);
    const result = (await call(service.url, service.key, 'GET', `/v1/jobs/${job.id}/result`)).body;
    const plan: Plan = { vehicles: result.vehicles, unplaced: result.unplaced };
    const model = { ...checked.model, maxVehicles: checked.model.maxVehicles };
    t.same(verifyPlan(model, plan), [], `${file}: the plan verifies`);
    const placed = plan.vehicles.reduce((n, v) => n + v.placements.length, 0);
    t.equal(placed + plan.unplaced.length, checked.items, `${file}: every unit placed or unplaced`);
    t.equal(job.summary.items_placed, placed);
    t.equal(job.summary.vehicles_used, plan.vehicles.length);
    // Why the search ended: an automatic budget may stop on stagnation, an explicit one never does.
    t.equal(result.stop_reason, job.summary.stop_reason, `${file}: the result and the job say the same`);
    const explicit = (body.options?.time_limit ?? 0) > 0;
    t.ok(
      (explicit ? ['bound_reached', 'time_limit'] : ['bound_reached', 'stagnated', 'time_limit']).includes(
        job.summary.stop_reason,
      ),
      `${file}: stop_reason ${job.summary.stop_reason} with ${explicit ? 'an explicit' : 'the automatic'} budget`,
    );
    t.ok(
      job.cost.credits > 0 && job.cost.credits <= job.cost.reserved_credits,
      `${file}: charged ${job.cost.credits} ≤ reserved ${job.cost.reserved_credits}`,
    );
    const pdf = await fetch(job.pdf_url.replace(/^http:\/\/[^/]+/, service.url));
    t.equal(pdf.status, 200);
    t.equal(pdf.headers.get('content-type'), 'application/pdf');
    t.equal(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
    finished[job.id] = { job, result };
    const util = plan.vehicles.length ? job.summary.volume_utilization : 0;
    t.comment(
      `${file}: placed ${placed}/${checked.items}, vehicles ${plan.vehicles.length}, volume utilization ${(util * 100).toFixed(1)} %, compute ${job.summary.compute_ms} ms (${job.summary.stop_reason}), ${job.cost.credits} credits`,
    );
  }
});

t.test('bad bodies get the spec envelopes with every problem listed', async (t) => {
  const cases: [string, string | undefined, unknown, number, string][] = [
    ['not JSON', '{"vehicles": [', undefined, 400, 'invalid_json'],
    ['empty body', '', undefined, 400, 'invalid_json'],
    ['an array', undefined, [1, 2], 400, 'invalid_json'],
    [
      'wrong types',
      undefined,
      {
        vehicles: [{ type: 'truck', length: '600', width: 240, height: 240, max_weight: 1000 }],
        items: [{ length: 1, width: 1, height: 1, weight: 'x' }],
      },
      400,
      'invalid_json',
    ],
    [
      'unknown field',
      undefined,
      {
        vehicles: [{ vehicle_id: 'container-20-dry' }],
        items: [{ length: 10, width: 10, height: 10, weight: 1 }],
        colour: 'red',
      },
      422,
      'validation_failed',
    ],
    [
      'item fits nothing',
      undefined,
      { vehicles: [{ vehicle_id: 'van-3-5t' }], items: [{ length: 900, width: 10, height: 10, weight: 1 }] },
      422,
      'validation_failed',
    ],
  ];
  for (const [name, raw, body, status, code] of cases) {
    const res = await call(service.url, service.key, 'POST', '/v1/pack', body, raw);
    t.equal(res.status, status, name);
    t.equal(res.body.error.code, code, name);
    t.equal(res.body.error.request_id, res.headers.get('x-request-id'), `${name}: request_id equals the header`);
    t.ok(Array.isArray(res.body.error.details) && res.body.error.details.length > 0, `${name}: details listed`);
  }
  const many = await call(service.url, service.key, 'POST', '/v1/pack', {
    vehicles: [{ type: 'boat', length: 100, width: 100, height: 100, max_weight: 10 }],
    items: [{ length: 500, width: 10, height: 10, weight: 1, quantity: 0 }],
    extra: true,
  });
  t.equal(many.status, 422);
  t.same(
    many.body.error.details.map((d: { path: string; code: string }) => `${d.path}:${d.code}`).sort(),
    [
      'extra:unknown_field',
      'items[0].quantity:out_of_range',
      'items[0]:does_not_fit',
      'vehicles[0].type:invalid_value',
    ].sort(),
  );
  const noKey = await call(service.url, null, 'POST', '/v1/pack', {});
  t.equal(noKey.status, 401);
  t.equal(noKey.body.error.code, 'unauthorized');
  const unknownPath = await call(service.url, service.key, 'GET', '/v1/nope');
  t.equal(unknownPath.status, 404);
  t.equal(unknownPath.body.error.code, 'not_found');
  const health = await call(service.url, null, 'GET', '/health');
  t.equal(health.status, 200);
});

async function readBack(t: Test): Promise<void> {
  for (const [id, before] of Object.entries(finished)) {
    const job = (await call(service.url, service.key, 'GET', `/v1/jobs/${id}`)).body;
    const { summary, cost, status, created_at, finished_at } = before.job;
    t.same(
      { summary, cost, status, created_at, finished_at },
      {
        summary: job.summary,
        cost: job.cost,
        status: job.status,
        created_at: job.created_at,
        finished_at: job.finished_at,
      },
      `${id} unchanged`,
    );
    const result = (await call(service.url, service.key, 'GET', `/v1/jobs/${id}/result`)).body;
    t.same(result.vehicles, before.result.vehicles, `${id}: same plan`);
  }
}

t.test('a graceful restart and a kill -9 lose nothing', async (t) => {
  t.ok(Object.keys(finished).length >= 4);
  await service.stop('SIGTERM');
  service = await startServiceProcess(dataDir);
  await readBack(t);
  await service.stop('SIGKILL');
  service = await startServiceProcess(dataDir);
  await readBack(t);
});

t.test('a job open at a crash fails with server_restarted and costs nothing', async (t) => {
  const before = Number(
    (await call(service.url, service.key, 'GET', '/v1/jobs/none')).headers.get('x-credits-remaining'),
  );
  const body = JSON.parse(readFileSync(join(EXAMPLES, examples[0]!), 'utf8'));
  const posted = await call(service.url, service.key, 'POST', '/v1/pack', {
    ...body,
    options: { ...body.options, time_limit: 60 },
  });
  t.equal(posted.status, 202);
  t.ok(Number(posted.headers.get('x-credits-remaining')) < before, 'credits are reserved while the job is open');
  await service.stop('SIGKILL');
  service = await startServiceProcess(dataDir);
  const job = (await call(service.url, service.key, 'GET', `/v1/jobs/${posted.body.id}?wait=60`)).body;
  if (job.status === 'succeeded') {
    t.comment('the job finished before the kill; nothing to recover');
    return;
  }
  t.equal(job.status, 'failed');
  t.equal(job.error.code, 'server_restarted');
  t.equal(job.cost.credits, 0);
  const after = (await call(service.url, service.key, 'GET', '/v1/jobs/none')).headers.get('x-credits-remaining');
  t.equal(Number(after), before, 'the reservation was released');
});
