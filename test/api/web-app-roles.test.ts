/**
 * Roles over the real service: a member's web app session has `pack:write`, `jobs:read`,
 * `resources:read` and `resources:write` only (webhooks, balance and usage, keys and members are
 * the owner's: 403 with a message naming the owner; GET /v1/limits is open to a session that may
 * pack); removing a member ends their sessions, revokes
 * keys made for them and disables the webhook endpoints they created, so a receiver gets nothing
 * more; and the dispatcher finishes a removal that stopped after MemberRemoved (crash-safety).
 */
import t from 'tap';
import { createApiKey } from '../../application/provision.js';
import { handleCommand } from '../../domain/decider/handle.js';
import { organizationDecider } from '../../domain/organization/decide.js';
import { orgStream } from '../../domain/organization/streams.js';
import { webhookEndpointDecider } from '../../domain/webhook/endpoint.js';
import { webhookEndpointStream } from '../../domain/webhook/streams.js';
import { disableWebhooksOfFormerMembers } from '../../application/member-webhooks.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { acceptedMember, browserCall } from '../helpers/web-session.js';

const run = inProcessService(t, 'web-roles', {
  trustProxy: 'loopback',
  webhooks: { allowPrivateTargets: true, retryBaseMs: 50, pollMs: 20 },
});
const PACK = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: [{ length: 10, width: 10, height: 10, weight: 1 }],
  options: { time_limit: 5 },
};
const VEHICLE = { name: 'Box truck', type: 'truck', length: 720, width: 245, height: 260, max_weight: 7000 };

const receivers: WebhookReceiver[] = [];
async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  receivers.push(r);
  return r;
}
t.teardown(async () => {
  for (const r of receivers) await r.close();
});

/** The job ids of the webhook bodies `r` received. */
const jobsReceived = (r: WebhookReceiver): string[] =>
  r.received.map((w) => (JSON.parse(w.body) as { data: { job: { id: string } } }).data.job.id);

/** Resolves with the first stored event after `after` that `match` accepts. */
async function nextEvent(after: number, match: (e: RecordedEvent) => boolean): Promise<RecordedEvent> {
  const subscription = run.service.services.store.subscribeAll(after);
  try {
    for await (const e of subscription) if (match(e)) return e;
  } finally {
    subscription.close();
  }
  throw new Error('the log ended');
}

