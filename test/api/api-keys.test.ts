/**
 * API key lifecycle over the real service (spec Authentication 2): rotation gives a new secret
 * with the same settings and stops the old one at once; revoked keys stop and free their slot
 * among the 20 active keys; expiry and allowlists survive a rotation.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../api/server.js';
import { createApiKey, provisionOrganization, revokeApiKey, rotateApiKey } from '../../api/provision.js';
import { DomainError } from '../../domain/decider/decider.js';
import { call } from '../helpers/service-process.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-keys-'));
let service: RunningService;
t.before(async () => {
  service = await startService({ port: 0, host: '127.0.0.1', dataDir: dir, solverThreads: 1, log: pino({ level: 'silent' }) });
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const now = () => new Date().toISOString();
async function org() {
  return provisionOrganization(service.services.store, {
    name: 'Keys', ownerName: 'O', subscriptionCredits: 10, expiresAt: '2099-01-01T00:00:00.000Z', now: now(),
    limits: { rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 } },
  });
}

t.test('rotation: a new secret with the same scopes and allowlist; the old one stops at once', async (t) => {
  const o = await org();
  const k = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'ci', now: now(), scopes: ['account:read'], allowedIps: ['127.0.0.1', '::1'] });
  await service.services.projections.waitFor(k.position);
  const rotated = await rotateApiKey(service.services.store, o.orgId, k.keyId, now());
  await service.services.projections.waitFor(rotated.position);
  const old = await call(service.url, k.secret, 'GET', '/v1/balance');
  t.same([old.status, old.body.error.code], [401, 'key_revoked']);
  t.match(old.body.error.message, /rotated/);
  t.equal((await call(service.url, rotated.secret, 'GET', '/v1/balance')).status, 200, 'the new secret works');
  const scoped = await call(service.url, rotated.secret, 'GET', '/v1/jobs');
  t.same([scoped.status, scoped.body.error.code], [403, 'scope_missing'], 'with the same scopes');
  const viaProxy = await fetch(`${service.url}/v1/balance`, { headers: { authorization: `Bearer ${rotated.secret}`, 'x-forwarded-for': '198.51.100.4' } });
  t.equal(viaProxy.status, 403, 'and the same allowlist');
});

t.test('revoked keys stop, cannot be rotated, and free their slot among 20 active keys', async (t) => {
  const o = await org();
  const keys = [];
  for (let i = 0; i < 20; i++) keys.push(await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: `k${i}`, now: now() }));
  await t.rejects(createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'k20', now: now() }), new DomainError(409, 'conflict', ''));
  await service.services.projections.waitFor(await revokeApiKey(service.services.store, o.orgId, keys[0]!.keyId, now()));
  t.equal((await call(service.url, keys[0]!.secret, 'GET', '/v1/balance')).body.error.code, 'key_revoked');
  t.equal((await call(service.url, keys[1]!.secret, 'GET', '/v1/balance')).status, 200, 'the other keys work');
  await t.rejects(rotateApiKey(service.services.store, o.orgId, keys[0]!.keyId, now()), new DomainError(409, 'conflict', ''), 'a revoked key is not rotated');
  await t.rejects(revokeApiKey(service.services.store, o.orgId, 'key_nosuchkey', now()), new DomainError(404, 'not_found', ''));
  const again = await createApiKey(service.services.store, { orgId: o.orgId, memberId: o.ownerId, name: 'k20', now: now() });
  t.match(again.keyId, /^key_/, 'the revoked key freed a slot');
});
