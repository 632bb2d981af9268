/**
 * Webhook endpoints and deliveries on the real embedded service in this process (item
 * 4): registration, validation and the private-target check at registration, list/get/delete,
 * scopes (new keys have webhooks:*, a key made with the older scopes does not), and a receiver
 * that answers 500 three times getting the delivery, signed and with the same event id, on the
 * fourth attempt, every attempt listed on the endpoint. Loopback targets are allowed by this
 * test's configuration; the retry base is 50 ms.
 */
import t from 'tap';
import { createApiKey } from '../../application/provision.js';
import { verifyWebhookSignature } from '../../clients/typescript/src/webhook-signature.js';
import { call } from '../helpers/service-process.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const running = inProcessService(t, 'webhooks', {
  webhooks: { allowPrivateTargets: true, retryBaseMs: 50, pollMs: 20 },
});
const PACK = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: [{ length: 10, width: 10, height: 10, weight: 1 }],
  options: { time_limit: 5 },
};

let receiver: WebhookReceiver;
t.before(async () => {
  receiver = await startWebhookReceiver();
});
t.teardown(() => receiver.close());

t.test('registration: the secret once, list, get, delete', async (t) => {
  const { service } = running;
  const { key } = await orgWithKey(service);
  const made = await call(service.url, key, 'POST', '/v1/webhook_endpoints', {
    url: receiver.url,
    events: ['job.succeeded', 'job.failed'],
  });
  t.equal(made.status, 201);
  t.match(made.body, {
    id: /^whe_/,
    object: 'webhook_endpoint',
    url: receiver.url,
    events: ['job.succeeded', 'job.failed'],
    secret: /^whsec_/,
    created_at: String,
    created_by: { id: /^usr_/ },
  });
  const got = await call(service.url, key, 'GET', `/v1/webhook_endpoints/${made.body.id}`);
  t.equal(got.status, 200);
  t.notOk('secret' in got.body, 'the secret is shown only once');
  const second = await call(service.url, key, 'POST', '/v1/webhook_endpoints', {
    url: `${receiver.url}/2`,
    events: ['job.canceled'],
  });
  const list = await call(service.url, key, 'GET', '/v1/webhook_endpoints?limit=1');
  t.same(
    list.body.data.map((e: { id: string }) => e.id),
    [second.body.id],
    'newest first, one per page',
  );
  t.not(list.body.next_cursor, '');
  const rest = await call(service.url, key, 'GET', `/v1/webhook_endpoints?limit=1&cursor=${list.body.next_cursor}`);
  t.same(
    rest.body.data.map((e: { id: string }) => e.id),
    [made.body.id],
  );
  t.equal(rest.body.next_cursor, '');
  const other = await orgWithKey(service, { name: 'Other' });
  t.equal(
    (await call(service.url, other.key, 'GET', `/v1/webhook_endpoints/${made.body.id}`)).body.error.code,
    'not_found',
    'another organization sees nothing',
  );
  t.equal((await call(service.url, other.key, 'DELETE', `/v1/webhook_endpoints/${made.body.id}`)).status, 404);
  const deleted = await call(service.url, key, 'DELETE', `/v1/webhook_endpoints/${second.body.id}`);
  t.same(deleted.body, { id: second.body.id, object: 'webhook_endpoint', deleted: true });
  t.equal((await call(service.url, key, 'GET', `/v1/webhook_endpoints/${second.body.id}`)).status, 404);
  t.equal((await call(service.url, key, 'DELETE', `/v1/webhook_endpoints/${second.body.id}`)).status, 404);
  t.same(
    (await call(service.url, key, 'GET', '/v1/webhook_endpoints')).body.data.map((e: { id: string }) => e.id),
    [made.body.id],
  );
  await call(service.url, key, 'DELETE', `/v1/webhook_endpoints/${made.body.id}`);
});

