/**
 * GET /v1/usage on the real embedded service: exact figures for a few jobs with known charges
 * (one succeeded, one canceled while queued = 0.1 credits base, one canceled while running),
 * live statuses, per-day entries, the default range, 422s, and other organizations' zeros.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import { call } from '../helpers/service-process.js';
import { running, untilJob } from '../helpers/job-state.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-usage-'));
let service: RunningService;
const small = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 20 }],
  // A roomy budget: on a busy machine the default 2.3 s could end before a vehicle is packed.
  options: { time_limit: 20 },
};
const busyItems = Array.from({ length: 200 }, (_, i) => ({
  id: `sku-${i}`,
  length: 20 + (i % 37),
  width: 15 + (i % 23),
  height: 10 + (i % 29),
  weight: 3,
  quantity: 10,
}));
const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
/** The UTC date `n` days before `day` (YYYY-MM-DD). */
const daysBefore = (day: string, n: number) => new Date(Date.parse(day) - n * DAY).toISOString().slice(0, 10);
/**
 * Runs `query` and returns its answer with the UTC day it ran on: again when midnight passed
 * during it, so expectations built from `day` match the server's "today".
 */
async function onOneDay<T>(query: (day: string) => Promise<T>): Promise<{ day: string; answer: T }> {
  for (;;) {
    const day = today();
    const answer = await query(day);
    if (today() === day) return { day, answer };
  }
}
const zero = {
  jobs: 0,
  by_status: { queued: 0, running: 0, succeeded: 0, failed: 0, canceled: 0 },
  credits: 0,
  by_component: { base: 0, vehicles: 0, compute: 0, large_load: 0 },
  compute_ms: 0,
  items_placed: 0,
  vehicles_used: 0,
};
const micros = (credits: number) => Math.round(credits * 1e6);
type Component = keyof typeof zero.by_component;
type Status = keyof typeof zero.by_status;

/** The usage entry of ended, settled jobs (each with its compute budget, ms): the projection's rules. */
function usageOf(jobs: { job: any; budgetMs: number }[]): typeof zero {
  const u = structuredClone(zero);
  let credits = 0;
  const components = { base: 0, vehicles: 0, compute: 0, large_load: 0 };
  for (const { job, budgetMs } of jobs) {
    u.jobs += 1;
    u.by_status[job.status as Status] += 1;
    credits += micros(job.cost.credits);
    for (const c of Object.keys(components) as Component[]) components[c] += micros(job.cost.breakdown[c]);
    u.compute_ms += Math.min(job.summary.compute_ms, budgetMs);
    if (job.status === 'succeeded') {
      u.items_placed += job.summary.items_placed;
      u.vehicles_used += job.summary.vehicles_used;
    }
  }
  u.credits = credits / 1e6;
  for (const c of Object.keys(components) as Component[]) u.by_component[c] = components[c] / 1e6;
  return u;
}

async function org() {
  const now = new Date().toISOString();
  const o = await provisionOrganization(service.services.store, {
    name: 'U',
    ownerName: 'O',
    subscriptionCredits: 100,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
  });
  const k = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'k', now });
  await service.services.projections.waitFor(k.position);
  return { ...o, key: k.secret };
}

t.before(async () => {
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
  });
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

