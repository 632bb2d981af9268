/**
 * Pending invitations in the owner's console (roles): GET /app/api/invitations lists the ones not
 * used, withdrawn or expired (email, role, purpose, invited_at, expires_at, invited_by), newest
 * first; DELETE /app/api/invitations/:id withdraws one, after which its link answers 404 with
 * "withdrawn" (reading and accepting alike) and it leaves the list.
 */
import t from 'tap';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { acceptedMember, browserCall } from '../helpers/web-session.js';

const run = inProcessService(t, 'web-invitations', { trustProxy: 'loopback' });

t.test('the owner lists pending invitations and withdraws one: its link stops working', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Invites' });
  const { browser: owner, session } = await acceptedMember(run.service, o.orgId, 'ida@invites.example', {
    role: 'owner',
    name: 'Ida',
  });
  const first = await browserCall(run.service.url, owner, 'POST', '/app/api/invitations', {
    email: 'ann@invites.example',
  });
  const second = await browserCall(run.service.url, owner, 'POST', '/app/api/invitations', {
    email: 'bob@invites.example',
  });
  t.same([first.status, second.status], [201, 201]);
  const used = await browserCall(run.service.url, owner, 'POST', '/app/api/invitations', {
    email: 'cy@invites.example',
  });
  t.equal(
    (
      await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${used.body.token}/accept`, {
        name: 'Cy',
        password: 'correct horse battery',
      })
    ).status,
    200,
  );

  const listed = await browserCall(run.service.url, owner, 'GET', '/app/api/invitations');
  t.equal(listed.status, 200);
  t.same(
    listed.body.data.map((i: { email: string }) => i.email).sort(),
    ['ann@invites.example', 'bob@invites.example'],
    'the used one is not pending',
  );
  const ann = listed.body.data.find((i: { id: string }) => i.id === first.body.id);
  t.match(ann, {
    email: 'ann@invites.example',
    role: 'member',
    purpose: null,
    expires_at: first.body.expires_at,
    invited_by: { id: session.user.id, name: 'Ida' },
  });
  t.ok(Date.parse(ann.invited_at) <= Date.parse(ann.expires_at), 'invited_at before expires_at');
  t.notOk(JSON.stringify(listed.body).includes(first.body.token), 'no token in the list');

  t.equal((await browserCall(run.service.url, owner, 'DELETE', `/app/api/invitations/${first.body.id}`)).status, 204);
  const read = await browserCall(run.service.url, null, 'GET', `/app/api/invitations/${first.body.token}`);
  t.same([read.status, read.body.error.code], [404, 'not_found']);
  t.match(read.body.error.message, /withdrawn by the organization's owner/);
  const accept = await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${first.body.token}/accept`, {
    name: 'Ann',
    password: 'correct horse battery',
  });
  t.same([accept.status, accept.body.error.code], [404, 'not_found'], 'accepting a withdrawn invitation');
  t.match(accept.body.error.message, /withdrawn/);
  const signIn = await browserCall(run.service.url, null, 'POST', '/app/api/session', {
    email: 'ann@invites.example',
    password: 'correct horse battery',
  });
  t.equal(signIn.status, 401, 'no credential was made');
  t.same(
    (await browserCall(run.service.url, owner, 'GET', '/app/api/invitations')).body.data.map(
      (i: { email: string }) => i.email,
    ),
    ['bob@invites.example'],
  );

  t.equal(
    (await browserCall(run.service.url, owner, 'DELETE', `/app/api/invitations/${first.body.id}`)).status,
    404,
    'withdrawn already',
  );
  t.equal(
    (await browserCall(run.service.url, owner, 'DELETE', `/app/api/invitations/${used.body.id}`)).status,
    404,
    'a used one cannot be withdrawn',
  );
  t.equal((await browserCall(run.service.url, owner, 'DELETE', '/app/api/invitations/../keys')).status, 404);
  const other = await orgWithKey(run.service, { name: 'Other' });
  const { browser: stranger } = await acceptedMember(run.service, other.orgId, 'sam@other.example', {
    role: 'owner',
    name: 'Sam',
  });
  t.equal(
    (await browserCall(run.service.url, stranger, 'DELETE', `/app/api/invitations/${second.body.id}`)).status,
    404,
    "another organization's owner cannot withdraw it",
  );
  t.same((await browserCall(run.service.url, stranger, 'GET', '/app/api/invitations')).body.data, [], 'nor see it');
});
