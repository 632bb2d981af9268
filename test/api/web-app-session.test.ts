/**
 * The web app's sign-in over the real service: invitations (owner and member, one
 * use, 7 days), sign-in with the password, the sign-in rate limit, the session cookie on /v1
 * (created_by the member, jobs from the playground), CSRF, sign-out, and sessions kept across a
 * restart (they are events).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { acceptedMember, browserCall, cookieOf, invite, type Browser } from '../helpers/web-session.js';

const run = inProcessService(t, 'web-session', { trustProxy: 'loopback' });
const PASSWORD = 'correct horse battery';
const example = JSON.parse(
  readFileSync(new URL('../../examples/eur-pallets-13-6m-trailer.json', import.meta.url), 'utf8'),
) as unknown;

t.test('an owner invitation attaches an email and password to the owner member; the token works once', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Acme' });
  const token = await invite(run.service, o.orgId, 'Ann@Example.com', 'owner');
  const shown = await browserCall(run.service.url, null, 'GET', `/app/api/invitations/${token}`);
  t.equal(shown.status, 200);
  t.same(
    [shown.body.organization, shown.body.email, shown.body.role],
    [{ id: o.orgId, name: 'Acme' }, 'ann@example.com', 'owner'],
  );
  const foreign = await browserCall(
    run.service.url,
    null,
    'POST',
    `/app/api/invitations/${token}/accept`,
    { name: 'Ann', password: PASSWORD },
    { origin: 'https://evil.example' },
  );
  t.same([foreign.status, foreign.body.error.code], [403, 'forbidden'], 'a foreign Origin is refused');
  const short = await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${token}/accept`, {
    name: 'Ann',
    password: 'short',
  });
  t.same(
    [short.status, short.body.error.code, short.body.error.details[0].path],
    [422, 'validation_failed', 'password'],
  );
  const accepted = await browserCall(
    run.service.url,
    null,
    'POST',
    `/app/api/invitations/${token}/accept`,
    { name: 'Ann Owner', password: PASSWORD },
    { origin: run.service.url },
  );
  t.equal(accepted.status, 200);
  t.same(
    accepted.body.user,
    { id: o.ownerId, name: 'Ann Owner', email: 'ann@example.com', role: 'owner' },
    'the existing owner member',
  );
  t.match(
    accepted.headers.get('set-cookie'),
    /^session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/,
  );
  const again = await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${token}/accept`, {
    name: 'Eve',
    password: PASSWORD,
  });
  t.same([again.status, again.body.error.code], [404, 'not_found'], 'used once');
  t.equal((await browserCall(run.service.url, null, 'GET', `/app/api/invitations/${token}`)).status, 404);
});

t.test('an expired invitation answers 404; an email in use cannot be invited again', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Old' });
  const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
  const token = await invite(run.service, o.orgId, 'late@example.com', 'member', eightDaysAgo);
  t.equal((await browserCall(run.service.url, null, 'GET', `/app/api/invitations/${token}`)).status, 404);
  const accept = await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${token}/accept`, {
    name: 'Late',
    password: PASSWORD,
  });
  t.same([accept.status, accept.body.error.code], [404, 'not_found']);
  await acceptedMember(run.service, o.orgId, 'taken@example.com');
  await t.rejects(invite(run.service, o.orgId, 'TAKEN@example.com'), { code: 'conflict' });
});

t.test('sign-in: right and wrong passwords, unknown emails alike; the session body and sign-out', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Sign' });
  await acceptedMember(run.service, o.orgId, 'bob@example.com', { name: 'Bob' });
  const wrong = await browserCall(run.service.url, null, 'POST', '/app/api/session', {
    email: 'bob@example.com',
    password: 'not the password',
  });
  const unknown = await browserCall(run.service.url, null, 'POST', '/app/api/session', {
    email: 'nobody@example.com',
    password: PASSWORD,
  });
  t.same(
    [wrong.status, wrong.body.error.code, wrong.body.error.message],
    [401, 'unauthorized', 'wrong email or password'],
  );
  t.same(
    [unknown.status, unknown.body.error.code, unknown.body.error.message],
    [401, 'unauthorized', 'wrong email or password'],
    'the same answer',
  );
  t.equal(wrong.headers.get('set-cookie'), null, 'no cookie');
  const right = await browserCall(run.service.url, null, 'POST', '/app/api/session', {
    email: ' BOB@example.com',
    password: PASSWORD,
  });
  t.equal(right.status, 200);
  t.same([right.body.user.name, right.body.user.role, right.body.organization.id], ['Bob', 'member', o.orgId]);
  const browser: Browser = { cookie: cookieOf(right), csrf: right.body.csrf_token };
  const current = await browserCall(run.service.url, browser, 'GET', '/app/api/session');
  t.same(current.body, right.body, 'GET /app/api/session answers the same body');
  t.equal((await browserCall(run.service.url, null, 'GET', '/app/api/session')).status, 401, 'without a cookie: 401');
  const noCsrf = await browserCall(run.service.url, browser, 'DELETE', '/app/api/session', undefined, { csrf: '' });
  t.same([noCsrf.status, noCsrf.body.error.code], [403, 'forbidden'], 'sign-out needs the CSRF token');
  t.equal((await browserCall(run.service.url, browser, 'DELETE', '/app/api/session')).status, 204);
  const after = await browserCall(run.service.url, browser, 'GET', '/app/api/session');
  t.same([after.status, after.body.error.code], [401, 'unauthorized'], 'the session ended');
  t.equal(
    (await browserCall(run.service.url, browser, 'GET', '/v1/balance')).status,
    401,
    'and /v1 refuses the cookie',
  );
});

t.test(
  'the sign-in rate limit: 5 failures per email from one address, then 429 with Retry-After for that pair, even for the right password',
  async (t) => {
    const o = await orgWithKey(run.service, { name: 'Limit' });
    await acceptedMember(run.service, o.orgId, 'carl@example.com');
    const ip = { 'x-forwarded-for': '198.51.100.7' };
    const attempt = (password: string) =>
      fetch(`${run.service.url}/app/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...ip },
        body: JSON.stringify({ email: 'carl@example.com', password }),
      });
    for (let i = 0; i < 5; i++) t.equal((await attempt(`wrong password ${i}`)).status, 401);
    const limited = await attempt(PASSWORD);
    const body = (await limited.json()) as { error: { code: string } };
    t.same([limited.status, body.error.code], [429, 'rate_limited']);
    t.ok(
      Number(limited.headers.get('retry-after')) > 800,
      `Retry-After ${limited.headers.get('retry-after')} s (the 15-minute window)`,
    );
    const unknown = await fetch(`${run.service.url}/app/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...ip },
      body: JSON.stringify({ email: 'other@example.com', password: 'x' }),
    });
    t.equal(unknown.status, 401, 'another email from the same address is still answered');
  },
);

t.test(
  'the session cookie on /v1: the member with every scope, CSRF on changes, jobs from the playground',
  async (t) => {
    const o = await orgWithKey(run.service, { name: 'Play' });
    const { browser, session } = await acceptedMember(run.service, o.orgId, 'dora@example.com', { name: 'Dora' });
    const vehicle = { name: 'Box truck', type: 'truck', length: 720, width: 245, height: 260, max_weight: 7000 };
    const missing = await browserCall(run.service.url, browser, 'POST', '/v1/vehicles', vehicle, { csrf: '' });
    t.same([missing.status, missing.body.error.code], [403, 'forbidden'], 'no CSRF token');
    const wrong = await browserCall(run.service.url, browser, 'POST', '/v1/vehicles', vehicle, {
      csrf: `${browser.csrf.slice(0, -2)}xx`,
    });
    t.same([wrong.status, wrong.body.error.code], [403, 'forbidden'], 'a wrong CSRF token');
    const created = await browserCall(run.service.url, browser, 'POST', '/v1/vehicles', vehicle);
    t.equal(created.status, 201, JSON.stringify(created.body));
    t.same(created.body.created_by, { id: session.user.id, name: 'Dora' }, 'created by the member');
    const mine = await browserCall(run.service.url, browser, 'GET', '/v1/vehicles?created_by=me');
    t.same(
      mine.body.data.map((v: { id: string }) => v.id),
      [created.body.id],
      'created_by=me is the member',
    );
    const job = await browserCall(run.service.url, browser, 'POST', '/v1/pack', example);
    t.equal(job.status, 202, JSON.stringify(job.body));
    const read = await browserCall(run.service.url, browser, 'GET', `/v1/jobs/${job.body.id}`);
    t.equal(read.body.source, 'playground', 'a job made with a session comes from the playground');
    const byKey = await fetch(`${run.service.url}/v1/jobs/${job.body.id}`, {
      headers: { authorization: `Bearer ${o.key}` },
    });
    t.equal(byKey.status, 200, 'the organization sees it with its API key too');
    const other = await orgWithKey(run.service, { name: 'Other' });
    const foreign = await fetch(`${run.service.url}/v1/jobs/${job.body.id}`, {
      headers: { authorization: `Bearer ${other.key}` },
    });
    t.equal(foreign.status, 404, 'another organization does not');
  },
);

t.test('sessions are events: a restart keeps them', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Restart' });
  const { browser, session } = await acceptedMember(run.service, o.orgId, 'emil@example.com');
  await run.restart();
  const after = await browserCall(run.service.url, browser, 'GET', '/app/api/session');
  t.equal(after.status, 200);
  t.same(after.body, session, 'the same member, organization and CSRF token');
});
