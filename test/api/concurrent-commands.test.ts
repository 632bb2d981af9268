/**
 * Two check-then-act flows under concurrent requests, over HTTP against the real embedded service
 * (in process, temporary data dir, free port).
 *
 * Invitation acceptance: ten accepts of one invitation, and ten accepts split over two
 * invitations of the same email, end with exactly one 200, one credential and one new member;
 * the others are refused with 404 not_found (the invitation was used) or 409 conflict (the email
 * signs in already). It holds because the email is taken by one append on the stream
 * `credential-<sha256(email)>` (domain/credential/streams.ts) decided by `credentialDecider`
 * (domain/credential/credential.ts): CreateCredential refuses with `conflict` once the stream's
 * state is active, and the first CreateCredential is appended with the expected revision
 * "no stream", so of two writers that both read "no credential" one gets a ConcurrencyError,
 * re-reads, and is refused. Only the holder of the credential goes on to AcceptInvitation on
 * `org-<orgId>` (`organizationDecider`, refusing a used invitation with not_found).
 *
 * Saved-record updates: ten PATCHes of a vehicle, each changing another field, all answer 200
 * and the record ends with all ten changes, in ten VehicleUpdated events each changing one field
 * of the one before; ten PATCHes of the same field all answer 200 and the last writer wins (the
 * spec defines no version or If-Match for saved records, so this is the intended behaviour). It
 * holds because an update is one append on `vehicle-<id>` (domain/vehicle/streams.ts) decided by
 * `savedRecordDecider(VEHICLE_RECORD, …)` (domain/saved-record/decide.ts), which merges the patch
 * over the fields folded at the revision it then names as expected: an append that loses the race
 * is retried on the newer state (domain/decider/handle.ts), never written over it.
 *
 * Inside one process handleCommand also queues the commands of one stream, so the HTTP races are
 * settled by that queue before the expected revision is needed. The last test therefore runs the
 * same application code as ten processes would (one store view each: no shared queue, no shared
 * state cache) and holds the appends until all ten writers have read the stream, so the appends
 * do collide and the expected revision alone keeps the outcome right.
 */
import t from 'tap';
import { acceptInvitation } from '../../application/invitations.js';
import { credentialStream } from '../../domain/credential/streams.js';
import { handleCommand } from '../../domain/decider/handle.js';
import { ConcurrencyError, type EventStore } from '../../domain/ports/event-store.js';
import { savedRecordDecider } from '../../domain/saved-record/decide.js';
import { VEHICLE_RECORD, type VehicleFields } from '../../domain/vehicle/vehicle.js';
import { vehicleStream } from '../../domain/vehicle/streams.js';
import { orgStream } from '../../domain/organization/streams.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { acceptedMember, browserCall, invite, type Answer, type Browser } from '../helpers/web-session.js';
import { storeView } from '../helpers/store-view.js';

const run = inProcessService(t, 'concurrent-commands');
const RACERS = 10;
const passwordOf = (i: number): string => `racing password number ${i}`;
/** The answers a losing accept may get: the invitation was used, or the email signs in already. */
const ACCEPT_REFUSALS = ['404 not_found', '409 conflict'];

const summary = (a: Answer): string => `${a.status} ${a.body?.error?.code ?? ''}`.trim();

/** The organization's members as the owner's console lists them: [id, name, email, role]. */
async function membersOf(owner: Browser): Promise<unknown[][]> {
  const listed = await browserCall(run.service.url, owner, 'GET', '/app/api/members');
  if (listed.status !== 200) throw new Error(`members: ${listed.status} ${JSON.stringify(listed.body)}`);
  return listed.body.data.map((m: Record<string, unknown>) => [m['id'], m['name'], m['email'], m['role']]);
}

/** An organization whose owner signs in to the web app as `ownerEmail`, and the owner's browser. */
async function orgWithOwner(name: string, ownerEmail: string) {
  const o = await orgWithKey(run.service, { name });
  const { browser: owner } = await acceptedMember(run.service, o.orgId, ownerEmail, { role: 'owner', name: 'Olga' });
  return { ...o, owner };
}

/** The event types of `stream` in order. */
async function typesOf(stream: string): Promise<string[]> {
  return (await run.service.services.store.readStream(stream)).map((e) => e.type);
}

