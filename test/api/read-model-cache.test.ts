/**
 * The read-model cache in the running embedded service (projections/read-model-cache.ts, wired
 * in service/server.ts): what authentication reads on every /v1 request is held in memory, and
 * a switch the operator or an owner turns takes effect on the next request once the read models
 * applied it: a revoked key answers 401 key_revoked, maintenance 503 api_disabled, a purchase
 * changes X-Credits-Remaining. GET /v1/balance reads the balance once per request.
 */
import t from 'tap';
import { setMaintenance } from '../../application/operator-commands.js';
import { purchaseCredits, revokeApiKey } from '../../application/provision.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';

const running = inProcessService(t, 'read-model-cache');
const now = () => new Date().toISOString();

t.test('the service holds the documents authentication read', async (t) => {
  const { services } = running.service;
  const cache = services.readCache;
  if (!cache) throw new Error('the api role has no read-model cache');
  const a = await orgWithKey(running.service);
  t.equal((await call(running.service.url, a.key, 'GET', '/v1/limits')).status, 200);
  const sizes = cache.sizes();
  t.ok(sizes.apiKeys >= 1 && sizes.organizations >= 1 && sizes.balances >= 1 && sizes.serviceSettings === 1, 'held');
});

t.test('GET /v1/balance reads the balance once: the document X-Credits-Remaining was set from', async (t) => {
  const cache = running.service.services.readCache!;
  const a = await orgWithKey(running.service);
  const reads: string[] = [];
  const balance = cache.balance.bind(cache);
  cache.balance = (orgId: string) => {
    reads.push(orgId);
    return balance(orgId);
  };
  t.teardown(() => {
    delete (cache as { balance?: unknown }).balance; // back to the class's method
  });
  const got = await call(running.service.url, a.key, 'GET', '/v1/balance');
  t.equal(got.status, 200);
  t.same(reads, [a.orgId], 'one balance read for the request');
  t.equal(got.body.available_credits, 100);
  t.equal(got.headers.get('x-credits-remaining'), '100', 'the header and the body agree');
});

t.test('a revoked key answers 401 key_revoked on the next request', async (t) => {
  const a = await orgWithKey(running.service);
  for (let i = 0; i < 2; i++) t.equal((await call(running.service.url, a.key, 'GET', '/v1/balance')).status, 200);
  const { store, projections } = running.service.services;
  await projections.waitFor(await revokeApiKey(store, a.orgId, a.keyId, now()));
  const got = await call(running.service.url, a.key, 'GET', '/v1/balance');
  t.equal(got.status, 401);
  t.equal(got.body.error.code, 'key_revoked');
});

t.test('maintenance turned on by the operator command answers 503 api_disabled; off answers again', async (t) => {
  const a = await orgWithKey(running.service);
  t.equal((await call(running.service.url, a.key, 'GET', '/v1/balance')).status, 200);
  const { store, projections } = running.service.services;
  const on = await setMaintenance(store, { message: 'cache test', retryAfterSeconds: 30 }, now());
  await projections.waitFor(on.position);
  const got = await call(running.service.url, a.key, 'GET', '/v1/balance');
  t.equal(got.status, 503);
  t.equal(got.body.error.code, 'api_disabled');
  t.equal(got.headers.get('retry-after'), '30');
  const off = await setMaintenance(store, null, now());
  await projections.waitFor(off.position);
  t.equal((await call(running.service.url, a.key, 'GET', '/v1/balance')).status, 200);
});

t.test('a purchase changes X-Credits-Remaining on the next request', async (t) => {
  const a = await orgWithKey(running.service);
  const before = await call(running.service.url, a.key, 'GET', '/v1/limits');
  t.equal(before.headers.get('x-credits-remaining'), '100');
  const { store, projections } = running.service.services;
  await projections.waitFor(await purchaseCredits(store, a.orgId, 25, now()));
  const after = await call(running.service.url, a.key, 'GET', '/v1/limits');
  t.equal(after.headers.get('x-credits-remaining'), '125');
});
