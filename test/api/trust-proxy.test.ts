/**
 * Trusted proxies: TRUST_PROXY is checked at start; behind a trusted proxy
 * every client gets its own failed-authentication count and the key's IP allowlist sees the
 * forwarded address; without trust (the default), or from a peer that is not a trusted proxy,
 * X-Forwarded-For is ignored, and no other header ever names the client.
 */
import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService } from '../../service/server.js';
import { createApiKey } from '../../application/provision.js';
import { ProfileError } from '../../service/profile.js';
import { parseTrustProxy } from '../../api/http/auth/trust-proxy.js';
import { FAILED_AUTH_PER_MINUTE } from '../../api/http/auth/rate-limit.js';
import type { RunningService } from '../../service/server.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const behindProxy = inProcessService(t, 'trusted', { trustProxy: 'loopback' });
const direct = inProcessService(t, 'direct');
const otherProxy = inProcessService(t, 'other-proxy', { trustProxy: '10.0.0.1, 192.168.0.0/16' });

const BAD_KEY = 'not-a-key';

async function get(service: RunningService, key: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${service.url}/v1/balance`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  await res.arrayBuffer();
  return res.status;
}

/** A key of a fresh organization that only `allowedIps` may use. */
async function allowlistedKey(service: RunningService, allowedIps: string[]): Promise<string> {
  const o = await orgWithKey(service, { name: 'Allowlist' });
  const k = await createApiKey(service.services.store, {
    orgId: o.orgId,
    memberId: o.ownerId,
    name: 'fenced',
    now: new Date().toISOString(),
    allowedIps,
  });
  await service.services.projections.waitFor(k.position);
  return k.secret;
}

/** Fails FAILED_AUTH_PER_MINUTE authentications with the given headers; resolves the statuses seen. */
async function exhaust(service: RunningService, headers: Record<string, string>): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < FAILED_AUTH_PER_MINUTE; i++) seen.add(await get(service, BAD_KEY, headers));
  return seen;
}

t.test('TRUST_PROXY: addresses, CIDR ranges and the keywords; anything else refused by name', async (t) => {
  t.equal(parseTrustProxy(undefined), false, 'unset: trust no peer');
  t.equal(parseTrustProxy(' '), false, 'empty: trust no peer');
  t.same(parseTrustProxy('loopback, 10.0.0.0/8,2001:db8::/32 ,192.0.2.7,uniquelocal,linklocal'), [
    'loopback',
    '10.0.0.0/8',
    '2001:db8::/32',
    '192.0.2.7',
    'uniquelocal',
    'linklocal',
  ]);
  for (const bad of ['true', '2', 'proxy.example.com', '10.0.0.0/33', 'loopback,*']) {
    t.throws(() => parseTrustProxy(bad), ProfileError, `${bad} is refused`);
  }
  t.throws(() => parseTrustProxy('loopback, 10.0.0.0/33, true'), {
    variable: 'TRUST_PROXY',
    message:
      /TRUST_PROXY names "10\.0\.0\.0\/33", "true"; use a comma list of IP addresses, CIDR ranges or loopback, linklocal, uniquelocal/,
  });
});

t.test('a bad TRUST_PROXY stops the start before the data dir is touched', async (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'packing-trust-bad-'));
  t.teardown(() => rmSync(parent, { recursive: true, force: true }));
  const dataDir = join(parent, 'data');
  await t.rejects(
    startService({
      solverThreadModule: solverThreadModule(),
      port: 0,
      host: '127.0.0.1',
      dataDir,
      solverThreads: 1,
      log: pino({ level: 'silent' }),
      trustProxy: 'everyone',
    }),
    { name: 'ProfileError', variable: 'TRUST_PROXY', message: /"everyone"/ },
  );
  t.notOk(existsSync(dataDir), 'no data dir was made');
});

t.test('behind a trusted proxy: two clients, two failed-authentication counters', async (t) => {
  const service = behindProxy.service;
  const o = await orgWithKey(service, { name: 'Proxied' });
  const a = { 'x-forwarded-for': '203.0.113.7' };
  const b = { 'x-forwarded-for': '198.51.100.4' };
  t.same([...(await exhaust(service, a))], [401], `${FAILED_AUTH_PER_MINUTE} failed attempts from client A answer 401`);
  t.equal(await get(service, BAD_KEY, a), 429, "client A's bad key is refused with 429 now");
  t.equal(await get(service, o.key, a), 200, 'a valid key from client A still passes');
  t.equal(await get(service, BAD_KEY, b), 401, 'client B behind the same proxy is not counted with A');
  t.equal(await get(service, o.key, b), 200, 'client B passes');
  t.equal(
    await get(service, o.key, { 'x-forwarded-for': '192.0.2.1, 198.51.100.4' }),
    200,
    'the client is the address the trusted proxy appended last',
  );
});

t.test(
  'behind a trusted proxy the IP allowlist sees the forwarded address, and only X-Forwarded-For names it',
  async (t) => {
    const service = behindProxy.service;
    const key = await allowlistedKey(service, ['198.51.100.0/24']);
    t.equal(await get(service, key, { 'x-forwarded-for': '198.51.100.9' }), 200, 'an allowed client');
    t.equal(await get(service, key, { 'x-forwarded-for': '203.0.113.50' }), 403, 'another client');
    t.equal(await get(service, key), 403, 'the proxy itself (no X-Forwarded-For) is not allowed');
    t.equal(
      await get(service, key, { forwarded: 'for=198.51.100.9', 'x-real-ip': '198.51.100.9' }),
      403,
      'Forwarded and X-Real-IP are not read',
    );
  },
);

t.test('no TRUST_PROXY: a loopback client cannot fake its address', async (t) => {
  const service = direct.service;
  const fenced = await allowlistedKey(service, ['198.51.100.9']);
  t.equal(
    await get(service, fenced, { 'x-forwarded-for': '198.51.100.9' }),
    403,
    'X-Forwarded-For does not get past the allowlist',
  );
  const local = await allowlistedKey(service, ['127.0.0.1']);
  t.equal(await get(service, local, { 'x-forwarded-for': '203.0.113.7' }), 200, 'the socket address decides');
  const o = await orgWithKey(service, { name: 'Direct' });
  await exhaust(service, { 'x-forwarded-for': '203.0.113.7' });
  t.equal(
    await get(service, BAD_KEY, { 'x-forwarded-for': '198.51.100.4' }),
    429,
    'failures count against the socket address, whatever the header says',
  );
  t.equal(await get(service, o.key, { 'x-forwarded-for': '198.51.100.4' }), 200, 'a valid key passes all the same');
});

t.test('TRUST_PROXY names other proxies: the loopback peer is not one, its X-Forwarded-For is ignored', async (t) => {
  const service = otherProxy.service;
  const fenced = await allowlistedKey(service, ['198.51.100.9']);
  t.equal(await get(service, fenced, { 'x-forwarded-for': '198.51.100.9' }), 403);
  const local = await allowlistedKey(service, ['127.0.0.1']);
  t.equal(await get(service, local, { 'x-forwarded-for': '198.51.100.9' }), 200);
});
