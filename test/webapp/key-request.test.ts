/**
 * The console's API-key form as the body of POST /app/api/keys (webapp/src/console/key-request.ts):
 * every scope by default (the same list as the domain's), expiry at the end of the chosen UTC
 * day, the IP allowlist split.
 */
import t from 'tap';
import { SCOPES as DOMAIN_SCOPES } from '../../domain/organization/organization.js';
import { emptyKeyForm, keyRequestOf, SCOPES } from '../../webapp/src/console/key-request.js';

t.test('the web app offers exactly the domain scopes', async (t) => {
  t.same([...SCOPES], [...DOMAIN_SCOPES]);
});

t.test('a fresh form asks for every scope, no expiry, any address', async (t) => {
  t.same(keyRequestOf({ ...emptyKeyForm(), name: '  CI server ' }), { name: 'CI server', scopes: [...SCOPES] });
});

t.test('chosen scopes in spec order, expiry and allowlist', async (t) => {
  const body = keyRequestOf({
    name: 'Reader',
    scopes: ['resources:read', 'jobs:read'],
    expiresOn: '2027-01-31',
    allowedIps: '203.0.113.7,  10.0.0.0/8\n2001:db8::/32',
  });
  t.same(body, {
    name: 'Reader',
    scopes: ['jobs:read', 'resources:read'],
    expires_at: '2027-01-31T23:59:59Z',
    allowed_ips: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32'],
  });
});
