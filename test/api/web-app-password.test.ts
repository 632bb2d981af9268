/**
 * Passwords (roles): a signed-in member changes their own password (POST /app/api/password): the
 * current one must be right, the new one follows the password rules, the old one stops, the new
 * one signs in, and every other session of the member ends while this one stays. The owner resets
 * a member's password by a new invitation (POST /app/api/members/:id/password-reset): accepting it
 * with a new password keeps the member (same id, name and saved data), ends all their sessions
 * and signs them in.
 */
import t from 'tap';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { acceptedMember, browserCall, cookieOf, type Browser } from '../helpers/web-session.js';

const run = inProcessService(t, 'web-password', { trustProxy: 'loopback' });
const OLD = 'correct horse battery';
const NEW = 'a new and longer passphrase';

async function signIn(
  email: string,
  password: string,
): Promise<{ status: number; browser: Browser | null; body: any }> {
  const res = await browserCall(run.service.url, null, 'POST', '/app/api/session', { email, password });
  return {
    status: res.status,
    browser: res.status === 200 ? { cookie: cookieOf(res), csrf: res.body.csrf_token } : null,
    body: res.body,
  };
}

t.test('changing one’s password: old one fails, new one works, other sessions end', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Pw' });
  const { browser: here, session } = await acceptedMember(run.service, o.orgId, 'pat@pw.example', {
    name: 'Pat',
    password: OLD,
  });
  const elsewhere = (await signIn('pat@pw.example', OLD)).browser!;
  const { browser: colleague } = await acceptedMember(run.service, o.orgId, 'kai@pw.example', { name: 'Kai' });

  const wrong = await browserCall(run.service.url, here, 'POST', '/app/api/password', {
    current_password: 'not my password',
    new_password: NEW,
  });
  t.same(
    [wrong.status, wrong.body.error.code, wrong.body.error.details.map((d: { path: string }) => d.path)],
    [422, 'validation_failed', ['current_password']],
  );
  const short = await browserCall(run.service.url, here, 'POST', '/app/api/password', {
    current_password: OLD,
    new_password: 'short',
  });
  t.same(
    [short.status, short.body.error.details.map((d: { path: string }) => d.path)],
    [422, ['new_password']],
    'the password rules',
  );
  const same = await browserCall(run.service.url, here, 'POST', '/app/api/password', {
    current_password: OLD,
    new_password: OLD,
  });
  t.same(
    [same.status, same.body.error.details.map((d: { path: string }) => d.path)],
    [422, ['new_password']],
    'not the current one again',
  );
  const noCsrf = await browserCall(
    run.service.url,
    here,
    'POST',
    '/app/api/password',
    { current_password: OLD, new_password: NEW },
    { csrf: '' },
  );
  t.equal(noCsrf.status, 403, 'a change needs the CSRF token');
  t.equal(
    (
      await browserCall(run.service.url, null, 'POST', '/app/api/password', {
        current_password: OLD,
        new_password: NEW,
      })
    ).status,
    401,
  );

  const changed = await browserCall(run.service.url, here, 'POST', '/app/api/password', {
    current_password: OLD,
    new_password: NEW,
  });
  t.equal(changed.status, 204);
  t.equal((await browserCall(run.service.url, here, 'GET', '/app/api/session')).status, 200, 'this session stays');
  t.equal(
    (await browserCall(run.service.url, elsewhere, 'GET', '/app/api/session')).status,
    401,
    'the other session ended',
  );
  t.equal((await browserCall(run.service.url, elsewhere, 'GET', '/v1/jobs')).status, 401, 'on /v1 too');
  t.equal(
    (await browserCall(run.service.url, colleague, 'GET', '/app/api/session')).status,
    200,
    "another member's session is untouched",
  );
  t.equal((await signIn('pat@pw.example', OLD)).status, 401, 'the old password fails');
  const again = await signIn('pat@pw.example', NEW);
  t.same([again.status, again.body.user.id], [200, session.user.id], 'the new one signs in');
});

