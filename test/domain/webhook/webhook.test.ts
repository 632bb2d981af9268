/**
 * The webhook deciders (domain/webhook): endpoint registration and deletion, the delivery's
 * schedule, attempt claims, attempts and drop (given events, when a command, then events; fixed
 * clock); the retry policy's backoff and window; and the webhooks projection applied twice
 * changing nothing, and ignoring attempt claims.
 */
import t from 'tap';
import { webhookEndpointDecider, type WebhookEndpointEvent } from '../../../domain/webhook/endpoint.js';
import {
  deliveryIdOf,
  webhookDeliveryDecider,
  webhookEventIdOf,
  type WebhookDeliveryEvent,
} from '../../../domain/webhook/delivery.js';
import { DEFAULT_RETRY_POLICY, nextAttemptAt, type RetryPolicy } from '../../../domain/webhook/retry-policy.js';
import { kindOfOutcome } from '../../../domain/webhook/event-kinds.js';
import { webhooksProjection, WEBHOOK_DELIVERIES, WEBHOOK_ENDPOINTS } from '../../../projections/webhooks/projection.js';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import type { RecordedEvent } from '../../../domain/ports/event-store.js';
import { ACTOR, after, deciderSpec, LATER, NOW } from '../../helpers/decider-spec.js';

const meta = (now = NOW) => ({ now, actor: ACTOR });
const registered: WebhookEndpointEvent = {
  type: 'WebhookEndpointRegistered',
  data: {
    endpointId: 'whe_1',
    orgId: 'org_a',
    url: 'https://hooks.example.com/x',
    events: ['job.succeeded'],
    secret: 'whsec_s',
    createdAt: NOW,
    createdBy: ACTOR,
  },
};

t.test('endpoint: register once, delete only the own live endpoint', async (t) => {
  const { given } = deciderSpec(t, webhookEndpointDecider);
  given([])
    .when({
      type: 'RegisterWebhookEndpoint',
      data: {
        endpointId: 'whe_1',
        orgId: 'org_a',
        url: 'https://hooks.example.com/x',
        events: ['job.succeeded'],
        secret: 'whsec_s',
      },
      metadata: meta(),
    })
    .then([registered]);
  given([registered])
    .when({
      type: 'RegisterWebhookEndpoint',
      data: {
        endpointId: 'whe_1',
        orgId: 'org_a',
        url: 'https://x.example',
        events: ['job.failed'],
        secret: 'whsec_t',
      },
      metadata: meta(),
    })
    .thenThrows('conflict');
  const deleted: WebhookEndpointEvent = {
    type: 'WebhookEndpointDeleted',
    data: { endpointId: 'whe_1', orgId: 'org_a', deletedAt: LATER, deletedBy: ACTOR },
  };
  given([registered])
    .when({ type: 'DeleteWebhookEndpoint', data: { endpointId: 'whe_1', orgId: 'org_a' }, metadata: meta(LATER) })
    .then([deleted]);
  given([registered])
    .when({ type: 'DeleteWebhookEndpoint', data: { endpointId: 'whe_1', orgId: 'org_b' }, metadata: meta(LATER) })
    .thenThrows('not_found');
  given([registered, deleted])
    .when({ type: 'DeleteWebhookEndpoint', data: { endpointId: 'whe_1', orgId: 'org_a' }, metadata: meta(LATER) })
    .thenThrows('not_found');
  given([])
    .when({ type: 'DeleteWebhookEndpoint', data: { endpointId: 'whe_1', orgId: 'org_a' }, metadata: meta(LATER) })
    .thenThrows('not_found');
});

const policy: RetryPolicy = { baseMs: 1000, maxDelayMs: 4000, windowMs: 10_000 };
const deliveryId = deliveryIdOf('whe_1', 'job_1:settled');
const scheduledData = {
  deliveryId,
  endpointId: 'whe_1',
  orgId: 'org_a',
  eventId: webhookEventIdOf('job_1:settled'),
  type: 'job.succeeded' as const,
  jobId: 'job_1',
  body: '{}',
  sourcePosition: 7,
};
const scheduled: WebhookDeliveryEvent = {
  type: 'WebhookDeliveryScheduled',
  id: `${deliveryId}:scheduled`,
  data: { ...scheduledData, scheduledAt: NOW },
};
const attempt = (n: number, now: string, statusCode: number | null) => ({
  type: 'RecordWebhookAttempt' as const,
  data: { deliveryId, attempt: n, outcome: { statusCode, error: statusCode === null ? 'ECONNREFUSED' : null }, policy },
  metadata: meta(now),
});
const attempted = (
  n: number,
  now: string,
  statusCode: number | null,
  succeeded: boolean,
  next: string | null,
): WebhookDeliveryEvent => ({
  type: 'WebhookDeliveryAttempted',
  id: `${deliveryId}:attempt:${n}`,
  data: {
    deliveryId,
    endpointId: 'whe_1',
    orgId: 'org_a',
    attempt: n,
    attemptedAt: now,
    statusCode,
    error: statusCode === null ? 'ECONNREFUSED' : null,
    succeeded,
    nextAttemptAt: next,
  },
});

