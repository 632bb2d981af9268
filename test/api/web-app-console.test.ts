/**
 * The owner's console API over the real service: members (invite, list, remove:
 * their sessions end at once), API keys (create with scopes, expiry and allowlist, rotate,
 * revoke) through the organization's key commands, owner-only routes, and organizations that
 * see nothing of each other through a session.
 */
import t from 'tap';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { acceptedMember, browserCall, cookieOf } from '../helpers/web-session.js';

const run = inProcessService(t, 'web-console', { trustProxy: 'loopback' });
const PASSWORD = 'correct horse battery';

t.test('the owner invites a member, lists members and removes one: the sessions end at once', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Crew' });
  const { browser: owner } = await acceptedMember(run.service, o.orgId, 'olga@example.com', {
    role: 'owner',
    name: 'Olga',
  });
  const invited = await browserCall(run.service.url, owner, 'POST', '/app/api/invitations', {
    email: 'Max@Example.com',
  });
  t.equal(invited.status, 201, JSON.stringify(invited.body));
  t.same(
    [invited.body.email, invited.body.role, invited.body.url],
    ['max@example.com', 'member', `/app/invitations/${invited.body.token}`],
  );
  t.match(invited.body.id, /^inv_/);
  const bad = await browserCall(run.service.url, owner, 'POST', '/app/api/invitations', {
    email: 'not an email',
    role: 'owner',
  });
  t.same(
    [bad.status, bad.body.error.code, bad.body.error.details.map((d: { path: string }) => d.path).sort()],
    [422, 'validation_failed', ['email', 'role']],
  );
  const accepted = await browserCall(
    run.service.url,
    null,
    'POST',
    `/app/api/invitations/${invited.body.token}/accept`,
    { name: 'Max', password: PASSWORD },
  );
  t.equal(accepted.status, 200);
  const max = { cookie: cookieOf(accepted), csrf: accepted.body.csrf_token as string };
  const maxId = accepted.body.user.id as string;
  t.match(maxId, /^usr_/);

  const members = await browserCall(run.service.url, owner, 'GET', '/app/api/members');
  t.same(
    members.body.data.map((m: Record<string, unknown>) => [m['id'], m['name'], m['email'], m['role']]),
    [
      [o.ownerId, 'Olga', 'olga@example.com', 'owner'],
      [maxId, 'Max', 'max@example.com', 'member'],
    ],
  );
  t.ok(
    members.body.data.every((m: { joined_at: string }) => !Number.isNaN(Date.parse(m.joined_at))),
    'joined_at',
  );

  for (const [method, path] of [
    ['GET', '/app/api/members'],
    ['GET', '/app/api/keys'],
    ['POST', '/app/api/keys'],
    ['POST', '/app/api/invitations'],
    ['DELETE', `/app/api/members/${o.ownerId}`],
  ] as const) {
    const refused = await browserCall(
      run.service.url,
      max,
      method,
      path,
      method === 'POST' ? { name: 'x', email: 'x@example.com' } : undefined,
    );
    t.same([refused.status, refused.body.error.code], [403, 'forbidden'], `a member: ${method} ${path}`);
  }
  const ownerGone = await browserCall(run.service.url, owner, 'DELETE', `/app/api/members/${o.ownerId}`);
  t.same([ownerGone.status, ownerGone.body.error.code], [409, 'conflict'], 'the owner cannot be removed');
  t.equal((await browserCall(run.service.url, owner, 'DELETE', '/app/api/members/usr_nobody')).status, 404);

  t.equal((await browserCall(run.service.url, max, 'GET', '/v1/jobs')).status, 200, 'Max uses /v1 with his session');
  t.equal((await browserCall(run.service.url, owner, 'DELETE', `/app/api/members/${maxId}`)).status, 204);
  t.equal((await browserCall(run.service.url, max, 'GET', '/app/api/session')).status, 401, 'his session ended');
  t.equal((await browserCall(run.service.url, max, 'GET', '/v1/jobs')).status, 401, 'and /v1 refuses it');
  const signIn = await browserCall(run.service.url, null, 'POST', '/app/api/session', {
    email: 'max@example.com',
    password: PASSWORD,
  });
  t.equal(signIn.status, 401, 'he cannot sign in again');
  const list = await browserCall(run.service.url, owner, 'GET', '/app/api/members');
  t.same(
    list.body.data.map((m: { id: string }) => m.id),
    [o.ownerId],
  );
});

