/**
 * `npm run admin -- invite` prints a link that opens: the address of the service running on the
 * data dir (it writes `<data dir>/service-url` when it listens and removes it when it stops),
 * PUBLIC_BASE_URL when set, and without a running service the default address with a hint.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { startService } from '../../service/server.js';
import { SERVICE_URL_FILE, browsableUrl, runningServiceUrl } from '../../service/service-address.js';
import { browserCall } from '../helpers/web-session.js';
import { nodeChild } from '../helpers/node-child.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'packing-admin-address-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the admin program on the test's data dir with `env` over an environment without PORT and PUBLIC_BASE_URL. */
function admin(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env, PACKING_DATA_DIR: dir, PACKING_EVENT_STORE: 'sqlite' };
  delete base['PORT'];
  delete base['PUBLIC_BASE_URL'];
  return new Promise((resolve) => {
    execFile(
      ...nodeChild(['--import', 'tsx', 'scripts/admin.ts', ...args]),
      { cwd: ROOT, env: { ...base, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr }),
    );
  });
}

let orgId = '';
async function invite(email: string, env: Record<string, string> = {}): Promise<{ url: string; stderr: string }> {
  const r = await admin(['invite', '--org', orgId, '--email', email], env);
  if (r.code !== 0) throw new Error(`invite: ${r.code} ${r.stderr}`);
  return { url: (JSON.parse(r.stdout) as { url: string }).url, stderr: r.stderr };
}

t.before(async () => {
  const org = await admin(['create-org', '--name', 'Acme']);
  if (org.code !== 0) throw new Error(org.stderr);
  orgId = (JSON.parse(org.stdout) as { org_id: string }).org_id;
});

t.test('an unspecified listening host is written localhost', async (t) => {
  t.equal(browsableUrl('http://0.0.0.0:8080'), 'http://localhost:8080');
  t.equal(browsableUrl('http://[::]:9000'), 'http://localhost:9000');
  t.equal(browsableUrl('https://127.0.0.1:8443'), 'https://127.0.0.1:8443');
});

t.test('no service running: the default address, and a hint saying so', async (t) => {
  const out = await invite('first@acme.example');
  t.match(out.url, /^http:\/\/localhost:8080\/app\/invitations\/[A-Za-z0-9_-]{43}$/);
  t.match(out.stderr, /no service is running on the data dir .*http:\/\/localhost:8080.*--base-url/s, out.stderr);
  t.match(
    (await invite('port@acme.example', { PORT: '9123' })).url,
    /^http:\/\/localhost:9123\/app\/invitations\//,
    'PORT names the default port',
  );
});

t.test('a service running on the data dir: its address, and the link opens; removed when it stops', async (t) => {
  const service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    solverConcurrency: 1,
    log: pino({ level: 'silent' }),
  });
  let closed = false;
  t.teardown(async () => {
    if (!closed) await service.close();
  });
  t.same(
    JSON.parse(readFileSync(join(dir, SERVICE_URL_FILE), 'utf8')),
    { url: service.url, pid: process.pid },
    'the service wrote its address',
  );
  const out = await invite('second@acme.example');
  t.ok(out.url.startsWith(`${service.url}/app/invitations/`), `${out.url} is on ${service.url}`);
  t.equal(out.stderr, '', 'no hint');
  const token = out.url.split('/').pop()!;
  // The service picks the admin's event up from the log: ask until its read model has it.
  let shown = await browserCall(service.url, null, 'GET', `/app/api/invitations/${token}`);
  for (const until = Date.now() + 10_000; shown.status === 404 && Date.now() < until;) {
    await service.services.projections.sync(1000);
    shown = await browserCall(service.url, null, 'GET', `/app/api/invitations/${token}`);
  }
  t.same([shown.status, shown.body.email], [200, 'second@acme.example'], 'the printed link opens the invitation');
  const pub = await invite('third@acme.example', { PUBLIC_BASE_URL: 'https://packing.acme.example/' });
  t.match(pub.url, /^https:\/\/packing\.acme\.example\/app\/invitations\//, 'PUBLIC_BASE_URL wins');

  await service.close();
  closed = true;
  t.notOk(existsSync(join(dir, SERVICE_URL_FILE)), 'a clean stop removes the file');
  t.match((await invite('fourth@acme.example')).url, /^http:\/\/localhost:8080\//, 'back to the default');
});

t.test('a file left by a process that died is ignored', async (t) => {
  writeFileSync(join(dir, SERVICE_URL_FILE), `${JSON.stringify({ url: 'http://127.0.0.1:1', pid: 2 ** 22 + 7 })}\n`);
  t.equal(runningServiceUrl(dir), null, 'its pid is not alive');
  const out = await invite('fifth@acme.example');
  t.match(out.url, /^http:\/\/localhost:8080\//);
  t.match(out.stderr, /no service is running/);
  rmSync(join(dir, SERVICE_URL_FILE));
});

t.test('a service with PUBLIC_BASE_URL writes that address', async (t) => {
  const service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    solverConcurrency: 1,
    log: pino({ level: 'silent' }),
    publicBaseUrl: 'https://plans.acme.example/',
  });
  t.teardown(() => service.close());
  t.equal(runningServiceUrl(dir), 'https://plans.acme.example');
  t.match((await invite('sixth@acme.example')).url, /^https:\/\/plans\.acme\.example\/app\/invitations\//);
});