t.test('usage adds up the jobs of the range, exactly', async (t) => {
  const o = await org();
  const usage = async (query = '') => {
    const res = await call(service.url, o.key, 'GET', `/v1/usage${query}`);
    t.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const empty = await onOneDay(() => usage());
  t.same(
    empty.answer,
    { from: daysBefore(empty.day, 29), to: empty.day, totals: zero, days: [] },
    'default: the last 30 days, nothing yet',
  );

  const done = (await call(service.url, o.key, 'POST', '/v1/pack?wait=60', small)).body;
  t.equal(done.status, 'succeeded');
  // 60 s: it only ends by the cancel below, however slowly this test runs.
  const busy = (
    await call(service.url, o.key, 'POST', '/v1/pack', {
      vehicles: [{ vehicle_id: 'van-3-5t' }],
      items: busyItems,
      options: { packing_mode: 'fleet_only', time_limit: 60 },
    })
  ).body;
  // Its slot is given by a reaction after the POST answered: the live statuses need it running.
  await untilJob(service.services, busy.id, 'running', running);
  const waiting = (await call(service.url, o.key, 'POST', '/v1/pack', small)).body;
  t.equal(waiting.status, 'queued');

  const live = await usage();
  t.equal(live.totals.jobs, 3);
  t.same(live.totals.by_status, { queued: 1, running: 1, succeeded: 1, failed: 0, canceled: 0 }, 'current statuses');
  t.equal(live.totals.credits, done.cost.credits, 'open jobs are not charged yet');

  const canceledQueued = (await call(service.url, o.key, 'DELETE', `/v1/jobs/${waiting.id}`)).body;
  t.equal(canceledQueued.cost.credits, 0.1, 'a queued job canceled costs the base fee');
  const canceledRunning = (await call(service.url, o.key, 'DELETE', `/v1/jobs/${busy.id}`)).body;
  t.equal(canceledRunning.status, 'canceled');

  const charged = [done, canceledQueued, canceledRunning];
  const sum = (f: (j: any) => number) => charged.reduce((a, j) => a + micros(f(j)), 0) / 1e6;
  const totals = {
    jobs: 3,
    by_status: { queued: 0, running: 0, succeeded: 1, failed: 0, canceled: 2 },
    credits: sum((j) => j.cost.credits),
    by_component: {
      base: 0.3,
      vehicles: done.cost.breakdown.vehicles,
      compute: sum((j) => j.cost.breakdown.compute),
      large_load: 0,
    },
    // Budgets: 20 s for the small job, 60 s for the busy one; the queued one never ran.
    compute_ms: Math.min(done.summary.compute_ms, 20_000) + canceledRunning.summary.compute_ms,
    items_placed: 20,
    vehicles_used: done.summary.vehicles_used,
  };
  t.equal(canceledQueued.summary.compute_ms, 0);
  t.equal(totals.vehicles_used, 1);
  t.equal(
    totals.credits,
    Number((0.1 + 0.05 + done.cost.breakdown.compute + 0.1 + 0.1 + canceledRunning.cost.breakdown.compute).toFixed(6)),
  );
  t.same((await usage()).totals, totals);
  const budgeted = [
    { job: done, budgetMs: 20_000 },
    { job: canceledQueued, budgetMs: 20_000 },
    { job: canceledRunning, budgetMs: 60_000 },
  ];
  t.same(usageOf(budgeted), totals, 'the jobs one by one add up to the totals');

  const byDay = await onOneDay((day) => usage(`?from=${daysBefore(day, 2)}&to=${day}&group_by=day`));
  const dates = [2, 1, 0].map((n) => daysBefore(byDay.day, n));
  // A job counts on the UTC day it was created: today for all three, unless this ran across midnight.
  const createdOn = (date: string) => budgeted.filter(({ job }) => job.created_at.slice(0, 10) === date);
  t.same(
    budgeted.filter(({ job }) => !dates.includes(job.created_at.slice(0, 10))),
    [],
    'every job was created in the range',
  );
  t.same(byDay.answer, {
    from: dates[0],
    to: byDay.day,
    totals,
    days: dates.map((date) => ({ date, ...usageOf(createdOn(date)) })),
  });
  const [longAgo, monthAgo] = [daysAgo(400), daysAgo(35)];
  t.same(
    await usage(`?from=${longAgo}&to=${monthAgo}`),
    { from: longAgo, to: monthAgo, totals: zero, days: [] },
    '366 days is allowed',
  );
  const fromToday = await onOneDay((day) => usage(`?from=${day}`));
  t.same(fromToday.answer.to, fromToday.day, 'to defaults to today');

  const other = await org();
  const theirs = await call(service.url, other.key, 'GET', '/v1/usage');
  t.same(theirs.body.totals, zero, "another organization's jobs are invisible");
});

t.test('bad queries answer 422 with the parameter as path', async (t) => {
  const o = await org();
  const one = async (query: string, path: string, code: string) => {
    const res = await call(service.url, o.key, 'GET', `/v1/usage?${query}`);
    t.equal(res.status, 422, query);
    t.equal(res.body.error.code, 'validation_failed');
    t.equal(res.body.error.request_id, res.headers.get('x-request-id'));
    t.same(
      res.body.error.details.map((d: any) => [d.path, d.code]),
      [[path, code]],
      query,
    );
  };
  await one('from=2026-02-30', 'from', 'invalid_value');
  await one('from=yesterday', 'from', 'invalid_value');
  await one('to=2026-1-5', 'to', 'invalid_value');
  await one('to=2026-01-05T00:00:00Z', 'to', 'invalid_value');
  await one('group_by=week', 'group_by', 'invalid_value');
  await one('from=2026-03-02&to=2026-03-01', 'from', 'invalid_value');
  await one('from=2025-01-01&to=2026-01-02', 'from', 'out_of_range');
  const ok = await call(service.url, o.key, 'GET', '/v1/usage?from=2025-01-01&to=2026-01-01&group_by=day');
  t.equal(ok.status, 200, '366 days inclusive');
  t.equal(ok.body.days.length, 366);
  const many = await call(service.url, o.key, 'GET', '/v1/usage?from=x&to=y&group_by=z');
  t.same(
    many.body.error.details.map((d: any) => d.path),
    ['from', 'to', 'group_by'],
  );

  const now = new Date().toISOString();
  const k = await createApiKey(service.services.store, {
    orgId: o.orgId,
    memberId: o.ownerId,
    name: 'jobs only',
    scopes: ['jobs:read'],
    now,
  });
  await service.services.projections.waitFor(k.position);
  const denied = await call(service.url, k.secret, 'GET', '/v1/usage');
  t.equal(denied.status, 403);
  t.equal(denied.body.error.code, 'scope_missing');
});
