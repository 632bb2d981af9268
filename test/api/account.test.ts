/**
 * The money endpoints on the real embedded service (in process, temporary data dir, free port):
 * limits with the rate card, balance, estimate, 402, balance-limited admission, cancellation
 * charges, scopes and ended subscriptions.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { createApiKey, endSubscription, provisionOrganization } from '../../application/provision.js';
import { call } from '../helpers/service-process.js';
import { computing, untilJob } from '../helpers/job-state.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-account-'));
let service: RunningService;
let key: string;
const small = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 20 }],
};

t.before(async () => {
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
  });
  key = readFileSync(join(dir, 'demo-api-key'), 'utf8').trim();
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A new organization with `credits` subscription credits and a key with `scopes`. */
async function org(credits: number, scopes?: Parameters<typeof createApiKey>[1]['scopes']) {
  const now = new Date().toISOString();
  const o = await provisionOrganization(service.services.store, {
    name: 'T',
    ownerName: 'O',
    subscriptionCredits: credits,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
  });
  const k = await createApiKey(service.services.store, {
    orgId: o.orgId,
    memberId: o.ownerId,
    name: 't',
    now,
    ...(scopes ? { scopes } : {}),
  });
  await service.services.projections.waitFor(k.position);
  return { ...o, key: k.secret };
}

t.test('GET /v1/limits publishes the limits and rate card 1', async (t) => {
  const res = await call(service.url, key, 'GET', '/v1/limits');
  t.equal(res.status, 200);
  t.match(res.body, {
    max_items_per_request: 2000,
    max_vehicles_per_request: 20,
    max_time_limit_seconds: 90,
    concurrency: 1,
    max_queued_jobs: 20,
    retention_days: 14,
  });
  t.same(res.body.rate_card, {
    version: 1,
    base: 0.1,
    per_vehicle: 0.05,
    per_compute_second: 0.002,
    large_load_threshold: 500,
    large_load_block_items: 100,
    per_large_load_block: 0.1,
  });
});

t.test('estimate prices without charging; invalid bodies are reported, not charged', async (t) => {
  const before = (await call(service.url, key, 'GET', '/v1/balance')).body;
  t.same(before, {
    available_credits: 1000,
    subscription_credits: 1000,
    subscription_expires_at: before.subscription_expires_at,
    purchased_credits: 0,
    reserved_credits: 0,
  });
  const est = await call(service.url, key, 'POST', '/v1/estimate', small);
  t.equal(est.status, 200);
  t.equal(est.body.valid, true);
  t.equal(est.body.items, 20);
  t.equal(est.body.max_vehicles, 20);
  // min: base + 1 vehicle; max: base + 20 vehicles + the whole budget (2000 + 15·20 ms = 2.3 s)
  t.same(est.body.estimated_cost, { min_credits: 0.15, max_credits: 0.1 + 20 * 0.05 + 0.0046 });
  t.equal(est.body.estimated_seconds, 2.3);
  const bad = await call(service.url, key, 'POST', '/v1/estimate', { vehicles: [], items: [] });
  t.equal(bad.status, 200);
  t.equal(bad.body.valid, false);
  t.ok(bad.body.errors.length >= 2);
  t.equal((await call(service.url, key, 'POST', '/v1/estimate', [1])).status, 400);
  t.same((await call(service.url, key, 'GET', '/v1/balance')).body, before, 'estimates are free');
});

t.test('a succeeded job is charged every component, exactly', async (t) => {
  const res = await call(service.url, key, 'POST', '/v1/pack?wait=60', small);
  t.equal(res.status, 200);
  const { cost, summary } = res.body;
  const compute = Math.floor(Math.min(summary.compute_ms, 2300) * 2) / 1e6;
  t.same(cost.breakdown, { base: 0.1, vehicles: 0.05 * summary.vehicles_used, compute, large_load: 0 });
  t.equal(cost.credits, Number((0.1 + 0.05 * summary.vehicles_used + compute).toFixed(6)));
  t.equal(Number(res.headers.get('x-credits-remaining')), Number((1000 - cost.credits).toFixed(6)));
});

t.test('402 insufficient_credits charges nothing; a thin balance shortens the run', async (t) => {
  const poor = await org(0.12);
  const refused = await call(service.url, poor.key, 'POST', '/v1/pack', small);
  t.equal(refused.status, 402);
  t.equal(refused.body.error.code, 'insufficient_credits');
  t.equal((await call(service.url, poor.key, 'GET', '/v1/balance')).body.available_credits, 0.12);
  const thin = await org(0.3);
  const admitted = await call(service.url, thin.key, 'POST', '/v1/pack?wait=60', small);
  t.equal(admitted.status, 200);
  t.ok(admitted.body.warnings.some((w: { code: string }) => w.code === 'limited_by_balance'));
  t.ok(admitted.body.cost.reserved_credits <= 0.3);
  t.ok(admitted.body.cost.credits <= admitted.body.cost.reserved_credits);
});

