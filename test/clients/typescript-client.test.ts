/**
 * The typed client (clients/typescript) against the real service, through a
 * test proxy that injects 429 / 500 / 503 answers with Retry-After: retries honour Retry-After
 * and resend the same Idempotency-Key, one job is created however many retries it takes (also
 * when an answer is lost after the job was created), 422 and other 4xx are never retried, errors
 * are typed, pack({wait}) returns the finished job, and the iterators page through 250 jobs.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { seedJobLog, type SeededLog } from '../../scripts/seed-log.js';
import {
  NotFoundError,
  PackingClient,
  RateLimitError,
  ServiceUnavailableError,
  ValidationError,
  type Job,
  type PackRequest,
  type RetryEvent,
} from '../../clients/typescript/src/index.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const EXAMPLE = JSON.parse(
  readFileSync(new URL('../../examples/eur-pallets-13-6m-trailer.json', import.meta.url), 'utf8'),
) as PackRequest;
const SEEDED_JOBS = 250;

const dir = mkdtempSync(join(tmpdir(), 'packing-client-'));
let service: RunningService;
let seeded: SeededLog;
let proxy: FaultProxy;

t.before(async () => {
  seeded = await seedJobLog(dir, {
    jobs: SEEDED_JOBS,
    credits: 1000,
    limits: { rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 } },
    // One small solve with a roomy budget: safe on a loaded machine.
    request: {
      reference: 'seeded',
      vehicles: [{ vehicle_id: 'rigid-7-5t' }],
      items: [{ id: 'box', length: 60, width: 40, height: 40, weight: 12, quantity: 2 }],
      options: { time_limit: 30 },
    },
    threadModule: solverThreadModule(),
  });
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    solverConcurrency: 1,
    log: pino({ level: 'silent' }),
  });
  proxy = await startFaultProxy(service.url);
});
t.teardown(async () => {
  await proxy?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A client through the proxy whose waits are recorded, not slept (the delays are asserted). */
function client(retry: { maxRetries?: number } = {}): { api: PackingClient; waits: number[]; retries: RetryEvent[] } {
  const waits: number[] = [];
  const retries: RetryEvent[] = [];
  const api = new PackingClient({
    baseUrl: proxy.url,
    apiKey: seeded.key,
    retry,
    sleep: async (ms) => {
      waits.push(ms);
    },
    onRetry: (e) => retries.push(e),
  });
  return { api, waits, retries };
}

const jobsWithReference = async (reference: string): Promise<Job[]> => {
  const api = new PackingClient({ baseUrl: service.url, apiKey: seeded.key });
  const out: Job[] = [];
  for await (const job of api.iterateJobs({ reference })) out.push(job);
  return out;
};

t.test(
  "409 conflict with Retry-After (the key's first request still creating its job) is retried with the same key; one job",
  async (t) => {
    const { api, waits, retries } = client();
    const seenBefore = proxy.seen.length;
    proxy.inject(/^POST \/v1\/pack$/, [{ status: 409, retryAfter: 2 }]);
    const job = await api.createPackJob({ ...EXAMPLE, reference: 'retry-conflict' });
    const attempts = proxy.seen.slice(seenBefore);
    t.same(
      attempts.map((a) => a.status),
      [409, 202],
      'the injected 409, then the service',
    );
    t.equal(new Set(attempts.map((a) => a.idempotencyKey)).size, 1, 'one Idempotency-Key on both attempts');
    t.same(
      retries.map((r) => r.status),
      [409],
    );
    t.ok(waits[0]! >= 2000, `the wait ${waits[0]} ms honours Retry-After: 2`);
    t.same(
      (await jobsWithReference('retry-conflict')).map((j) => j.id),
      [job.id],
      'exactly one job created',
    );
  },
);