t.test('delivery: ids are derived, stable and distinct per endpoint', async (t) => {
  t.equal(deliveryIdOf('whe_1', 'e1'), deliveryIdOf('whe_1', 'e1'));
  t.not(deliveryIdOf('whe_1', 'e1'), deliveryIdOf('whe_2', 'e1'));
  t.match(deliveryIdOf('whe_1', 'e1'), /^whd_[0-9a-f]{24}$/);
  t.match(webhookEventIdOf('e1'), /^evt_[0-9a-f]{24}$/);
  t.not(webhookEventIdOf('e1'), webhookEventIdOf('e2'));
});

t.test('delivery: scheduled once, attempts counted, backoff then success', async (t) => {
  const { given } = deciderSpec(t, webhookDeliveryDecider);
  given([]).when({ type: 'ScheduleWebhookDelivery', data: scheduledData, metadata: meta() }).then([scheduled]);
  given([scheduled])
    .when({ type: 'ScheduleWebhookDelivery', data: scheduledData, metadata: meta(LATER) })
    .thenNothing('scheduling again records nothing');
  const a1 = attempted(1, NOW, 500, false, after(1000));
  given([scheduled])
    .when(attempt(1, NOW, 500))
    .then([a1]);
  given([scheduled])
    .when(attempt(2, NOW, 500))
    .thenNothing('only the next attempt number');
  const a2 = attempted(2, after(1000), null, false, after(3000));
  given([scheduled, a1])
    .when(attempt(2, after(1000), null))
    .then([a2]);
  given([scheduled, a1])
    .when(attempt(1, after(1000), 200))
    .thenNothing('attempt 1 was recorded already');
  const a3 = attempted(3, after(3000), 204, true, null);
  const done = given([scheduled, a1, a2])
    .when(attempt(3, after(3000), 204))
    .then([a3]);
  t.equal(done.state.status, 'succeeded');
  given([scheduled, a1, a2, a3])
    .when(attempt(4, after(9000), 500))
    .thenNothing('a succeeded delivery is never attempted again');
});

t.test('delivery: given up when the next attempt would leave the window; dropped only while pending', async (t) => {
  const { given } = deciderSpec(t, webhookDeliveryDecider);
  const out = given([scheduled])
    .when(attempt(1, after(9500), 503))
    .then([attempted(1, after(9500), 503, false, null)]);
  t.equal(out.state.status, 'failed');
  const dropped: WebhookDeliveryEvent = {
    type: 'WebhookDeliveryDropped',
    id: `${deliveryId}:dropped`,
    data: { deliveryId, endpointId: 'whe_1', orgId: 'org_a', reason: 'endpoint_deleted', droppedAt: LATER },
  };
  given([scheduled])
    .when({ type: 'DropWebhookDelivery', data: { deliveryId }, metadata: meta(LATER) })
    .then([dropped]);
  given([scheduled, dropped])
    .when(attempt(1, LATER, 200))
    .thenNothing();
  given([scheduled, attempted(1, NOW, 200, true, null)])
    .when({ type: 'DropWebhookDelivery', data: { deliveryId }, metadata: meta(LATER) })
    .thenNothing();
});