t.test('validation answers the error envelope', async (t) => {
  const { service } = running;
  const { key } = await orgWithKey(service);
  const post = (body: unknown) => call(service.url, key, 'POST', '/v1/webhook_endpoints', body);
  const notObject = await post([1]);
  t.equal(notObject.status, 400);
  t.equal(notObject.body.error.code, 'invalid_json');
  const badKind = await post({ url: receiver.url, events: ['job.started'] });
  t.equal(badKind.status, 422);
  t.equal(badKind.body.error.code, 'validation_failed');
  t.match(badKind.body.error.details, [{ path: 'events[0]' }]);
  const noEvents = await post({ url: receiver.url, events: [] });
  t.equal(noEvents.status, 422);
  const ftp = await post({ url: 'ftp://example.com/x', events: ['job.failed'] });
  t.equal(ftp.status, 422);
  t.match(ftp.body.error.details, [{ path: 'url', code: 'invalid_value', message: /^unsupported_scheme/ }]);
  const extra = await post({ url: receiver.url, events: ['job.failed'], secret: 'mine' });
  t.equal(extra.status, 422, 'unknown fields are refused');
  // Each message names the value it got (never "got undefined").
  t.match(badKind.body.error.details, [{ message: /; got "job\.started"$/ }]);
  const long = await post({ url: `https://example.com/${'x'.repeat(2100)}`, events: ['job.failed'] });
  t.match(long.body.error.details, [{ path: 'url', message: /at most 2048 characters long, got 2120$/ }]);
  const wrongTypes = await post({ url: 5, events: 'job.failed' });
  t.match(wrongTypes.body.error.details, [
    { path: 'url', message: 'must be a string, got a number (5)' },
    { path: 'events', message: 'must be an array, got a string ("job.failed")' },
  ]);
  for (const answer of [badKind, long, wrongTypes])
    t.notMatch(
      JSON.stringify(answer.body),
      /got (undefined|0\b)/,
      'no message says "got undefined" or "got 0" for a value that is not 0',
    );
});

t.test('private targets are refused at registration unless allowed', async (t) => {
  const { service } = running;
  const { key } = await orgWithKey(service);
  service.services.webhookAllowPrivateTargets = false;
  t.teardown(() => {
    service.services.webhookAllowPrivateTargets = true;
  });
  for (const url of [
    'http://127.0.0.1:9/x',
    'https://10.0.0.7/x',
    'http://169.254.169.254/latest',
    'http://[::1]:9/x',
    'http://localhost:9/x',
    // IPv6 forms that embed an internal IPv4 address (adapters/http/internal-address.ts)
    'http://[::127.0.0.1]:18601/',
    'http://[::ffff:0:7f00:1]/',
    'http://[2002:7f00:1::1]/',
    'http://[64:ff9b:1::1]/',
    'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    'http://[3fff::1]/',
  ]) {
    const res = await call(service.url, key, 'POST', '/v1/webhook_endpoints', { url, events: ['job.succeeded'] });
    t.equal(res.status, 422, url);
    t.match(res.body.error.details, [{ path: 'url', code: 'invalid_value', message: /^private_target/ }], url);
  }
  t.same((await call(service.url, key, 'GET', '/v1/webhook_endpoints')).body.data, [], 'nothing registered');
});

t.test('scopes: new keys have webhooks:read and webhooks:write; keys with the older scopes do not', async (t) => {
  const { service } = running;
  const o = await orgWithKey(service);
  const old = await createApiKey(service.services.store, {
    orgId: o.orgId,
    memberId: o.ownerId,
    name: 'old',
    now: new Date().toISOString(),
    scopes: ['pack:write', 'jobs:read', 'account:read', 'resources:read', 'resources:write'],
  });
  await service.services.projections.waitFor(old.position);
  const list = await call(service.url, old.secret, 'GET', '/v1/webhook_endpoints');
  t.equal(list.status, 403);
  t.equal(list.body.error.code, 'scope_missing');
  t.equal(
    (
      await call(service.url, old.secret, 'POST', '/v1/webhook_endpoints', {
        url: receiver.url,
        events: ['job.failed'],
      })
    ).body.error.code,
    'scope_missing',
  );
  t.equal((await call(service.url, o.key, 'GET', '/v1/webhook_endpoints')).status, 200);
});