t.test("a member's session: pack, jobs and saved data yes; webhooks, account, keys and members no", async (t) => {
  const o = await orgWithKey(run.service, { name: 'Roles' });
  const { browser: owner } = await acceptedMember(run.service, o.orgId, 'olga@roles.example', {
    role: 'owner',
    name: 'Olga',
  });
  const { browser: eve, session } = await acceptedMember(run.service, o.orgId, 'eve@roles.example', { name: 'Eve' });
  const hook = await receiver();

  const refused = await browserCall(run.service.url, eve, 'POST', '/v1/webhook_endpoints', {
    url: hook.url,
    events: ['job.succeeded'],
  });
  t.same([refused.status, refused.body.error.code], [403, 'scope_missing']);
  t.equal(refused.body.error.message, 'members of an organization may not manage webhooks; ask its owner');
  const list = await browserCall(run.service.url, eve, 'GET', '/v1/webhook_endpoints');
  t.same(
    [list.status, list.body.error.message],
    [403, 'members of an organization may not see webhooks; ask its owner'],
  );
  for (const path of ['/v1/balance', '/v1/usage']) {
    const answer = await browserCall(run.service.url, eve, 'GET', path);
    t.same(
      [answer.status, answer.body.error.code, answer.body.error.message],
      [
        403,
        'scope_missing',
        "members of an organization may not see the account's balance, usage and limits; ask its owner",
      ],
      path,
    );
  }
  for (const [method, path, body] of [
    ['GET', '/app/api/keys', undefined],
    ['POST', '/app/api/keys', { name: 'x' }],
    ['DELETE', `/app/api/keys/${o.keyId}`, undefined],
    ['GET', '/app/api/members', undefined],
    ['DELETE', `/app/api/members/${o.ownerId}`, undefined],
    ['POST', `/app/api/members/${session.user.id}/password-reset`, undefined],
    ['GET', '/app/api/invitations', undefined],
    ['POST', '/app/api/invitations', { email: 'x@roles.example' }],
    ['DELETE', '/app/api/invitations/inv_abc', undefined],
  ] as const) {
    const answer = await browserCall(run.service.url, eve, method, path, body);
    t.same([answer.status, answer.body?.error?.code], [403, 'forbidden'], `a member: ${method} ${path}`);
  }

  const limits = await browserCall(run.service.url, eve, 'GET', '/v1/limits');
  t.same(
    [limits.status, typeof limits.body.max_vehicles_per_request, typeof limits.body.rate_card.per_vehicle],
    [200, 'number', 'number'],
    'a member reads the limits and rate card the playground packs against',
  );
  t.match(
    limits.headers.get('x-credits-remaining'),
    /^\d+(\.\d+)?$/,
    "with the available credits, which decide whether their job runs (the balance itself is the owner's)",
  );
  const estimate = await browserCall(run.service.url, eve, 'POST', '/v1/estimate', PACK);
  t.equal(estimate.status, 200, 'a member estimates');
  t.match(
    estimate.headers.get('x-credits-remaining'),
    /^\d+(\.\d+)?$/,
    "a member's answers carry the available credits, as the estimate does",
  );
  const packed = await browserCall(run.service.url, eve, 'POST', '/v1/pack?wait=60', PACK);
  t.same([packed.status, packed.body.status], [200, 'succeeded'], 'a member packs');
  const jobs = await browserCall(run.service.url, eve, 'GET', '/v1/jobs');
  t.ok(
    jobs.body.data.some((j: { id: string }) => j.id === packed.body.id),
    'and reads jobs',
  );
  t.equal((await browserCall(run.service.url, eve, 'GET', `/v1/jobs/${packed.body.id}`)).status, 200);
  const vehicle = await browserCall(run.service.url, eve, 'POST', '/v1/vehicles', VEHICLE);
  t.equal(vehicle.status, 201, 'and saves vehicles');
  t.equal((await browserCall(run.service.url, eve, 'GET', '/v1/vehicles')).status, 200);

  const made = await browserCall(run.service.url, owner, 'POST', '/v1/webhook_endpoints', {
    url: hook.url,
    events: ['job.succeeded'],
  });
  t.equal(made.status, 201, 'the owner manages webhooks');
  t.match(made.body, {
    status: 'active',
    disabled_reason: null,
    disabled_at: null,
    secret: /^whsec_/,
    created_by: { name: 'Olga' },
  });
  const balance = await browserCall(run.service.url, owner, 'GET', '/v1/balance');
  t.equal(balance.status, 200, 'and reads the balance');
  t.equal(Number(balance.headers.get('x-credits-remaining')), balance.body.available_credits);
  t.equal((await browserCall(run.service.url, owner, 'GET', '/app/api/keys')).status, 200);
  t.equal((await browserCall(run.service.url, owner, 'DELETE', `/v1/webhook_endpoints/${made.body.id}`)).status, 200);
  t.equal((await call(run.service.url, o.key, 'GET', '/v1/balance')).status, 200, 'API keys keep their own scopes');
});