t.test('ten accepts of one invitation at once: one 200, one credential, one new member', async (t) => {
  const o = await orgWithOwner('Race one', 'owner-one@example.com');
  const email = 'racer-one@example.com';
  const token = await invite(run.service, o.orgId, email);

  const answers = await Promise.all(
    Array.from({ length: RACERS }, (_, i) =>
      browserCall(run.service.url, null, 'POST', `/app/api/invitations/${token}/accept`, {
        name: `Racer ${i}`,
        password: passwordOf(i),
      }),
    ),
  );

  const won = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
  t.equal(won.length, 1, `exactly one accept succeeds (answers: ${answers.map(summary).join(', ')})`);
  const winner = won[0]!;
  const memberId = answers[winner]!.body.user.id as string;
  t.same(answers[winner]!.body.user, { id: memberId, name: `Racer ${winner}`, email, role: 'member' });
  const refusals = answers.filter((a) => a.status !== 200).map(summary);
  t.equal(refusals.length, RACERS - 1);
  t.same(
    refusals.filter((r) => !ACCEPT_REFUSALS.includes(r)),
    [],
    'every other accept is refused as used (404) or as a taken email (409)',
  );
  t.comment(
    `refusals: ${refusals.filter((r) => r.startsWith('404')).length} × 404, ${refusals.filter((r) => r.startsWith('409')).length} × 409`,
  );

  t.same(
    await membersOf(o.owner),
    [
      [o.ownerId, 'Olga', 'owner-one@example.com', 'owner'],
      [memberId, `Racer ${winner}`, email, 'member'],
    ],
    'the organization gained exactly one member',
  );
  const credential = await run.service.services.store.readStream(credentialStream(email));
  t.same(
    credential.map((e) => [e.type, (e.data as { userId: string }).userId]),
    [['CredentialCreated', memberId]],
    'one credential, never revoked',
  );
  const accepted = (await run.service.services.store.readStream(orgStream(o.orgId))).filter(
    (e) => e.type === 'InvitationAccepted' && (e.data as { email: string }).email === email,
  );
  t.equal(accepted.length, 1, 'the invitation was used once');

  const signIn = await browserCall(run.service.url, null, 'POST', '/app/api/session', {
    email,
    password: passwordOf(winner),
  });
  t.same([signIn.status, signIn.body.user?.id], [200, memberId], "the winner's password signs in");
  const other = await browserCall(run.service.url, null, 'POST', '/app/api/session', {
    email,
    password: passwordOf((winner + 1) % RACERS),
  });
  t.equal(other.status, 401, "a loser's password does not");
  t.equal(
    (await browserCall(run.service.url, null, 'GET', `/app/api/invitations/${token}`)).status,
    404,
    'the invitation is used',
  );
});

t.test(
  'ten accepts split over two invitations of one email: one credential, one member, 409 for the other invitation',
  async (t) => {
    const o = await orgWithOwner('Race two', 'owner-two@example.com');
    const email = 'racer-two@example.com';
    const issued = await Promise.all(
      [0, 1].map(() => browserCall(run.service.url, o.owner, 'POST', '/app/api/invitations', { email })),
    );
    t.same(
      issued.map((a) => a.status),
      [201, 201],
      'an email without a credential may hold two open invitations',
    );
    const tokens = issued.map((a) => a.body.token as string);
    t.not(tokens[0], tokens[1]);

    const answers = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        browserCall(run.service.url, null, 'POST', `/app/api/invitations/${tokens[i % 2]}/accept`, {
          name: `Racer ${i}`,
          password: passwordOf(i),
        }),
      ),
    );

    const won = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    t.equal(won.length, 1, `exactly one accept succeeds (answers: ${answers.map(summary).join(', ')})`);
    const winner = won[0]!;
    const memberId = answers[winner]!.body.user.id as string;
    const losingToken = tokens[(winner + 1) % 2]!;
    const onLosingInvitation = answers.filter((_, i) => i % 2 !== winner % 2).map(summary);
    t.same(
      onLosingInvitation,
      Array(RACERS / 2).fill('409 conflict'),
      'the other invitation: every accept finds the email taken',
    );
    const onWinningInvitation = answers.filter((_, i) => i % 2 === winner % 2 && i !== winner).map(summary);
    t.same(
      onWinningInvitation.filter((r) => !ACCEPT_REFUSALS.includes(r)),
      [],
      'the winning invitation: used (404) or the email taken (409)',
    );

    t.same(
      await membersOf(o.owner),
      [
        [o.ownerId, 'Olga', 'owner-two@example.com', 'owner'],
        [memberId, `Racer ${winner}`, email, 'member'],
      ],
      'one member has the email',
    );
    t.same(await typesOf(credentialStream(email)), ['CredentialCreated'], 'one credential, never revoked');

    const late = await browserCall(run.service.url, null, 'POST', `/app/api/invitations/${losingToken}/accept`, {
      name: 'Late',
      password: passwordOf(99),
    });
    t.same(
      [late.status, late.body.error.code],
      [409, 'conflict'],
      'the other invitation stays unusable while the email signs in',
    );
    t.equal((await membersOf(o.owner)).length, 2);
  },
);