t.test('delivery: the attempt claim (lease) before each POST', async (t) => {
  const { given } = deciderSpec(t, webhookDeliveryDecider);
  const claim = (n: number, now: string, claimantId: string, leaseUntil: string) => ({
    type: 'ClaimWebhookAttempt' as const,
    data: { deliveryId, attempt: n, claimantId, leaseUntil },
    metadata: meta(now),
  });
  const claimed = (
    n: number,
    take: number,
    now: string,
    claimantId: string,
    leaseUntil: string,
  ): WebhookDeliveryEvent => ({
    type: 'WebhookAttemptClaimed',
    id: `${deliveryId}:claim:${n}:${take}:${claimantId}`,
    data: { deliveryId, endpointId: 'whe_1', orgId: 'org_a', attempt: n, claimantId, claimedAt: now, leaseUntil },
  });
  const c1 = claimed(1, 1, NOW, 'worker_a', after(30_000));
  const first = given([scheduled])
    .when(claim(1, NOW, 'worker_a', after(30_000)))
    .then([c1], 'pending, next attempt, due: claimed');
  t.same(first.state.claim, { attempt: 1, claimantId: 'worker_a', leaseUntil: after(30_000), take: 1 });
  given([scheduled])
    .when(claim(2, NOW, 'worker_a', after(30_000)))
    .thenNothing('only the next attempt number');
  given([])
    .when(claim(1, NOW, 'worker_a', after(30_000)))
    .thenNothing('no delivery, no claim');

  given([scheduled, c1])
    .when(claim(1, after(1000), 'worker_b', after(31_000)))
    .thenNothing('a second claimant while the lease stands');
  given([scheduled, c1])
    .when(claim(1, after(29_999), 'worker_b', after(59_999)))
    .thenNothing('1 ms before the lease ends');
  given([scheduled, c1])
    .when(claim(1, after(1000), 'worker_a', after(31_000)))
    .thenNothing('the holder does not renew a standing claim');
  const c1again = claimed(1, 2, after(30_000), 'worker_b', after(60_000));
  const again = given([scheduled, c1])
    .when(claim(1, after(30_000), 'worker_b', after(60_000)))
    .then([c1again], 'once the lease has ended the same attempt is claimable (a new take)');
  t.match(again.state.claim, { attempt: 1, claimantId: 'worker_b', take: 2 });
  given([scheduled, c1, c1again])
    .when(claim(1, after(45_000), 'worker_a', after(75_000)))
    .thenNothing('the new lease stands in turn');

  // Recording is unchanged (idempotent, by attempt number) and ends the claim.
  const a1 = attempted(1, after(500), 500, false, after(1500));
  const recorded = given([scheduled, c1])
    .when(attempt(1, after(500), 500))
    .then([a1]);
  t.equal(recorded.state.claim, null, 'a recorded attempt ends its claim');
  given([scheduled, c1, a1])
    .when(claim(1, after(2000), 'worker_b', after(32_000)))
    .thenNothing('a recorded attempt is not claimed again');
  given([scheduled, c1, a1])
    .when(claim(2, after(1499), 'worker_b', after(31_499)))
    .thenNothing('the next attempt is not due yet');
  given([scheduled, c1, a1])
    .when(claim(2, after(1500), 'worker_b', after(31_500)))
    .then([claimed(2, 1, after(1500), 'worker_b', after(31_500))], 'the next attempt once due');

  const dropped: WebhookDeliveryEvent = {
    type: 'WebhookDeliveryDropped',
    id: `${deliveryId}:dropped`,
    data: { deliveryId, endpointId: 'whe_1', orgId: 'org_a', reason: 'endpoint_deleted', droppedAt: LATER },
  };
  given([scheduled, c1, attempted(1, after(500), 200, true, null)])
    .when(claim(2, LATER, 'worker_b', after(3_630_000)))
    .thenNothing('delivered');
  given([scheduled, attempted(1, after(9500), 503, false, null)])
    .when(claim(2, LATER, 'worker_b', after(3_630_000)))
    .thenNothing('given up (window exhausted)');
  given([scheduled, c1, dropped])
    .when(claim(1, LATER, 'worker_b', after(3_630_000)))
    .thenNothing('dropped');
});

t.test('projection: the attempt claim changes no read-model document', async (t) => {
  const stream = `webhook-delivery-${deliveryId}`;
  const recorded = (e: { type: string; data: unknown }, position: number): RecordedEvent => ({
    id: `e${position}`,
    type: e.type,
    data: e.data,
    metadata: {},
    stream,
    revision: position,
    position,
    recordedAt: NOW,
  });
  const claimedEvent = {
    type: 'WebhookAttemptClaimed',
    data: {
      deliveryId,
      endpointId: 'whe_1',
      orgId: 'org_a',
      attempt: 1,
      claimantId: 'worker_a',
      claimedAt: NOW,
      leaseUntil: after(30_000),
    },
  };
  const withClaim = new MemoryReadStore();
  const without = new MemoryReadStore();
  await webhooksProjection.apply(recorded(scheduled, 1), withClaim);
  await webhooksProjection.apply(recorded(scheduled, 1), without);
  const beforeClaim = await withClaim.collection<any>(WEBHOOK_DELIVERIES).get(deliveryId);
  await webhooksProjection.apply(recorded(claimedEvent, 2), withClaim);
  t.same(
    await withClaim.collection<any>(WEBHOOK_DELIVERIES).get(deliveryId),
    beforeClaim,
    'the claim leaves the delivery as scheduled',
  );
  await webhooksProjection.apply(recorded(attempted(1, NOW, 200, true, null), 3), withClaim);
  await webhooksProjection.apply(recorded(attempted(1, NOW, 200, true, null), 3), without);
  const delivery = await withClaim.collection<any>(WEBHOOK_DELIVERIES).get(deliveryId);
  t.match(delivery, { status: 'succeeded', nextAttemptAt: null, position: 3 });
  t.same(
    delivery,
    await without.collection<any>(WEBHOOK_DELIVERIES).get(deliveryId),
    'the same document as without the claim',
  );
});

