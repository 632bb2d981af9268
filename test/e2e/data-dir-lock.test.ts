/**
 * One embedded instance per data dir: a second `npm start` on a data dir that a live
 * instance holds refuses with one line and exit 1, and leaves the first one's jobs alone; once
 * the first is killed (-9), the kernel has released its lock and a new instance starts. A bad
 * profile variable is refused the same way.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { nodeChild } from '../helpers/node-child.js';
import { serviceMainArgs } from '../helpers/compiled-service.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'packing-lock-'));
let first: ServiceProcess | undefined;
t.teardown(async () => {
  await first?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function startOnce(env: Record<string, string>) {
  return spawnSync(...nodeChild(serviceMainArgs()), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PACKING_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

t.test('a second embedded instance on a held data dir refuses with one line', async (t) => {
  first = await startServiceProcess(dataDir);
  const posted = await call(first.url, first.key, 'POST', '/v1/pack', {
    vehicles: [{ vehicle_id: 'van-3-5t' }],
    items: [{ length: 10, width: 10, height: 10, weight: 1 }],
  });
  t.ok([200, 202].includes(posted.status));
  const second = startOnce({});
  t.equal(second.status, 1, 'exit 1');
  t.equal(second.stderr.trim().split('\n').length, 1, `one line: ${second.stderr}`);
  t.match(second.stderr, /^refusing to start: the data dir .* is in use by another running instance/);
  const job = (await call(first.url, first.key, 'GET', `/v1/jobs/${posted.body.id}?wait=30`)).body;
  t.equal(job.status, 'succeeded', "the first instance's job was left alone");
});

t.test('after a kill -9 the lock is free again', async (t) => {
  await first!.stop('SIGKILL');
  first = await startServiceProcess(dataDir);
  t.equal((await call(first.url, null, 'GET', '/health')).status, 200);
});

t.test('a bad profile variable is refused with one line naming it', async (t) => {
  const res = startOnce({ PACKING_ROLES: 'api', PACKING_DATA_DIR: join(dataDir, 'other') });
  t.equal(res.status, 1);
  t.equal(res.stderr.trim().split('\n').length, 1, `one line: ${res.stderr}`);
  t.match(res.stderr, /^refusing to start: PACKING_BUS=inproc .* lacks solver/);
});
