/**
 * The organization's display units over the real service (the web app's own API): the session
 * says `metric` until the owner chooses `imperial` with PUT /app/api/organization/display_units
 * (the answer is the new session body; every member's next GET /app/api/session shows it; the
 * read model holds it for the viewer and the PDF); a member is refused (403 forbidden), a bad
 * body is 422 validation_failed and no JSON 400 invalid_json, neither changes the preference; no
 * CSRF token is 403. The session also names the vehicle types the plan allows and axle access.
 */
import t from 'tap';
import { ORGANIZATIONS, type OrganizationDocument } from '../../projections/organizations/projection.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { acceptedMember, browserCall } from '../helpers/web-session.js';

const run = inProcessService(t, 'web-display-units');
const PATH = '/app/api/organization/display_units';

t.test(
  'the owner chooses imperial: the session shows it; members are refused; bad bodies change nothing',
  async (t) => {
    const o = await orgWithKey(run.service, {
      name: 'Imperial Haulage',
      limits: { allowedVehicleTypes: ['truck', 'container'] },
      axleAccess: true,
    });
    const { browser: owner, session } = await acceptedMember(run.service, o.orgId, 'olga@example.com', {
      role: 'owner',
      name: 'Olga',
    });
    const { browser: member } = await acceptedMember(run.service, o.orgId, 'max@example.com', { name: 'Max' });
    t.same(
      session.organization,
      {
        id: o.orgId,
        name: 'Imperial Haulage',
        display_units: 'metric',
        allowed_vehicle_types: ['truck', 'container'],
        axle_access: true,
      },
      'metric until chosen; the plan and axle access',
    );

    const refused = await browserCall(run.service.url, member, 'PUT', PATH, { display_units: 'imperial' });
    t.same([refused.status, refused.body.error.code], [403, 'forbidden'], 'a member may not choose');
    const noCsrf = await browserCall(
      run.service.url,
      owner,
      'PUT',
      PATH,
      { display_units: 'imperial' },
      { csrf: 'wrong' },
    );
    t.same([noCsrf.status, noCsrf.body.error.code], [403, 'forbidden'], 'the CSRF token is checked');
    const signedOut = await browserCall(run.service.url, null, 'PUT', PATH, { display_units: 'imperial' });
    t.same([signedOut.status, signedOut.body.error.code], [401, 'unauthorized']);

    for (const body of [
      { display_units: 'furlongs' },
      {},
      { display_units: 'imperial', extra: 1 },
      { display_units: null },
      ['imperial'],
    ]) {
      const bad = await browserCall(run.service.url, owner, 'PUT', PATH, body);
      t.same([bad.status, bad.body.error.code], [422, 'validation_failed'], `refused: ${JSON.stringify(body)}`);
      t.ok(Array.isArray(bad.body.error.details) && bad.body.error.details.length > 0, 'with the problems');
    }
    const notJson = await fetch(run.service.url + PATH, {
      method: 'PUT',
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf, 'content-type': 'application/json' },
      body: '{"display_units": ',
    });
    t.same([notJson.status, ((await notJson.json()) as { error: { code: string } }).error.code], [400, 'invalid_json']);
    t.equal(
      (await browserCall(run.service.url, owner, 'GET', '/app/api/session')).body.organization.display_units,
      'metric',
      'nothing changed',
    );

    const chosen = await browserCall(run.service.url, owner, 'PUT', PATH, { display_units: 'imperial' });
    t.equal(chosen.status, 200, JSON.stringify(chosen.body));
    t.same(
      [chosen.body.organization.display_units, chosen.body.user.id, chosen.body.csrf_token],
      ['imperial', o.ownerId, owner.csrf],
      'the answer is the session body',
    );
    t.equal(
      (await browserCall(run.service.url, owner, 'GET', '/app/api/session')).body.organization.display_units,
      'imperial',
      "the owner's session",
    );
    t.equal(
      (await browserCall(run.service.url, member, 'GET', '/app/api/session')).body.organization.display_units,
      'imperial',
      "a member's session",
    );
    const doc = await run.service.services.reads.collection<OrganizationDocument>(ORGANIZATIONS).get(o.orgId);
    t.equal(doc?.displayUnits, 'imperial', 'the read model the viewer and PDF read');

    const again = await browserCall(run.service.url, owner, 'PUT', PATH, { display_units: 'imperial' });
    t.same(
      [again.status, again.body.organization.display_units],
      [200, 'imperial'],
      'choosing it again answers the same',
    );
    const back = await browserCall(run.service.url, owner, 'PUT', PATH, { display_units: 'metric' });
    t.same([back.status, back.body.organization.display_units], [200, 'metric'], 'and back to metric');
  },
);

t.test('organizations do not share the preference', async (t) => {
  const a = await orgWithKey(run.service, { name: 'A' });
  const b = await orgWithKey(run.service, { name: 'B' });
  const { browser: ownerA } = await acceptedMember(run.service, a.orgId, 'a@example.com', { role: 'owner' });
  const { browser: ownerB } = await acceptedMember(run.service, b.orgId, 'b@example.com', { role: 'owner' });
  t.equal((await browserCall(run.service.url, ownerA, 'PUT', PATH, { display_units: 'imperial' })).status, 200);
  const other = await browserCall(run.service.url, ownerB, 'GET', '/app/api/session');
  t.same(
    [
      other.body.organization.display_units,
      other.body.organization.allowed_vehicle_types,
      other.body.organization.axle_access,
    ],
    ['metric', ['truck', 'trailer', 'container', 'pallet'], false],
  );
});