t.test(
  '429 and 503 with Retry-After are retried after at least Retry-After, with the same Idempotency-Key; one job',
  async (t) => {
    const { api, waits, retries } = client();
    const seenBefore = proxy.seen.length;
    proxy.inject(/^POST \/v1\/pack$/, [
      { status: 503, retryAfter: 3 },
      { status: 429, retryAfter: 7 },
      { status: 500 },
    ]);
    const job = await api.createPackJob({ ...EXAMPLE, reference: 'retry-before' });
    t.equal(job.object, 'job');
    t.match(job.id, /^job_/);
    const attempts = proxy.seen.slice(seenBefore);
    t.same(
      attempts.map((a) => a.status),
      [503, 429, 500, 202],
      'three injected answers, then the service',
    );
    const keys = new Set(attempts.map((a) => a.idempotencyKey));
    t.equal(keys.size, 1, 'one Idempotency-Key on every attempt');
    t.match([...keys][0], /^[0-9a-f-]{36}$/, 'generated when not given');
    t.same(
      retries.map((r) => r.status),
      [503, 429, 500],
    );
    t.ok(waits[0]! >= 3000, `first wait ${waits[0]} ms honours Retry-After: 3`);
    t.ok(waits[1]! >= 7000, `second wait ${waits[1]} ms honours Retry-After: 7`);
    t.ok(
      waits[2]! >= 1000 && waits[2]! <= 2000,
      `third wait ${waits[2]} ms: exponential backoff 0.5 s · 2² with jitter`,
    );
    t.same(
      (await jobsWithReference('retry-before')).map((j) => j.id),
      [job.id],
      'exactly one job created',
    );
  },
);

t.test('an answer lost after the job was created: the retry replays it, still one job', async (t) => {
  const { api } = client();
  const seenBefore = proxy.seen.length;
  proxy.inject(/^POST \/v1\/pack$/, [
    { status: 503, retryAfter: 1, afterForward: true },
    { status: 500, afterForward: true },
  ]);
  const job = await api.createPackJob(
    { ...EXAMPLE, reference: 'retry-after-create' },
    { idempotencyKey: 'order-4711' },
  );
  const attempts = proxy.seen.slice(seenBefore);
  t.equal(attempts.length, 3, 'two lost answers, then the replay');
  t.same(
    attempts.map((a) => a.idempotencyKey),
    ['order-4711', 'order-4711', 'order-4711'],
    'the given key on every retry',
  );
  const jobs = await jobsWithReference('retry-after-create');
  t.same(
    jobs.map((j) => j.id),
    [job.id],
    'the service created one job for three deliveries',
  );
});

t.test('422 is not retried; the error is typed with code, details and request_id', async (t) => {
  const { api, retries } = client();
  const seenBefore = proxy.seen.length;
  const error = await api.createPackJob({ ...EXAMPLE, items: [] }).catch((e: unknown) => e);
  t.type(error, ValidationError);
  const v = error as ValidationError;
  t.equal(v.status, 422);
  t.equal(v.code, 'validation_failed');
  t.same(
    v.details.map((d) => [d.path, d.code]),
    [['items', 'out_of_range']],
  );
  t.match(v.request_id, /^req_[a-z0-9]+$/);
  t.equal(proxy.seen.length - seenBefore, 1, 'one attempt');
  t.same(retries, []);
});

t.test('404 is not retried and is a NotFoundError', async (t) => {
  const { api, retries } = client();
  const error = await api.getJob('job_doesnotexist').catch((e: unknown) => e);
  t.type(error, NotFoundError);
  t.equal((error as NotFoundError).code, 'job_not_found');
  t.same(retries, []);
});

t.test('retries run out: the last answer is thrown as its typed error', async (t) => {
  const { api, retries } = client({ maxRetries: 2 });
  proxy.inject(/^GET \/v1\/balance$/, [
    { status: 503, retryAfter: 1 },
    { status: 503, retryAfter: 1 },
    { status: 503, retryAfter: 2 },
  ]);
  const error = await api.getBalance().catch((e: unknown) => e);
  t.type(error, ServiceUnavailableError);
  t.equal((error as ServiceUnavailableError).code, 'api_disabled');
  t.equal((error as ServiceUnavailableError).retryAfterSeconds, 2);
  t.equal(retries.length, 2);
  proxy.inject(/^GET \/v1\/balance$/, [{ status: 429, retryAfter: 1 }]);
  const limited = await client({ maxRetries: 0 })
    .api.getBalance()
    .catch((e: unknown) => e);
  t.type(limited, RateLimitError, 'maxRetries 0: the 429 is thrown at once');
});