t.test('402 when the balance allows no useful compute: the message states the smallest useful run', async (t) => {
  // 21,000 kg on 2,800 kg trucks: at least 8 vehicles. 0.5 credits cover 8 vehicles (0.5) but no compute.
  const heavy = {
    vehicles: [{ vehicle_id: 'rigid-7-5t' }],
    items: [{ id: 'drum', length: 60, width: 60, height: 90, weight: 700, quantity: 30 }],
  };
  const poor = await org(0.5);
  const estimate = await call(service.url, poor.key, 'POST', '/v1/estimate', heavy);
  t.equal(estimate.body.valid, false);
  t.match(estimate.body.warnings, [
    { code: 'insufficient_credits', message: /8 vehicles and 1000 ms of compute, 0\.502 credits/ },
  ]);
  const refused = await call(service.url, poor.key, 'POST', '/v1/pack', heavy);
  t.equal(refused.status, 402);
  t.equal(refused.body.error.code, 'insufficient_credits');
  t.equal(
    refused.body.error.message,
    'available credits (0.5) do not cover the smallest useful run of this job: 8 vehicles and 1000 ms of compute, 0.502 credits; nothing was charged',
  );
  t.same((await call(service.url, poor.key, 'GET', '/v1/balance')).body.reserved_credits, 0, 'nothing held');
  // 0.5 credits and a one-vehicle load asking for 20 vehicles: admitted with 7 and compute, holding only that run.
  const thin = await call(service.url, poor.key, 'POST', '/v1/pack', { ...small, options: { time_limit: 3 } });
  t.equal(thin.status, 202);
  t.match(thin.body.warnings, [{ code: 'limited_by_balance', message: /7 vehicles and 3000 ms of compute/ }]);
  t.equal(thin.body.cost.reserved_credits, 0.456, 'base 0.1 + 7 × 0.05 + 3 s × 0.002');
  const ended = await call(service.url, poor.key, 'GET', `/v1/jobs/${thin.body.id}?wait=60`);
  t.equal(ended.body.status, 'succeeded');
});

t.test(
  'canceled jobs: queued costs the per-job fee, running adds the compute used; a second cancel is 409',
  async (t) => {
    const o = await org(50);
    // A load that cannot converge early (200 kinds, far more than fits): it computes until canceled.
    const items = Array.from({ length: 200 }, (_, i) => ({
      id: `sku-${i}`,
      length: 20 + (i % 37),
      width: 15 + (i % 23),
      height: 10 + (i % 29),
      weight: 3,
      quantity: 10,
    }));
    const busy = await call(service.url, o.key, 'POST', '/v1/pack', {
      vehicles: [{ vehicle_id: 'van-3-5t' }],
      items,
      options: { packing_mode: 'fleet_only', time_limit: 60 },
    });
    t.equal(busy.status, 202);
    // Compute is billed from when the search started: cancel only once it has.
    await untilJob(service.services, busy.body.id, 'computing', computing);
    const waiting = await call(service.url, o.key, 'POST', '/v1/pack', small);
    t.equal(waiting.status, 202);
    t.equal(waiting.body.status, 'queued', 'concurrency 1: the second job waits');

    const canceled = await call(service.url, o.key, 'DELETE', `/v1/jobs/${waiting.body.id}`);
    t.equal(canceled.status, 200, JSON.stringify(canceled.body));
    t.equal(canceled.body.status, 'canceled');
    t.equal(canceled.body.error.code, 'canceled');
    t.equal(canceled.body.started_at, null);
    t.same(canceled.body.cost.breakdown, { base: 0.1, vehicles: 0, compute: 0, large_load: 0 });
    t.equal(canceled.body.cost.credits, 0.1);

    const running = await call(service.url, o.key, 'DELETE', `/v1/jobs/${busy.body.id}`);
    t.equal(running.body.status, 'canceled');
    const b = running.body.cost.breakdown;
    t.equal(b.vehicles, 0, 'never per vehicle');
    t.equal(b.large_load, 0, 'no large-load surcharge on a cancel');
    t.ok(b.compute > 0, `compute used is charged (${b.compute})`);
    t.equal(running.body.cost.credits, Number((0.1 + b.compute).toFixed(6)));

    const again = await call(service.url, o.key, 'DELETE', `/v1/jobs/${waiting.body.id}`);
    t.equal(again.status, 409);
    t.equal(again.body.error.code, 'job_already_finished');
    const balance = (await call(service.url, o.key, 'GET', '/v1/balance')).body;
    t.equal(balance.reserved_credits, 0, 'every reservation released');
    t.equal(balance.available_credits, Number((50 - 0.1 - running.body.cost.credits).toFixed(6)));
  },
);

t.test('scopes and subscriptions guard the API', async (t) => {
  const readOnly = await org(10, ['jobs:read']);
  const denied = await call(service.url, readOnly.key, 'POST', '/v1/pack', small);
  t.equal(denied.status, 403);
  t.equal(denied.body.error.code, 'scope_missing');
  const ended = await org(10);
  const position = await endSubscription(service.services.store, ended.orgId, new Date().toISOString());
  await service.services.projections.waitFor(position);
  const inactive = await call(service.url, ended.key, 'GET', '/v1/balance');
  t.equal(inactive.status, 403);
  t.equal(inactive.body.error.code, 'subscription_inactive');
  const other = await call(service.url, readOnly.key, 'GET', '/v1/jobs/job_doesnotexist');
  t.equal(other.status, 404);
  t.equal(other.body.error.code, 'job_not_found');
});