t.test(
  'API keys from the console: scopes, allowlist, rotation (old secret 401 key_revoked) and revocation',
  async (t) => {
    const o = await orgWithKey(run.service, { name: 'Keys' });
    const { browser: owner } = await acceptedMember(run.service, o.orgId, 'kim@example.com', {
      role: 'owner',
      name: 'Kim',
    });
    const bad = await browserCall(run.service.url, owner, 'POST', '/app/api/keys', {
      name: '',
      scopes: ['nope'],
      expires_at: '2001-01-01T00:00:00Z',
      allowed_ips: ['10.0.0.0/33'],
    });
    t.equal(bad.status, 422);
    t.same(
      bad.body.error.details.map((d: { path: string }) => d.path).sort(),
      ['name', 'scopes[0]'],
      'schema problems first',
    );
    const past = await browserCall(run.service.url, owner, 'POST', '/app/api/keys', {
      name: 'old',
      expires_at: '2001-01-01T00:00:00Z',
      allowed_ips: ['10.0.0.0/33'],
    });
    t.same(
      past.body.error.details.map((d: { path: string }) => d.path),
      ['expires_at', 'allowed_ips[0]'],
    );

    const created = await browserCall(run.service.url, owner, 'POST', '/app/api/keys', {
      name: 'reports',
      scopes: ['account:read'],
      allowed_ips: ['127.0.0.1', '::1'],
    });
    t.equal(created.status, 201, JSON.stringify(created.body));
    t.match(created.body, {
      name: 'reports',
      scopes: ['account:read'],
      allowed_ips: ['127.0.0.1', '::1'],
      revoked: false,
      expires_at: null,
      created_by: { id: o.ownerId, name: 'Kim' },
    });
    t.equal(created.body.prefix, created.body.secret.slice(0, 12));
    t.equal(
      (await call(run.service.url, created.body.secret, 'GET', '/v1/balance')).status,
      200,
      'the key works on /v1',
    );
    t.equal(
      (await call(run.service.url, created.body.secret, 'GET', '/v1/jobs')).body.error.code,
      'scope_missing',
      'with its scopes only',
    );
    const everything = await browserCall(run.service.url, owner, 'POST', '/app/api/keys', { name: 'all' });
    t.equal(everything.body.scopes.length, 7, 'every scope by default');

    const listed = await browserCall(run.service.url, owner, 'GET', '/app/api/keys');
    t.same(listed.body.data.map((k: { name: string }) => k.name).sort(), ['all', 'reports', 'test']);
    t.notOk(JSON.stringify(listed.body).includes(created.body.secret), 'no secret in the list');

    const noBody = await browserCall(run.service.url, owner, 'POST', `/app/api/keys/${created.body.id}/rotate`, {});
    t.same(
      [noBody.status, noBody.body.error.details.map((d: { path: string }) => d.path)],
      [422, ['prefix']],
      'a rotation names the secret it replaces',
    );
    const rotated = await browserCall(run.service.url, owner, 'POST', `/app/api/keys/${created.body.id}/rotate`, {
      prefix: created.body.prefix,
    });
    t.equal(rotated.status, 200);
    t.not(rotated.body.secret, created.body.secret);
    t.same([rotated.body.id, rotated.body.scopes], [created.body.id, ['account:read']], 'the same key and settings');
    const old = await call(run.service.url, created.body.secret, 'GET', '/v1/balance');
    t.same([old.status, old.body.error.code], [401, 'key_revoked'], 'the old secret stops');
    t.equal((await call(run.service.url, rotated.body.secret, 'GET', '/v1/balance')).status, 200, 'the new one works');
    t.equal(
      (await browserCall(run.service.url, owner, 'GET', '/app/api/keys')).body.data.length,
      3,
      'one entry per key after rotation',
    );

    t.equal((await browserCall(run.service.url, owner, 'DELETE', `/app/api/keys/${created.body.id}`)).status, 204);
    t.equal((await call(run.service.url, rotated.body.secret, 'GET', '/v1/balance')).body.error.code, 'key_revoked');
    const again = await browserCall(run.service.url, owner, 'DELETE', `/app/api/keys/${created.body.id}`);
    t.same([again.status, again.body.error.code], [409, 'conflict'], 'revoked already');
    const after = await browserCall(run.service.url, owner, 'GET', '/app/api/keys');
    t.equal(after.body.data.find((k: { id: string }) => k.id === created.body.id).revoked, true);
    t.equal((await browserCall(run.service.url, owner, 'POST', '/app/api/keys/key_nothing/rotate')).status, 404);
  },
);

t.test('a member of organization A sees nothing of organization B through the session', async (t) => {
  const a = await orgWithKey(run.service, { name: 'A' });
  const b = await orgWithKey(run.service, { name: 'B' });
  const { browser: ownerA } = await acceptedMember(run.service, a.orgId, 'ann@a.example', { role: 'owner' });
  const { browser: memberB, session } = await acceptedMember(run.service, b.orgId, 'ben@b.example');
  t.equal(session.organization.id, b.orgId);
  const vehicle = await call(run.service.url, a.key, 'POST', '/v1/vehicles', {
    name: 'A truck',
    type: 'truck',
    length: 720,
    width: 245,
    height: 260,
    max_weight: 7000,
  });
  t.equal(vehicle.status, 201);
  t.equal(
    (await browserCall(run.service.url, memberB, 'GET', `/v1/vehicles/${vehicle.body.id}`)).status,
    404,
    "B's member cannot read A's vehicle",
  );
  t.equal(
    (await browserCall(run.service.url, memberB, 'DELETE', `/v1/vehicles/${vehicle.body.id}`)).status,
    404,
    'nor delete it',
  );
  const listB = await browserCall(run.service.url, memberB, 'GET', '/v1/vehicles?created_by=me');
  t.same(listB.body.data, [], 'nor list it');
  t.equal(
    (await browserCall(run.service.url, ownerA, 'DELETE', `/app/api/members/${session.user.id}`)).status,
    404,
    "A's owner cannot remove B's member",
  );
  t.equal(
    (await browserCall(run.service.url, ownerA, 'DELETE', `/app/api/keys/${b.keyId}`)).status,
    404,
    "nor revoke B's key",
  );
  t.equal((await call(run.service.url, b.key, 'GET', '/v1/balance')).status, 200, "B's key still works");
});