const truck = { name: 'Race truck', type: 'truck', length: 600, width: 240, height: 230, max_weight: 2500 };
/** Ten changes of ten different fields; every merge of any subset of them over `truck` is a valid vehicle. */
const CHANGES: Record<string, unknown>[] = [
  { name: 'Renamed truck' },
  { type: 'trailer' },
  { length: 1200 },
  { width: 245 },
  { height: 260 },
  { max_weight: 9000 },
  { floor_load_capacity: 1500 },
  { cog_range_x: 50 },
  { cog_range_y: 20 },
  { blocked_areas: [{ x: 0, z: 0, length: 50, width: 40 }] },
];

/** The fields of each VehicleUpdated event of vehicle `id`, in order. */
async function updatesOf(id: string): Promise<Record<string, unknown>[]> {
  const events = await run.service.services.store.readStream(vehicleStream(id));
  return events
    .filter((e) => e.type === 'VehicleUpdated')
    .map((e) => (e.data as { fields: Record<string, unknown> }).fields);
}

/** The keys whose values differ between `a` and `b`. */
const changedKeys = (a: Record<string, unknown>, b: Record<string, unknown>): string[] =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .sort();

t.test('ten PATCHes of ten different fields at once: all 200, no change lost', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Patch fields' });
  const created = await call(run.service.url, o.key, 'POST', '/v1/vehicles', truck);
  t.equal(created.status, 201);
  const v = created.body;

  const answers = await Promise.all(
    CHANGES.map((change) => call(run.service.url, o.key, 'PATCH', `/v1/vehicles/${v.id}`, change)),
  );
  t.same(
    answers.map((a) => a.status),
    Array(RACERS).fill(200),
    'every PATCH answers 200',
  );
  answers.forEach((a, i) => t.match(a.body, CHANGES[i]!, `answer ${i} shows its own change`));

  const all = Object.assign({}, ...CHANGES) as Record<string, unknown>;
  const final = await call(run.service.url, o.key, 'GET', `/v1/vehicles/${v.id}`);
  t.same(
    final.body,
    { ...v, ...all, updated_at: final.body.updated_at, updated_by: v.created_by },
    'the record shows every one of the ten changes',
  );

  const updates = await updatesOf(v.id);
  t.equal(updates.length, RACERS, 'ten VehicleUpdated events');
  const steps = updates.map((fields, k) => changedKeys(k === 0 ? truck : updates[k - 1]!, fields));
  t.same(
    steps.map((s) => s.length),
    Array(RACERS).fill(1),
    'each update changes one field of the record the one before wrote',
  );
  t.same(
    steps.flat().sort(),
    CHANGES.map((c) => Object.keys(c)[0]!).sort(),
    'and together they are the ten fields sent',
  );
});

t.test('ten PATCHes of the same field at once: all 200, the last writer wins', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Patch one field' });
  const v = (await call(run.service.url, o.key, 'POST', '/v1/vehicles', truck)).body;
  const names = Array.from({ length: RACERS }, (_, i) => `Name ${i}`);

  const answers = await Promise.all(
    names.map((name) => call(run.service.url, o.key, 'PATCH', `/v1/vehicles/${v.id}`, { name })),
  );
  t.same(
    answers.map((a) => a.status),
    Array(RACERS).fill(200),
    'every PATCH answers 200',
  );
  t.same(
    answers.map((a) => a.body.name),
    names,
    'each answer shows the name it sent',
  );

  const final = (await call(run.service.url, o.key, 'GET', `/v1/vehicles/${v.id}`)).body;
  t.ok(names.includes(final.name), `the final name "${final.name}" is one of the ten`);
  t.same(final, { ...v, name: final.name, updated_at: final.updated_at }, 'nothing else changed');
  const updates = await updatesOf(v.id);
  t.same(
    updates.map((f) => f['name']).sort(),
    [...names].sort(),
    'each name was written once, in ten VehicleUpdated events',
  );
  t.equal(updates.at(-1)!['name'], final.name, 'the record holds the name of the last event: the last writer wins');
});