t.test('the owner resets a member’s password by invitation: same member, sessions end', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Reset' });
  const { browser: owner, session: ownerSession } = await acceptedMember(run.service, o.orgId, 'rae@reset.example', {
    role: 'owner',
    name: 'Rae',
  });
  const { browser: max, session } = await acceptedMember(run.service, o.orgId, 'max@reset.example', {
    name: 'Max',
    password: OLD,
  });
  const maxId = session.user.id as string;
  const vehicle = await browserCall(run.service.url, max, 'POST', '/v1/vehicles', {
    name: 'Box truck',
    type: 'truck',
    length: 720,
    width: 245,
    height: 260,
    max_weight: 7000,
  });
  t.equal(vehicle.status, 201);

  t.equal(
    (await browserCall(run.service.url, owner, 'POST', `/app/api/members/${ownerSession.user.id}/password-reset`))
      .status,
    409,
    'not for the owner',
  );
  t.equal(
    (await browserCall(run.service.url, owner, 'POST', '/app/api/members/usr_nobody/password-reset')).status,
    404,
  );
  const reset = await browserCall(run.service.url, owner, 'POST', `/app/api/members/${maxId}/password-reset`);
  t.equal(reset.status, 201, JSON.stringify(reset.body));
  t.match(reset.body, {
    id: /^inv_/,
    email: 'max@reset.example',
    role: 'member',
    purpose: 'password_reset',
    url: `/app/invitations/${reset.body.token}`,
  });
  const pending = await browserCall(run.service.url, owner, 'GET', '/app/api/invitations');
  t.same(
    pending.body.data.map((i: { id: string; purpose: string }) => [i.id, i.purpose]),
    [[reset.body.id, 'password_reset']],
    'listed as a reset',
  );
  t.equal(
    (await browserCall(run.service.url, max, 'GET', '/app/api/session')).status,
    200,
    'his session works until the reset is used',
  );
  t.equal((await signIn('max@reset.example', OLD)).status, 200, 'and so does his password');

  const shown = await browserCall(run.service.url, null, 'GET', `/app/api/invitations/${reset.body.token}`);
  t.match(shown.body, { email: 'max@reset.example', role: 'member', purpose: 'password_reset', name: 'Max' });
  const short = await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${reset.body.token}/accept`, {
    password: 'short',
  });
  t.equal(short.status, 422);
  const accepted = await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${reset.body.token}/accept`, {
    password: NEW,
  });
  t.equal(accepted.status, 200, JSON.stringify(accepted.body));
  t.same(
    [accepted.body.user.id, accepted.body.user.name, accepted.body.user.email],
    [maxId, 'Max', 'max@reset.example'],
    'the same member',
  );
  const fresh: Browser = { cookie: cookieOf(accepted), csrf: accepted.body.csrf_token };
  t.equal(
    (await browserCall(run.service.url, max, 'GET', '/app/api/session')).status,
    401,
    'his earlier session ended',
  );
  t.equal((await signIn('max@reset.example', OLD)).status, 401, 'the old password fails');
  t.equal((await signIn('max@reset.example', NEW)).status, 200, 'the new one works');
  const mine = await browserCall(run.service.url, fresh, 'GET', '/v1/vehicles?created_by=me');
  t.same(
    mine.body.data.map((v: { id: string }) => v.id),
    [vehicle.body.id],
    'his saved data is still his',
  );
  const members = await browserCall(run.service.url, owner, 'GET', '/app/api/members');
  t.same(
    members.body.data.map((m: { id: string }) => m.id).sort(),
    [ownerSession.user.id, maxId].sort(),
    'no new member',
  );
  t.equal(
    (
      await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${reset.body.token}/accept`, {
        password: 'yet another passphrase',
      })
    ).status,
    404,
    'used once',
  );

  const later = await browserCall(run.service.url, owner, 'POST', `/app/api/members/${maxId}/password-reset`);
  t.equal((await browserCall(run.service.url, owner, 'DELETE', `/app/api/members/${maxId}`)).status, 204);
  const afterRemoval = await browserCall(
    run.service.url,
    null,
    'POST',
    `/app/api/invitations/${later.body.token}/accept`,
    { password: 'yet another passphrase' },
  );
  t.equal(afterRemoval.status, 404, 'a reset for a removed member is withdrawn with the removal');
  t.same((await browserCall(run.service.url, owner, 'GET', '/app/api/invitations')).body.data, []);
});