t.test(
  'removing a member: sessions end, keys made for them stop, their webhook endpoints are disabled and get nothing more',
  async (t) => {
    const o = await orgWithKey(run.service, { name: 'Removal' });
    const { browser: owner } = await acceptedMember(run.service, o.orgId, 'owen@removal.example', {
      role: 'owner',
      name: 'Owen',
    });
    const { browser: eve, session } = await acceptedMember(run.service, o.orgId, 'eve@removal.example', {
      name: 'Eve',
    });
    const eveId = session.user.id as string;
    // A key the operator made for Eve (admin create-key --member): her way to an endpoint of her own.
    const eveKey = await createApiKey(run.service.services.store, {
      orgId: o.orgId,
      memberId: eveId,
      name: 'eve',
      now: new Date().toISOString(),
    });
    await run.service.services.projections.waitFor(eveKey.position);
    const ownersHook = await receiver();
    const evesHook = await receiver();
    const kept = await browserCall(run.service.url, owner, 'POST', '/v1/webhook_endpoints', {
      url: ownersHook.url,
      events: ['job.succeeded'],
    });
    const evil = await call(run.service.url, eveKey.secret, 'POST', '/v1/webhook_endpoints', {
      url: evesHook.url,
      events: ['job.succeeded', 'job.failed', 'job.canceled'],
    });
    t.equal(evil.status, 201);
    t.same(evil.body.created_by, { id: eveId, name: 'Eve' });

    const first = (await call(run.service.url, o.key, 'POST', '/v1/pack?wait=60', PACK)).body;
    await evesHook.until((r) => r.length >= 1);
    t.same(jobsReceived(evesHook), [first.id], "before the removal Eve's endpoint gets the job");

    const removed = await browserCall(run.service.url, owner, 'DELETE', `/app/api/members/${eveId}`);
    t.equal(removed.status, 204);
    t.equal((await browserCall(run.service.url, eve, 'GET', '/app/api/session')).status, 401, 'her session ended');
    t.equal((await browserCall(run.service.url, eve, 'GET', '/v1/jobs')).status, 401, 'on /v1 too');
    const byKey = await call(run.service.url, eveKey.secret, 'GET', '/v1/jobs');
    t.same([byKey.status, byKey.body.error.code], [401, 'key_revoked'], 'the key made for her stopped');
    const keys = await browserCall(run.service.url, owner, 'GET', '/app/api/keys');
    t.same(
      keys.body.data.filter((k: { revoked: boolean }) => !k.revoked).map((k: { name: string }) => k.name),
      ['test'],
      "the owner's key works on",
    );

    const listed = await browserCall(run.service.url, owner, 'GET', '/v1/webhook_endpoints');
    const byId = Object.fromEntries(listed.body.data.map((e: { id: string }) => [e.id, e]));
    t.match(
      byId[evil.body.id],
      {
        status: 'disabled',
        disabled_reason: 'creator_removed',
        disabled_at: String,
        created_by: { id: eveId, name: 'Eve' },
      },
      'listed as disabled, with why',
    );
    t.match(byId[kept.body.id], { status: 'active', disabled_reason: null });

    const second = (await call(run.service.url, o.key, 'POST', '/v1/pack?wait=60', PACK)).body;
    await ownersHook.until((r) => jobsReceived({ received: r } as WebhookReceiver).includes(second.id));
    // Both endpoints' deliveries of one event are scheduled in the same step: the owner's arrived, so none was made for Eve's.
    const deliveries = await browserCall(
      run.service.url,
      owner,
      'GET',
      `/v1/webhook_endpoints/${evil.body.id}/deliveries`,
    );
    t.same(
      deliveries.body.data.map((d: { job_id: string }) => d.job_id),
      [first.id],
      'no delivery after the removal',
    );
    t.same(jobsReceived(evesHook), [first.id], "Eve's receiver got nothing more");

    const deleted = await browserCall(run.service.url, owner, 'DELETE', `/v1/webhook_endpoints/${evil.body.id}`);
    t.equal(deleted.status, 200, 'the owner deletes the disabled endpoint');
  },
);