/**
 * A view of `store` as another process has it: no command queue or state cache shared with the
 * service or the other views. Its appends first pass `gate`, and it counts those refused with a
 * ConcurrencyError in `conflicts`.
 */
function processView(
  store: EventStore,
  gate: (stream: string) => Promise<void>,
  conflicts: { count: number },
): EventStore {
  return storeView(
    store,
    async (stream, events, expected) => {
      await gate(stream);
      try {
        return await store.append(stream, events, expected);
      } catch (err) {
        if (err instanceof ConcurrencyError) conflicts.count++;
        throw err;
      }
    },
    true,
  );
}

/**
 * Holds every append to `stream` until `parties` of them wait, then lets them all go at once (and
 * any later one straight through): each writer has read the stream before any of them writes.
 */
function appendBarrier(stream: string, parties: number): (stream: string) => Promise<void> {
  let waiting = 0;
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return (target) => {
    if (target !== stream) return Promise.resolve();
    if (++waiting >= parties) open();
    return opened;
  };
}

t.test('as ten processes (one store view each): the expected revision alone keeps both flows right', async (t) => {
  const { store, projections } = run.service.services;
  const o = await orgWithOwner('Race processes', 'owner-three@example.com');
  const now = () => new Date().toISOString();

  const email = 'racer-three@example.com';
  const token = await invite(run.service, o.orgId, email);
  const conflicts = { count: 0 };
  const credentialGate = appendBarrier(credentialStream(email), RACERS);
  const accepts = await Promise.allSettled(
    Array.from({ length: RACERS }, (_, i) =>
      acceptInvitation(processView(store, credentialGate, conflicts), {
        orgId: o.orgId,
        token,
        name: `Racer ${i}`,
        password: passwordOf(i),
        now: now(),
      }),
    ),
  );
  const won = accepts.flatMap((a, i) => (a.status === 'fulfilled' ? [{ i, ...a.value }] : []));
  t.equal(won.length, 1, 'exactly one accept succeeds');
  const refused = accepts.flatMap((a) =>
    a.status === 'rejected' ? [String((a.reason as { code?: string }).code)] : [],
  );
  t.same(refused, Array(RACERS - 1).fill('conflict'), 'the others are refused: the email signs in already');
  t.equal(
    conflicts.count,
    RACERS - 1,
    'all ten wrote on "no credential"; nine appends were refused for the expected revision "no stream"',
  );
  await projections.waitFor(won[0]!.position);
  t.same(
    await membersOf(o.owner),
    [
      [o.ownerId, 'Olga', 'owner-three@example.com', 'owner'],
      [won[0]!.memberId, `Racer ${won[0]!.i}`, email, 'member'],
    ],
    'one new member',
  );
  t.same(await typesOf(credentialStream(email)), ['CredentialCreated'], 'one credential, never revoked');

  const v = (await call(run.service.url, o.key, 'POST', '/v1/vehicles', truck)).body;
  const decider = savedRecordDecider(VEHICLE_RECORD, () => []);
  const patches = { count: 0 };
  const vehicleGate = appendBarrier(vehicleStream(v.id), RACERS);
  const actor = { id: o.ownerId, name: 'Olga' };
  const done = await Promise.all(
    CHANGES.map((patch) =>
      handleCommand(processView(store, vehicleGate, patches), vehicleStream(v.id), decider, {
        type: 'UpdateSavedRecord',
        data: { id: v.id, orgId: o.orgId, patch: patch as Partial<VehicleFields> },
        metadata: { now: now(), actor },
      }),
    ),
  );
  t.ok(
    patches.count >= RACERS - 1,
    `the updates collided: ${patches.count} appends were refused for a stale revision and retried`,
  );
  await projections.waitFor(Math.max(...done.map((d) => d.position)));
  const final = (await call(run.service.url, o.key, 'GET', `/v1/vehicles/${v.id}`)).body;
  t.same(
    final,
    { ...v, ...Object.assign({}, ...CHANGES), updated_at: final.updated_at },
    'every change is in the record',
  );
  t.equal((await updatesOf(v.id)).length, RACERS, 'ten VehicleUpdated events');
});