t.test('retry policy: doubling waits, capped, for at least a day by default', async (t) => {
  t.equal(nextAttemptAt(policy, NOW, 1, NOW), after(1000));
  t.equal(nextAttemptAt(policy, NOW, 2, NOW), after(2000));
  t.equal(nextAttemptAt(policy, NOW, 5, NOW), after(4000), 'capped at maxDelayMs');
  t.equal(nextAttemptAt(policy, NOW, 5, after(7000)), null, 'past the window');
  // The default schedule, attempt after attempt, each made when due.
  let now = NOW;
  let attempts = 0;
  for (let n = 1; ; n++) {
    attempts++;
    const next = nextAttemptAt(DEFAULT_RETRY_POLICY, NOW, n, now);
    if (next === null) break;
    now = next;
  }
  const spanMs = Date.parse(now) - Date.parse(NOW);
  t.ok(
    spanMs >= 86_400_000,
    `the last attempt is ${Math.round(spanMs / 3_600_000)} h after the first (at least a day)`,
  );
  t.ok(attempts >= 10 && attempts <= 30, `${attempts} attempts`);
});

t.test('event kinds from the settled outcome', async (t) => {
  t.equal(kindOfOutcome('succeeded'), 'job.succeeded');
  t.equal(kindOfOutcome('canceled'), 'job.canceled');
  t.equal(kindOfOutcome('time_limit_exceeded'), 'job.failed');
  t.equal(kindOfOutcome('server_restarted'), 'job.failed');
});

t.test('projection: every event applied twice leaves the documents as applied once', async (t) => {
  const recorded = (e: { type: string; data: unknown }, stream: string, position: number): RecordedEvent => ({
    id: `e${position}`,
    type: e.type,
    data: e.data,
    metadata: {},
    stream,
    revision: 0,
    position,
    recordedAt: NOW,
  });
  const events = [
    recorded(registered, 'webhook-endpoint-whe_1', 1),
    recorded(scheduled, `webhook-delivery-${deliveryId}`, 2),
    recorded(attempted(1, NOW, 500, false, after(1000)), `webhook-delivery-${deliveryId}`, 3),
    recorded(attempted(2, after(1000), 200, true, null), `webhook-delivery-${deliveryId}`, 4),
    recorded(
      {
        type: 'WebhookEndpointDeleted',
        data: { endpointId: 'whe_1', orgId: 'org_a', deletedAt: LATER, deletedBy: ACTOR },
      },
      'webhook-endpoint-whe_1',
      5,
    ),
  ];
  const once = new MemoryReadStore();
  const twice = new MemoryReadStore();
  for (const e of events) await webhooksProjection.apply(e, once);
  for (const e of events) {
    await webhooksProjection.apply(e, twice);
    await webhooksProjection.apply(e, twice);
  }
  for (const e of events) await webhooksProjection.apply(e, twice);
  const delivery = await once.collection<any>(WEBHOOK_DELIVERIES).get(deliveryId);
  t.equal(delivery.status, 'succeeded');
  t.same(
    delivery.attempts.map((a: any) => [a.attempt, a.statusCode]),
    [
      [1, 500],
      [2, 200],
    ],
  );
  const endpoint = await once.collection<any>(WEBHOOK_ENDPOINTS).get('whe_1');
  t.match(endpoint, { deleted: true, registeredPosition: 1, deletedPosition: 5 });
  t.same(await twice.collection(WEBHOOK_DELIVERIES).get(deliveryId), delivery);
  t.same(await twice.collection(WEBHOOK_ENDPOINTS).get('whe_1'), endpoint);
});