t.test('a receiver answering 500 three times gets the delivery on the fourth attempt', async (t) => {
  const { service } = running;
  const { key } = await orgWithKey(service);
  const flaky = await startWebhookReceiver();
  t.teardown(() => flaky.close());
  flaky.answer = (n) => (n < 3 ? 500 : 200);
  const endpoint = (
    await call(service.url, key, 'POST', '/v1/webhook_endpoints', { url: flaky.url, events: ['job.succeeded'] })
  ).body;
  const job = (await call(service.url, key, 'POST', '/v1/pack?wait=60', PACK)).body;
  t.equal(job.status, 'succeeded');
  await flaky.until((r) => r.length >= 4);
  t.same(
    flaky.received.map((r) => r.status),
    [500, 500, 500, 200],
  );
  const ids = new Set(flaky.received.map((r) => r.headers['packing-event-id']));
  t.equal(ids.size, 1, 'every attempt carries the same event id');
  t.same(
    flaky.received.map((r) => r.headers['packing-delivery-attempt']),
    ['1', '2', '3', '4'],
  );
  for (const r of flaky.received) {
    t.match(
      verifyWebhookSignature(r.body, r.headers['packing-signature'] as string, endpoint.secret),
      { ok: true },
      'signed with the endpoint secret',
    );
    t.equal(r.body, flaky.received[0]!.body, 'the same body every time');
  }
  const event = JSON.parse(flaky.received[3]!.body);
  t.match(event, {
    id: /^evt_/,
    type: 'job.succeeded',
    created_at: String,
    data: { job: { id: job.id, object: 'job', status: 'succeeded' } },
  });
  t.equal(event.id, [...ids][0]);
  const shown = (await call(service.url, key, 'GET', `/v1/jobs/${job.id}`)).body;
  t.same(event.data.job.cost, shown.cost, 'the job as GET /v1/jobs/{id} shows it, cost settled');
  // The attempts are events: the read model lists them once the fourth is stored.
  let deliveries: any;
  for (;;) {
    deliveries = (await call(service.url, key, 'GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`)).body;
    if (deliveries.data[0]?.status === 'succeeded') break;
    await service.services.projections.sync(1000);
  }
  t.equal(deliveries.data.length, 1);
  t.match(deliveries.data[0], {
    object: 'webhook_delivery',
    endpoint_id: endpoint.id,
    event_id: event.id,
    type: 'job.succeeded',
    job_id: job.id,
    status: 'succeeded',
    next_attempt_at: null,
  });
  t.same(
    deliveries.data[0].attempts.map((a: any) => [a.attempt, a.status_code, a.succeeded]),
    [
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 200, true],
    ],
  );
  const times = deliveries.data[0].attempts.map((a: any) => Date.parse(a.attempted_at));
  t.ok(
    times[3] - times[2] >= 200 && times[2] - times[1] >= 100 && times[1] - times[0] >= 50,
    'waits double from the 50 ms base',
  );
});

t.test('only subscribed kinds are sent; a canceled job sends job.canceled', async (t) => {
  const { service } = running;
  const { key } = await orgWithKey(service);
  const hooks = await startWebhookReceiver();
  t.teardown(() => hooks.close());
  await call(service.url, key, 'POST', '/v1/webhook_endpoints', { url: hooks.url, events: ['job.canceled'] });
  const done = (await call(service.url, key, 'POST', '/v1/pack?wait=60', PACK)).body;
  t.equal(done.status, 'succeeded');
  // A load that cannot converge early (as in account.test.ts): it computes until canceled.
  const items = Array.from({ length: 200 }, (_, i) => ({
    id: `sku-${i}`,
    length: 20 + (i % 37),
    width: 15 + (i % 23),
    height: 10 + (i % 29),
    weight: 3,
    quantity: 10,
  }));
  const queued = (
    await call(service.url, key, 'POST', '/v1/pack', {
      vehicles: [{ vehicle_id: 'van-3-5t' }],
      items,
      options: { packing_mode: 'fleet_only', time_limit: 60 },
    })
  ).body;
  const canceled = await call(service.url, key, 'DELETE', `/v1/jobs/${queued.id}`);
  t.equal(canceled.body.status, 'canceled', JSON.stringify(canceled.body));
  await hooks.until((r) => r.length >= 1);
  const event = JSON.parse(hooks.received[0]!.body);
  t.equal(event.type, 'job.canceled');
  t.equal(event.data.job.id, queued.id);
  t.equal(hooks.received.length, 1, 'the succeeded job was not sent to a job.canceled endpoint');
});
