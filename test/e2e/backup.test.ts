/**
 * Backup and restore end to end: a running service with jobs, balances and two
 * keys is backed up by `npm run admin -- backup` while it runs; a second service started on a
 * data dir restored from the copy lists the same jobs, shows the same balances, accepts the same
 * keys, serves the PDF links the first signed; `replay-billing` on the copy finds 0 differences.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'packing-backup-e2e-'));
const live = join(root, 'live');
const backup = join(root, 'backup');
const restored = join(root, 'restored');
let first: ServiceProcess | undefined;
let second: ServiceProcess | undefined;
t.teardown(async () => {
  await first?.stop('SIGKILL');
  await second?.stop('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** Runs a script on the data dir `dataDir`: exit code and output. */
function run(
  script: string,
  args: string[],
  dataDir: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      ...nodeChild(['--import', 'tsx', script, ...args]),
      { cwd: ROOT, env: { ...process.env, PACKING_DATA_DIR: dataDir, PACKING_EVENT_STORE: 'sqlite' } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr }),
    );
  });
}

/** Polls /health until the service has applied the log up to `position` (the admin wrote in another process). */
async function untilApplied(service: ServiceProcess, position: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const health = await call(service.url, null, 'GET', '/health');
    if (health.body.position >= position) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the service never reached position ${position}`);
}

const small = (reference: string) => ({
  reference,
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: [{ id: 'box', length: 40, width: 30, height: 30, weight: 5, quantity: 6 }],
  options: { time_limit: 30 },
});
/** What must survive a restore of a job (its URLs name the host, so they are compared apart). */
const lasting = (j: any) => ({
  id: j.id,
  status: j.status,
  reference: j.reference,
  cost: j.cost,
  summary: j.summary,
  created_at: j.created_at,
  finished_at: j.finished_at,
});

t.test('backup while the service runs, restore into a new data dir, the same jobs, balances and keys', async (t) => {
  mkdirSync(live);
  first = await startServiceProcess(live);
  const org = await run('scripts/admin.ts', ['create-org', '--name', 'Backup Test', '--credits', '50'], live);
  t.equal(org.code, 0, org.stderr);
  const orgId = (JSON.parse(org.stdout) as { org_id: string }).org_id;
  const made = await run('scripts/admin.ts', ['create-key', '--org', orgId, '--name', 'erp'], live);
  t.equal(made.code, 0, made.stderr);
  const key = (JSON.parse(made.stdout) as { secret: string }).secret;
  const disabled = await run('scripts/admin.ts', ['disable-api', '--org', orgId], live);
  await untilApplied(first, (JSON.parse(disabled.stdout) as { position: number }).position);
  t.equal((await call(first.url, key, 'GET', '/v1/balance')).status, 503, 'the switch state is in the log too');
  const enabled = await run('scripts/admin.ts', ['enable-api', '--org', orgId], live);
  await untilApplied(first, (JSON.parse(enabled.stdout) as { position: number }).position);

  for (const [k, ref] of [
    [first.key, 'demo-1'],
    [first.key, 'demo-2'],
    [key, 'erp-1'],
  ] as const) {
    const posted = await call(first.url, k, 'POST', '/v1/pack?wait=60', small(ref));
    t.equal(posted.body.status, 'succeeded', `${ref}: ${JSON.stringify(posted.body.error ?? posted.body)}`);
  }
  const before = {
    demoJobs: (await call(first.url, first.key, 'GET', '/v1/jobs?limit=100')).body.data,
    erpJobs: (await call(first.url, key, 'GET', '/v1/jobs?limit=100')).body.data,
    demoBalance: (await call(first.url, first.key, 'GET', '/v1/balance')).body,
    erpBalance: (await call(first.url, key, 'GET', '/v1/balance')).body,
  };
  t.same([before.demoJobs.length, before.erpJobs.length], [2, 1]);

  const done = await run('scripts/admin.ts', ['backup', '--to', backup], live);
  t.equal(done.code, 0, `backup beside the running service: ${done.stderr}`);
  const report = JSON.parse(done.stdout) as { events_head: number; files: { name: string }[] };
  t.same(
    report.files.map((f) => f.name),
    ['read-models.db', 'events.db', 'signing-key', 'demo-api-key'],
    'the read models first: a copy older than the log is replayed forward',
  );
  t.equal(statSync(backup).mode & 0o777, 0o700);
  for (const f of readdirSync(backup)) t.equal(statSync(join(backup, f)).mode & 0o777, 0o600, `${f} is 0600`);
  t.equal((await call(first.url, first.key, 'GET', '/health')).status, 200, 'the service runs on');
  const again = await run('scripts/admin.ts', ['backup', '--to', backup], live);
  t.equal(again.code, 2, 'a second backup into the same directory is refused');

  const audit = await run('scripts/replay-billing.ts', ['--data-dir', backup], root);
  t.equal(audit.code, 0, audit.stdout);
  t.match(audit.stdout, / 0 differences/);

  // Restore as the README says: copy the files into a new data dir, start the service on it.
  mkdirSync(restored, { mode: 0o700 });
  for (const f of readdirSync(backup)) copyFileSync(join(backup, f), join(restored, f));
  second = await startServiceProcess(restored);
  t.equal(second.key, first.key, 'the demo key file came along');
  const after = {
    demoJobs: (await call(second.url, first.key, 'GET', '/v1/jobs?limit=100')).body.data,
    erpJobs: (await call(second.url, key, 'GET', '/v1/jobs?limit=100')).body.data,
    demoBalance: (await call(second.url, first.key, 'GET', '/v1/balance')).body,
    erpBalance: (await call(second.url, key, 'GET', '/v1/balance')).body,
  };
  t.same(after.demoJobs.map(lasting), before.demoJobs.map(lasting), 'the same jobs of the demo organization');
  t.same(after.erpJobs.map(lasting), before.erpJobs.map(lasting), 'the same jobs of the other organization');
  t.same(after.demoBalance, before.demoBalance, 'the same balance');
  t.same(after.erpBalance, before.erpBalance, 'the same balance, through the same key');
  t.ok(after.erpBalance.available_credits < 50, 'the job was charged');
  const pdf = await fetch(before.demoJobs[0].pdf_url.replace(/^http:\/\/[^/]+/, second.url));
  t.equal(pdf.status, 200, 'a PDF link signed before the backup works after the restore');
});
