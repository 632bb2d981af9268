/**
 * Suspension closes every door (spec Errors `account_inactive`: "Organization suspended"), over
 * the real service: while the operator has the organization suspended, its signed links (the
 * viewer page, its plan.json and the PDF) answer 403 account_inactive, and its owner's session
 * can make no API key, rotation or invitation, nor can an invitation issued earlier be accepted;
 * what closes doors (revoking a key) still works. Reactivated, the same links open again.
 */
import t from 'tap';
import { setOrganizationSuspended } from '../../application/operator-commands.js';
import { ensureViewerBuild } from '../../scripts/front-end-builds.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { acceptedMember, browserCall, invite } from '../helpers/web-session.js';

const run = inProcessService(t, 'suspension');
t.before(async () => {
  t.equal(await ensureViewerBuild('stale'), 'fresh', 'the viewer is built (its page is one of the links)');
});

const BODY = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 4 }],
  options: { time_limit: 5 },
};

/** Status and error code of a GET of a signed link (the service's own origin). */
async function open(url: string): Promise<[number, string | null]> {
  const res = await fetch(url.replace(/^http:\/\/[^/]+/, run.service.url));
  const type = res.headers.get('content-type') ?? '';
  const code = type.startsWith('application/json')
    ? (((await res.json()) as { error?: { code: string } }).error?.code ?? null)
    : (await res.arrayBuffer(), null);
  return [res.status, code];
}

t.test('a suspended organization: links and access-granting console routes refused, doors still close', async (t) => {
  const { service } = run;
  const o = await orgWithKey(service, { name: 'Suspended Ltd' });
  const { browser: owner } = await acceptedMember(service, o.orgId, 'owner@example.com', { role: 'owner' });
  const packed = await call(service.url, o.key, 'POST', '/v1/pack?wait=60', BODY);
  t.equal(packed.body.status, 'succeeded', JSON.stringify(packed.body.error ?? null));
  const viewer = packed.body.viewer_url as string;
  const planJson = viewer.replace(/\?/, '/plan.json?');
  const pdf = packed.body.pdf_url as string;
  const made = await browserCall(service.url, owner, 'POST', '/app/api/keys', { name: 'before' });
  t.equal(made.status, 201, 'a key made before the suspension');
  const earlier = await invite(service, o.orgId, 'joiner@example.com');
  for (const url of [viewer, planJson, pdf]) t.same(await open(url), [200, null], 'open before the suspension');

  const suspended = await setOrganizationSuspended(
    service.services.store,
    o.orgId,
    'unpaid invoice',
    new Date().toISOString(),
  );
  await service.services.projections.waitFor(suspended.position);

  for (const [name, url] of [
    ['viewer page', viewer],
    ['plan.json', planJson],
    ['PDF', pdf],
  ] as const)
    t.same(await open(url), [403, 'account_inactive'], `suspended: the ${name} link is refused`);
  const refusals: [string, string, unknown][] = [
    ['POST', '/app/api/keys', { name: 'during' }],
    ['POST', `/app/api/keys/${made.body.id}/rotate`, { prefix: made.body.prefix }],
    ['POST', '/app/api/invitations', { email: 'new@example.com' }],
  ];
  for (const [method, path, body] of refusals) {
    const res = await browserCall(service.url, owner, method, path, body);
    t.same([res.status, res.body.error?.code], [403, 'account_inactive'], `suspended: ${method} ${path}`);
    t.match(res.body.error.message, /suspended/);
  }
  const accepted = await browserCall(service.url, null, 'POST', `/app/api/invitations/${earlier}/accept`, {
    name: 'Joiner',
    password: 'correct horse battery',
  });
  t.same(
    [accepted.status, accepted.body.error?.code],
    [403, 'account_inactive'],
    'an earlier invitation cannot be accepted',
  );
  const keys = await browserCall(service.url, owner, 'GET', '/app/api/keys');
  t.equal(keys.status, 200, 'the owner can still see the keys');
  t.equal(keys.body.data.length, 2, 'no key was made while suspended (the first and the one made before)');
  const revoked = await browserCall(service.url, owner, 'DELETE', `/app/api/keys/${made.body.id}`);
  t.equal(revoked.status, 204, 'revoking a key still works: it closes a door');
  t.equal(
    (await call(service.url, o.key, 'GET', '/v1/balance')).body.error?.code,
    'account_inactive',
    'and the API is closed',
  );

  const lifted = await setOrganizationSuspended(service.services.store, o.orgId, null, new Date().toISOString());
  await service.services.projections.waitFor(lifted.position);
  for (const url of [viewer, planJson, pdf]) t.same(await open(url), [200, null], 'reactivated: the links open again');
  const after = await browserCall(service.url, owner, 'POST', '/app/api/invitations', { email: 'new@example.com' });
  t.equal(after.status, 201, 'reactivated: invitations again');
});
