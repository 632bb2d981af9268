/**
 * API key lifecycle over the real service (spec Authentication 2): rotation gives a new secret
 * with the same settings and stops the old one at once, and is refused (conflict) when it names a
 * secret that was rotated already; revoked keys stop and free their slot among the 20 active
 * keys; expiry and allowlists survive a rotation.
 */
import t from 'tap';
import { hashApiKey } from '../../application/api-key.js';
import { createApiKey, currentKeySecret, revokeApiKey, rotateApiKey } from '../../application/provision.js';
import { DomainError } from '../../domain/decider/decider.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';

// The test is the proxy: it forwards a client address in X-Forwarded-For.
const run = inProcessService(t, 'keys', { trustProxy: 'loopback' });
const now = () => new Date().toISOString();

t.test('rotation: a new secret with the same scopes and allowlist; the old one stops at once', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Keys' });
  const k = await createApiKey(run.service.services.store, {
    orgId: o.orgId,
    memberId: o.ownerId,
    name: 'ci',
    now: now(),
    scopes: ['account:read'],
    allowedIps: ['127.0.0.1', '::1'],
  });
  await run.service.services.projections.waitFor(k.position);
  const rotated = await rotateApiKey(run.service.services.store, {
    orgId: o.orgId,
    keyId: k.keyId,
    expectedHash: hashApiKey(k.secret),
    now: now(),
  });
  await run.service.services.projections.waitFor(rotated.position);
  const old = await call(run.service.url, k.secret, 'GET', '/v1/balance');
  t.same([old.status, old.body.error.code], [401, 'key_revoked']);
  t.match(old.body.error.message, /rotated/);
  t.equal((await call(run.service.url, rotated.secret, 'GET', '/v1/balance')).status, 200, 'the new secret works');
  const scoped = await call(run.service.url, rotated.secret, 'GET', '/v1/jobs');
  t.same([scoped.status, scoped.body.error.code], [403, 'scope_missing'], 'with the same scopes');
  const viaProxy = await fetch(`${run.service.url}/v1/balance`, {
    headers: { authorization: `Bearer ${rotated.secret}`, 'x-forwarded-for': '198.51.100.4' },
  });
  t.equal(viaProxy.status, 403, 'and the same allowlist');

  const stale = rotateApiKey(run.service.services.store, {
    orgId: o.orgId,
    keyId: k.keyId,
    expectedHash: hashApiKey(k.secret),
    now: now(),
  });
  await t.rejects(
    stale,
    { code: 'conflict', message: /rotated since it was read: reload/ },
    'a rotation naming the replaced secret is refused',
  );
  t.equal(
    (await call(run.service.url, rotated.secret, 'GET', '/v1/balance')).status,
    200,
    'and the current secret keeps working',
  );
  t.same(
    await currentKeySecret(run.service.services.store, o.orgId, k.keyId),
    { hash: rotated.hash, prefix: rotated.prefix },
    'the log has the new secret',
  );
  await t.rejects(currentKeySecret(run.service.services.store, o.orgId, 'key_nosuchkey'), { code: 'not_found' });
  await t.rejects(currentKeySecret(run.service.services.store, 'org_nosuchorg', k.keyId), {
    code: 'not_found',
    message: 'no such organization',
  });
});

t.test('revoked keys stop, cannot be rotated, and free their slot among 20 active keys', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Keys' });
  const keys = [];
  // orgWithKey made the first of the 20.
  for (let i = 1; i < 20; i++)
    keys.push(
      await createApiKey(run.service.services.store, {
        orgId: o.orgId,
        memberId: o.ownerId,
        name: `k${i}`,
        now: now(),
      }),
    );
  await t.rejects(
    createApiKey(run.service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'k20', now: now() }),
    new DomainError('conflict', ''),
  );
  await run.service.services.projections.waitFor(
    await revokeApiKey(run.service.services.store, o.orgId, keys[0]!.keyId, now()),
  );
  t.equal((await call(run.service.url, keys[0]!.secret, 'GET', '/v1/balance')).body.error.code, 'key_revoked');
  t.equal((await call(run.service.url, keys[1]!.secret, 'GET', '/v1/balance')).status, 200, 'the other keys work');
  await t.rejects(
    rotateApiKey(run.service.services.store, {
      orgId: o.orgId,
      keyId: keys[0]!.keyId,
      expectedHash: hashApiKey(keys[0]!.secret),
      now: now(),
    }),
    { code: 'conflict', message: /revoked/ },
    'a revoked key is not rotated',
  );
  await t.rejects(
    revokeApiKey(run.service.services.store, o.orgId, 'key_nosuchkey', now()),
    new DomainError('not_found', ''),
  );
  const again = await createApiKey(run.service.services.store, {
    orgId: o.orgId,
    memberId: o.ownerId,
    name: 'k20',
    now: now(),
  });
  t.match(again.keyId, /^key_/, 'the revoked key freed a slot');
});
