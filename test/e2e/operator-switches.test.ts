/**
 * The operator switches end to end on the real embedded service: maintenance
 * mode (every /v1 call 503 api_disabled with Retry-After, /health 200 "maintenance"), the API
 * off for one organization (503 for its keys only), suspension (403 account_inactive); each
 * switched twice (the second time changes nothing) and back. First through the functions the
 * admin command calls, then through `npm run admin` itself beside the running service.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  setMaintenance,
  setOrganizationApi,
  setOrganizationSuspended,
  type Switched,
} from '../../application/operator-commands.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'packing-switches-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
const running = inProcessService(t, 'switches', { dataDir });

let a: Awaited<ReturnType<typeof orgWithKey>>;
let b: Awaited<ReturnType<typeof orgWithKey>>;
t.before(async () => {
  a = await orgWithKey(running.service, { name: 'A' });
  b = await orgWithKey(running.service, { name: 'B' });
});

const now = () => new Date().toISOString();
/** Waits until the API's read models include the switch. */
const applied = async (done: Switched) => running.service.services.projections.waitFor(done.position);
const balance = (key: string | null) => call(running.service.url, key, 'GET', '/v1/balance');

t.test(
  'maintenance: every /v1 call 503 api_disabled with Retry-After, /health 200 says so; on twice is one event; off',
  async (t) => {
    const { store } = running.service.services;
    const on = await setMaintenance(store, { message: 'database upgrade', retryAfterSeconds: 120 }, now());
    t.equal(on.changed, true);
    await applied(on);
    for (const [who, key] of [
      ['A', a.key],
      ['B', b.key],
      ['no key', null],
    ] as const) {
      const got = await balance(key);
      t.equal(got.status, 503, `${who}: 503`);
      t.equal(got.body.error.code, 'api_disabled', `${who}: api_disabled`);
      t.equal(got.headers.get('retry-after'), '120', `${who}: Retry-After`);
      t.match(got.body.error.message, /database upgrade/);
      t.match(got.body.error.request_id, /^req_/);
    }
    const health = await call(running.service.url, null, 'GET', '/health');
    t.equal(health.status, 200, '/health stays 200 (a load balancer keeps the instance)');
    t.equal(health.body.status, 'maintenance');
    t.equal(health.body.maintenance.message, 'database upgrade');
    const head = await store.headPosition();
    const again = await setMaintenance(store, { message: 'database upgrade', retryAfterSeconds: 120 }, now());
    t.same([again.changed, await store.headPosition()], [false, head], 'on again: no new event');
    const off = await setMaintenance(store, null, now());
    t.equal(off.changed, true);
    await applied(off);
    t.equal((await balance(a.key)).status, 200, 'answers again');
    t.same((await call(running.service.url, null, 'GET', '/health')).body.status, 'ok');
    t.equal((await setMaintenance(store, null, now())).changed, false, 'off again: nothing');
  },
);

t.test("the API off for one organization: 503 for its keys with Retry-After, the other's answer", async (t) => {
  const { store } = running.service.services;
  const off = await setOrganizationApi(store, a.orgId, { message: 'unpaid invoice', retryAfterSeconds: 600 }, now());
  t.equal(off.changed, true);
  await applied(off);
  const got = await balance(a.key);
  t.same([got.status, got.body.error.code, got.headers.get('retry-after')], [503, 'api_disabled', '600']);
  t.match(got.body.error.message, /unpaid invoice/);
  t.equal((await balance(b.key)).status, 200, 'B is not affected');
  t.equal((await call(running.service.url, null, 'GET', '/health')).body.status, 'ok', 'the service is healthy');
  t.equal(
    (await setOrganizationApi(store, a.orgId, { message: 'unpaid invoice', retryAfterSeconds: 600 }, now())).changed,
    false,
    'off twice: one event',
  );
  const on = await setOrganizationApi(store, a.orgId, null, now());
  await applied(on);
  t.equal((await balance(a.key)).status, 200, 'on again');
  t.equal((await setOrganizationApi(store, a.orgId, null, now())).changed, false, 'on twice: nothing');
});

t.test('suspension: 403 account_inactive for its keys, the other answers; reactivation', async (t) => {
  const { store } = running.service.services;
  const suspended = await setOrganizationSuspended(store, b.orgId, 'fraud check', now());
  await applied(suspended);
  const got = await balance(b.key);
  t.same([got.status, got.body.error.code], [403, 'account_inactive']);
  t.equal((await balance(a.key)).status, 200);
  t.equal(
    (await setOrganizationSuspended(store, b.orgId, 'fraud check', now())).changed,
    false,
    'suspended twice: one event',
  );
  await applied(await setOrganizationSuspended(store, b.orgId, null, now()));
  t.equal((await balance(b.key)).status, 200, 'reactivated');
  await t.rejects(
    setOrganizationSuspended(store, 'org_nobody', 'x', now()),
    { code: 'not_found' },
    'an unknown organization is refused',
  );
});

/** Runs `npm run admin -- …` on the service's data dir; its stdout parsed (one JSON line). */
async function admin(...args: string[]): Promise<Record<string, any>> {
  const { stdout } = await promisify(execFile)(...nodeChild(['--import', 'tsx', 'scripts/admin.ts', ...args]), {
    cwd: ROOT,
    env: { ...process.env, PACKING_DATA_DIR: dataDir, PACKING_EVENT_STORE: 'sqlite' },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, any>;
}

t.test('npm run admin beside the running service: disable-api, enable-api, suspend-org, maintenance', async (t) => {
  const off = await admin('disable-api', '--org', a.orgId, '--message', 'by script', '--retry-after', '30');
  t.same([off.changed, off.retry_after], [true, 30]);
  await applied(off as Switched);
  const got = await balance(a.key);
  t.same([got.status, got.headers.get('retry-after')], [503, '30']);
  t.same(
    (await admin('disable-api', '--org', a.orgId, '--message', 'by script', '--retry-after', '30')).changed,
    false,
    'twice: no-op',
  );
  await applied((await admin('enable-api', '--org', a.orgId)) as Switched);
  t.equal((await balance(a.key)).status, 200);

  await applied((await admin('suspend-org', '--org', a.orgId, '--reason', 'test')) as Switched);
  t.equal((await balance(a.key)).body.error?.code, 'account_inactive');
  await applied((await admin('reactivate-org', '--org', a.orgId)) as Switched);
  t.equal((await balance(a.key)).status, 200);

  await applied((await admin('maintenance', 'on', '--message', 'script window')) as Switched);
  const during = await balance(b.key);
  t.same([during.status, during.headers.get('retry-after')], [503, '300'], 'default Retry-After 300 s');
  await applied((await admin('maintenance', 'off')) as Switched);
  t.equal((await balance(b.key)).status, 200);
});
