/**
 * Behind TLS: with an https public URL (TLS ending at a proxy) the session cookie is
 * `__Host-session` with `Secure`, and the public origin is the one sign-in accepts in `Origin`.
 */
import t from 'tap';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { browserCall, invite } from '../helpers/web-session.js';

const PUBLIC = 'https://packing.example.com';
const run = inProcessService(t, 'web-secure', { publicBaseUrl: PUBLIC });

t.test('__Host- prefix, Secure, and the public origin', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Secure' });
  const token = await invite(run.service, o.orgId, 'sec@example.com');
  const accepted = await browserCall(
    run.service.url,
    null,
    'POST',
    `/app/api/invitations/${token}/accept`,
    { name: 'Sec', password: 'correct horse battery' },
    { origin: PUBLIC },
  );
  t.equal(accepted.status, 200, 'the public origin is accepted');
  const setCookie = accepted.headers.get('set-cookie') ?? '';
  t.match(setCookie, /^__Host-session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/);
  const value = setCookie.split(';')[0]!.split('=')[1]!;
  const withPrefix = await browserCall(
    run.service.url,
    { cookie: `__Host-session=${value}`, csrf: accepted.body.csrf_token },
    'GET',
    '/app/api/session',
  );
  t.equal(withPrefix.status, 200);
  const without = await browserCall(
    run.service.url,
    { cookie: `session=${value}`, csrf: accepted.body.csrf_token },
    'GET',
    '/app/api/session',
  );
  t.equal(without.status, 401, 'the unprefixed name is not read');
  const signIn = await browserCall(
    run.service.url,
    null,
    'POST',
    '/app/api/session',
    { email: 'sec@example.com', password: 'correct horse battery' },
    { origin: 'http://packing.example.com' },
  );
  t.same([signIn.status, signIn.body.error.code], [403, 'forbidden'], 'another scheme is another origin');
});
