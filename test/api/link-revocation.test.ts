/**
 * Revoking a job's signed links on the real embedded service: the owner's
 * POST /app/api/jobs/{id}/revoke-links (CSRF, owner only, own organization's jobs) and the
 * operator's `admin revoke-links <job>` on the same data dir while the service runs. Links issued
 * before a revocation answer 404 not_found (the envelope of a tampered link: viewer page, plan
 * data and PDF); links the job shows afterwards open; the job's link generation is the number of
 * revocations.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { ensureViewerBuild } from '../../scripts/front-end-builds.js';
import { call } from '../helpers/service-process.js';
import { orgWithKey } from '../helpers/in-process-service.js';
import { acceptedMember, browserCall, type Browser } from '../helpers/web-session.js';
import { JOBS, type JobDocument } from '../../projections/jobs/job-document.js';
import { nodeChild } from '../helpers/node-child.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'packing-link-revocation-'));
let service: RunningService;
t.before(async () => {
  t.equal(await ensureViewerBuild('stale'), 'fresh', 'the viewer is built');
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    solverConcurrency: 1,
    log: pino({ level: 'silent' }),
  });
});
t.teardown(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

function admin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      ...nodeChild(['--import', 'tsx', 'scripts/admin.ts', ...args]),
      { cwd: ROOT, env: { ...process.env, PACKING_DATA_DIR: dir, PACKING_EVENT_STORE: 'sqlite' } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr }),
    );
  });
}

const body = {
  vehicles: [{ id: 'van', type: 'truck', name: 'Van', length: 300, width: 180, height: 180, max_weight: 1000 }],
  items: [{ id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 4 }],
  options: { packing_mode: 'fleet_only', time_limit: 10 },
};

const local = (url: string): string => url.replace(/^http:\/\/[^/]+/, service.url);

/** The three things a job's links open: viewer page, its plan data, the PDF. */
const opened = (job: { viewer_url: string; pdf_url: string }): string[] => [
  local(job.viewer_url),
  local(job.viewer_url).replace('?', '/plan.json?'),
  local(job.pdf_url),
];

async function statusOf(url: string): Promise<{ status: number; code?: string }> {
  const res = await fetch(url);
  const type = res.headers.get('content-type') ?? '';
  const json = type.startsWith('application/json') ? ((await res.json()) as any) : (await res.arrayBuffer(), undefined);
  return { status: res.status, ...(json?.error ? { code: json.error.code } : {}) };
}

let org: Awaited<ReturnType<typeof orgWithKey>>;
let owner: Browser;
let member: Browser;
let job: any;

t.before(async () => {
  org = await orgWithKey(service);
  owner = (await acceptedMember(service, org.orgId, 'owner@example.com', { role: 'owner', name: 'Olga' })).browser;
  member = (await acceptedMember(service, org.orgId, 'member@example.com', { role: 'member', name: 'Max' })).browser;
  job = (await call(service.url, org.key, 'POST', '/v1/pack?wait=60', body)).body;
});

t.test('a member, a call without CSRF and another organization cannot revoke', async (t) => {
  t.equal(job.status, 'succeeded');
  const byMember = await browserCall(service.url, member, 'POST', `/app/api/jobs/${job.id}/revoke-links`);
  t.same([byMember.status, byMember.body.error.code], [403, 'forbidden'], 'a member: 403 forbidden');
  const noCsrf = await browserCall(service.url, owner, 'POST', `/app/api/jobs/${job.id}/revoke-links`, undefined, {
    csrf: 'wrong',
  });
  t.same([noCsrf.status, noCsrf.body.error.code], [403, 'forbidden'], 'a wrong CSRF token: 403 forbidden');
  const other = await orgWithKey(service, { name: 'Other' });
  const otherOwner = (await acceptedMember(service, other.orgId, 'other@example.com', { role: 'owner' })).browser;
  const foreign = await browserCall(service.url, otherOwner, 'POST', `/app/api/jobs/${job.id}/revoke-links`);
  t.same([foreign.status, foreign.body.error.code], [404, 'job_not_found'], "another organization's job is invisible");
  const unknown = await browserCall(service.url, owner, 'POST', '/app/api/jobs/job_nosuchjob/revoke-links');
  t.same([unknown.status, unknown.body.error.code], [404, 'job_not_found']);
  for (const url of opened(job)) t.equal((await statusOf(url)).status, 200, 'the links still open');
});

t.test('the owner revokes: earlier links are refused like tampered ones, the new links open', async (t) => {
  const res = await browserCall(service.url, owner, 'POST', `/app/api/jobs/${job.id}/revoke-links`);
  t.equal(res.status, 200);
  t.equal(res.body.id, job.id);
  t.not(res.body.viewer_url, job.viewer_url, 'a new viewer link');
  t.not(res.body.pdf_url, job.pdf_url, 'a new PDF link');
  t.equal(
    new URL(res.body.viewer_url).searchParams.get('expires'),
    new URL(job.viewer_url).searchParams.get('expires'),
    'same expiry',
  );
  for (const url of opened(job))
    t.same(await statusOf(url), { status: 404, code: 'not_found' }, 'an earlier link: 404 not_found');
  const tampered = local(job.viewer_url).replace(
    /signature=(.)/,
    (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`,
  );
  t.same(await statusOf(tampered), { status: 404, code: 'not_found' }, 'the same answer as a tampered link');
  for (const url of opened(res.body)) t.equal((await statusOf(url)).status, 200, 'a link issued afterwards opens');
  const again = (await call(service.url, org.key, 'GET', `/v1/jobs/${job.id}`)).body;
  t.equal(again.viewer_url, res.body.viewer_url, 'GET /v1/jobs/{id} shows the new links');
  t.equal((await service.services.reads.collection<JobDocument>(JOBS).get(job.id))?.linkGeneration, 1);
  job = again;
});

t.test("admin revoke-links <job> on the running service's data dir", async (t) => {
  const before = job;
  const done = await admin(['revoke-links', job.id]);
  t.equal(done.code, 0, done.stderr);
  const printed = JSON.parse(done.stdout) as { job_id: string; link_generation: number; links_revoked_at: string };
  t.equal(printed.job_id, job.id);
  t.equal(printed.link_generation, 2, 'the second revocation');
  t.match(printed.links_revoked_at, /^\d{4}-\d\d-\d\dT/);
  // The service follows the shared log: wait until its read model shows the revocation.
  const jobs = service.services.reads.collection<JobDocument>(JOBS);
  const deadline = Date.now() + 20_000;
  while ((await jobs.get(job.id))?.linkGeneration !== 2 && Date.now() < deadline)
    await new Promise((r) => setImmediate(r));
  t.equal((await jobs.get(job.id))?.linkGeneration, 2, 'the service read the revocation');
  for (const url of opened(before))
    t.same(await statusOf(url), { status: 404, code: 'not_found' }, 'the links shown before: refused');
  const after = (await call(service.url, org.key, 'GET', `/v1/jobs/${job.id}`)).body;
  for (const url of opened(after)) t.equal((await statusOf(url)).status, 200, 'the links shown now open');

  const unknown = await admin(['revoke-links', 'job_nosuchjob']);
  t.same([unknown.code, unknown.stderr.trim()], [1, 'admin: no job job_nosuchjob']);
});