t.test('pack({wait: true}) returns the finished job with its result, reporting progress', async (t) => {
  const { api } = client();
  const seen: string[] = [];
  const job = await api.pack(
    { ...EXAMPLE, reference: 'wait' },
    { wait: true, pollSeconds: 1, onProgress: (j) => seen.push(j.status) },
  );
  t.equal(job.status, 'succeeded');
  t.equal(job.summary.items_placed, 33);
  t.equal(job.result?.vehicles.length, 1, 'result inlined');
  t.ok(seen.length >= 1 && seen.at(-1) === 'succeeded', `progress: ${seen.join(' → ')}`);
  const pdf = await api.downloadPdf(job);
  t.equal(Buffer.from(pdf.subarray(0, 5)).toString('latin1'), '%PDF-');
  const queued = await api.pack({ ...EXAMPLE, reference: 'no-wait' });
  t.ok(['queued', 'running', 'succeeded'].includes(queued.status), 'without wait: the job as created');
  t.equal((await api.waitForJob(queued, { pollSeconds: 5 })).status, 'succeeded');
});

t.test('iterateJobs pages through the 250 seeded jobs, newest first, each once', async (t) => {
  const { api } = client();
  const pagesBefore = proxy.seen.filter((s) => s.path === '/v1/jobs').length;
  const ids: string[] = [];
  const created: string[] = [];
  for await (const job of api.iterateJobs({ reference: 'seeded', limit: 100 })) {
    ids.push(job.id);
    created.push(job.created_at);
  }
  t.equal(ids.length, SEEDED_JOBS);
  t.equal(new Set(ids).size, SEEDED_JOBS, 'no job twice');
  t.same([...ids].sort(), [...seeded.jobIds].sort(), 'exactly the seeded jobs');
  t.same(created, [...created].sort().reverse(), 'newest first');
  t.equal(proxy.seen.filter((s) => s.path === '/v1/jobs').length - pagesBefore, 3, 'three pages of 100');
  let first = 0;
  for await (const _ of api.iterateJobs({ reference: 'seeded', limit: 20 })) if (++first === 30) break;
  t.equal(first, 30, 'stopping early reads no further pages');
});

t.test('every list has an iterator and every resource its calls', async (t) => {
  const { api } = client();
  const vehicle = await api.createVehicle({
    name: 'Client trailer',
    type: 'trailer',
    length: 1200,
    width: 245,
    height: 260,
    max_weight: 20_000,
  });
  const template = await api.createTemplate({ label: 'Client carton', length: 60, width: 40, height: 40, weight: 12 });
  const project = await api.createProject({
    name: 'Client project',
    vehicles: [{ vehicle_id: vehicle.id, quantity: 1 }],
    items: [{ label: 'Box', length: 50, width: 50, height: 50, weight: 5 }],
  });
  const collect = async <T extends { id: string }>(it: AsyncIterable<T>) => {
    const ids: string[] = [];
    for await (const r of it) ids.push(r.id);
    return ids;
  };
  t.ok((await collect(api.iterateVehicles({ limit: 2 }))).includes(vehicle.id), 'vehicles');
  t.ok((await collect(api.iterateTemplates({ limit: 1 }))).includes(template.id), 'templates');
  t.ok((await collect(api.iterateProjects({ limit: 1 }))).includes(project.id), 'projects');
  t.equal((await api.updateTemplate(template.id, { weight: 13 })).weight, 13);
  const packed = await api.packProject(project.id, { wait: 30 });
  t.equal(packed.project_id, project.id);
  t.same(await api.deleteProject(project.id), { id: project.id, object: 'project', deleted: true });
  t.same(await api.deleteTemplate(template.id), { id: template.id, object: 'template', deleted: true });
  t.same(await api.deleteVehicle(vehicle.id), { id: vehicle.id, object: 'vehicle', deleted: true });
  t.ok((await api.getBalance()).available_credits > 0, 'balance');
  t.ok((await api.getLimits()).max_items_per_request > 0);
  t.equal((await api.getHealth()).status, 'ok');
});
