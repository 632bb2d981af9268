/**
 * Concurrent rotations of one API key from the owner's console (README "Web app", the web app's
 * own API; spec Authentication 2: rotation issues a new secret, the old one stops at once). Each
 * rotation names the secret it replaces (its prefix, as listed), so of rotations fired together
 * exactly one succeeds and the others answer 409 conflict: no caller is handed a secret that is
 * already dead.
 */
import t from 'tap';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { acceptedMember, browserCall } from '../helpers/web-session.js';

const run = inProcessService(t, 'web-key-rotation', { trustProxy: 'loopback' });
const ROTATIONS = 10;

t.test('10 concurrent rotations of one key: one 200 whose secret works, nine 409 conflict', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Rotations' });
  const { browser: owner } = await acceptedMember(run.service, o.orgId, 'rosa@example.com', {
    role: 'owner',
    name: 'Rosa',
  });
  const created = await browserCall(run.service.url, owner, 'POST', '/app/api/keys', {
    name: 'ci',
    scopes: ['account:read'],
  });
  t.equal(created.status, 201, JSON.stringify(created.body));

  const answers = await Promise.all(
    Array.from({ length: ROTATIONS }, () =>
      browserCall(run.service.url, owner, 'POST', `/app/api/keys/${created.body.id}/rotate`, {
        prefix: created.body.prefix,
      }),
    ),
  );
  const statuses = answers.map((a) => a.status).sort((a, b) => a - b);
  t.same(statuses, [200, ...Array<number>(ROTATIONS - 1).fill(409)], 'exactly one rotation succeeds');
  const refused = answers.filter((a) => a.status === 409);
  t.same(
    refused.map((a) => a.body.error.code),
    Array<string>(ROTATIONS - 1).fill('conflict'),
    'the others are refused with conflict',
  );
  t.ok(
    refused.every((a) => /reload/.test(a.body.error.message)),
    'and told to reload and retry',
  );

  const winner = answers.find((a) => a.status === 200);
  if (!winner) return;
  t.not(winner.body.secret, created.body.secret, 'a new secret');
  t.same(
    [winner.body.id, winner.body.prefix, winner.body.revoked],
    [created.body.id, winner.body.secret.slice(0, 12), false],
    'the answer shows its own secret',
  );
  t.equal(
    (await call(run.service.url, winner.body.secret, 'GET', '/v1/balance')).status,
    200,
    'the returned secret authenticates',
  );
  const old = await call(run.service.url, created.body.secret, 'GET', '/v1/balance');
  t.same([old.status, old.body.error.code], [401, 'key_revoked'], 'the old secret stops');
  const listed = await browserCall(run.service.url, owner, 'GET', '/app/api/keys');
  const key = listed.body.data.find((k: { id: string }) => k.id === created.body.id);
  t.same([key.prefix, key.revoked], [winner.body.prefix, false], 'the console lists the secret that was handed out');

  const stale = await browserCall(run.service.url, owner, 'POST', `/app/api/keys/${created.body.id}/rotate`, {
    prefix: created.body.prefix,
  });
  t.same(
    [stale.status, stale.body.error.code],
    [409, 'conflict'],
    'a rotation of the replaced secret, later, is refused too',
  );
  const again = await browserCall(run.service.url, owner, 'POST', `/app/api/keys/${created.body.id}/rotate`, {
    prefix: key.prefix,
  });
  t.equal(again.status, 200, 'after a reload the key rotates again');
  t.equal(
    (await call(run.service.url, winner.body.secret, 'GET', '/v1/balance')).body.error.code,
    'key_revoked',
    'and the secret it replaced stops',
  );
});