t.test('a removal cut short after MemberRemoved is finished by the webhook dispatcher', async (t) => {
  const o = await orgWithKey(run.service, { name: 'Crash' });
  const { session } = await acceptedMember(run.service, o.orgId, 'mo@crash.example', { name: 'Mo' });
  const moKey = await createApiKey(run.service.services.store, {
    orgId: o.orgId,
    memberId: session.user.id,
    name: 'mo',
    now: new Date().toISOString(),
  });
  await run.service.services.projections.waitFor(moKey.position);
  const hook = await receiver();
  const made = await call(run.service.url, moKey.secret, 'POST', '/v1/webhook_endpoints', {
    url: hook.url,
    events: ['job.succeeded'],
  });
  t.equal(made.status, 201);
  const head = await run.service.services.store.headPosition();
  const disabled = nextEvent(
    head,
    (e) => e.type === 'WebhookEndpointDisabled' && (e.data as { endpointId: string }).endpointId === made.body.id,
  );
  // Only the first step of application/members.ts, as if the process died right after it.
  await handleCommand(run.service.services.store, orgStream(o.orgId), organizationDecider, {
    type: 'RemoveMember',
    data: { userId: session.user.id },
    metadata: { now: new Date().toISOString(), actor: { id: o.ownerId, name: 'Owner' } },
  });
  const event = await disabled;
  t.match(
    event.data,
    { reason: 'creator_removed', disabledBy: { id: 'service:scheduler' } },
    'the dispatcher disabled it',
  );
  await run.service.services.projections.waitFor(event.position);
  const got = await call(run.service.url, o.key, 'GET', `/v1/webhook_endpoints/${made.body.id}`);
  t.match(got.body, { status: 'disabled', disabled_reason: 'creator_removed' });
  const witness = await receiver();
  t.equal(
    (
      await call(run.service.url, o.key, 'POST', '/v1/webhook_endpoints', {
        url: witness.url,
        events: ['job.succeeded'],
      })
    ).status,
    201,
  );
  const job = (await call(run.service.url, o.key, 'POST', '/v1/pack?wait=60', PACK)).body;
  t.equal(job.status, 'succeeded');
  await witness.until((r) => jobsReceived({ received: r } as WebhookReceiver).includes(job.id));
  t.same(hook.received, [], "nothing was sent to it (the owner's endpoint got the same event)");
});

t.test(
  "an endpoint registered for a member after their removal (a lagging process) gets nothing, and is disabled at the dispatcher's next start",
  async (t) => {
    const o = await orgWithKey(run.service, { name: 'Late' });
    const { session } = await acceptedMember(run.service, o.orgId, 'lu@late.example', { name: 'Lu' });
    const removed = await handleCommand(run.service.services.store, orgStream(o.orgId), organizationDecider, {
      type: 'RemoveMember',
      data: { userId: session.user.id },
      metadata: { now: new Date().toISOString(), actor: { id: o.ownerId, name: 'Owner' } },
    });
    await run.service.services.projections.waitFor(removed.position);
    // What a process whose read models lag behind the removal could still write for Lu's key or session.
    const hook = await receiver();
    const endpointId = 'whe_late0000000000000000000';
    const registered = await handleCommand(
      run.service.services.store,
      webhookEndpointStream(endpointId),
      webhookEndpointDecider,
      {
        type: 'RegisterWebhookEndpoint',
        data: { endpointId, orgId: o.orgId, url: hook.url, events: ['job.succeeded'], secret: 'whsec_late' },
        metadata: { now: new Date().toISOString(), actor: { id: session.user.id, name: 'Lu' } },
      },
    );
    await run.service.services.projections.waitFor(registered.position);
    const witness = await receiver();
    t.equal(
      (
        await call(run.service.url, o.key, 'POST', '/v1/webhook_endpoints', {
          url: witness.url,
          events: ['job.succeeded'],
        })
      ).status,
      201,
    );
    const job = (await call(run.service.url, o.key, 'POST', '/v1/pack?wait=60', PACK)).body;
    t.equal(job.status, 'succeeded');
    await witness.until((r) => jobsReceived({ received: r } as WebhookReceiver).includes(job.id));
    t.same(
      hook.received,
      [],
      "nothing was sent to the former member's endpoint (the owner's endpoint got the same event)",
    );

    const disabled = await disableWebhooksOfFormerMembers(run.service.services, {
      id: 'service:scheduler',
      name: 'scheduler',
    });
    t.ok(disabled >= 1, `the start-up sweep disabled it (${disabled} endpoint(s))`);
    const head = await run.service.services.store.headPosition();
    await run.service.services.projections.waitFor(head);
    const got = await call(run.service.url, o.key, 'GET', `/v1/webhook_endpoints/${endpointId}`);
    t.match(got.body, { status: 'disabled', disabled_reason: 'creator_removed' }, 'listed as disabled for the owner');
    t.equal(
      await disableWebhooksOfFormerMembers(run.service.services, { id: 'service:scheduler', name: 'scheduler' }),
      0,
      'a second sweep finds nothing to do',
    );
  },
);
