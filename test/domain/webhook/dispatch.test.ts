/**
 * The webhook dispatcher (domain/webhook/dispatch.ts) and delivery worker (deliver.ts) on a real
 * SQLite event store: a JobSettled schedules one delivery per subscribed live endpoint; a second
 * dispatcher reading the whole log again (a crash before its checkpoint) schedules nothing more;
 * a restarted one resumes at its stored checkpoint; the worker records each attempt once and
 * drops the delivery of a deleted endpoint. Fixed clock; in-memory stand-ins for the read models.
 */
import t, { type Test } from 'tap';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { serviceActor } from '../../../domain/decider/actor.js';
import { handleCommand, loadState } from '../../../domain/decider/handle.js';
import type { RecordedEvent } from '../../../domain/ports/event-store.js';
import type { WebhookRequest } from '../../../domain/ports/webhook-sender.js';
import { WebhookDelivery } from '../../../domain/webhook/deliver.js';
import { deliveryIdOf, webhookDeliveryDecider } from '../../../domain/webhook/delivery.js';
import { WebhookDispatch } from '../../../domain/webhook/dispatch.js';
import { webhookEndpointDecider } from '../../../domain/webhook/endpoint.js';
import {
  WEBHOOK_DELIVERY_STREAM_PREFIX,
  WEBHOOK_DISPATCH_STREAM,
  webhookDeliveryStream,
  webhookEndpointStream,
} from '../../../domain/webhook/streams.js';
import { ledgerStream } from '../../../domain/ledger/streams.js';

t.setTimeout(30_000);
const NOW = '2026-11-22T10:00:00.000Z';
const actor = serviceActor('admin');
const policy = { baseMs: 1000, maxDelayMs: 60_000, windowMs: 86_400_000 };

async function setUp(t: Test) {
  const store = new SqliteEventStore(':memory:');
  t.teardown(() => store.close());
  const register = (endpointId: string, events: ('job.succeeded' | 'job.failed')[]) =>
    handleCommand(store, webhookEndpointStream(endpointId), webhookEndpointDecider, {
      type: 'RegisterWebhookEndpoint',
      data: {
        endpointId,
        orgId: 'org_a',
        url: `https://hooks.example.com/${endpointId}`,
        events,
        secret: `whsec_${endpointId}`,
      },
      metadata: { now: NOW, actor },
    });
  const settle = (jobId: string, outcome: string) =>
    store.append(
      ledgerStream('org_a'),
      [{ id: `${jobId}:settled`, type: 'JobSettled', data: { jobId, outcome, charged: 100_000, settledAt: NOW } }],
      'any',
    );
  await register('whe_s', ['job.succeeded']);
  await register('whe_f', ['job.failed']);
  await register('whe_both', ['job.succeeded', 'job.failed']);
  return { store, settle };
}

/** A dispatcher whose read models are the endpoint streams themselves (every endpoint registered before the event). */
function dispatcher(store: SqliteEventStore) {
  return new WebhookDispatch({
    store,
    clock: () => NOW,
    async endpointsFor(_orgId, kind) {
      const ids = ['whe_s', 'whe_f', 'whe_both'];
      const live = [];
      for (const id of ids) {
        const { state } = await loadState(store, webhookEndpointStream(id), webhookEndpointDecider);
        if (state.status === 'active' && state.events.includes(kind)) live.push(id);
      }
      return live;
    },
    async jobView(jobId) {
      return { id: jobId, object: 'job' };
    },
  });
}

async function deliveriesIn(store: SqliteEventStore): Promise<RecordedEvent[]> {
  return (await store.readAll(0, 10_000)).filter(
    (e) => e.stream.startsWith(WEBHOOK_DELIVERY_STREAM_PREFIX) && e.type === 'WebhookDeliveryScheduled',
  );
}

t.test('one delivery per subscribed endpoint; reading the log again schedules nothing more', async (t) => {
  const { store, settle } = await setUp(t);
  await settle('job_1', 'succeeded');
  await settle('job_2', 'time_limit_exceeded');
  const first = dispatcher(store);
  for (const e of await store.readAll(0, 10_000)) await first.react(e);
  const scheduled = await deliveriesIn(store);
  t.same(scheduled.map((e) => [(e.data as any).jobId, (e.data as any).endpointId, (e.data as any).type]).sort(), [
    ['job_1', 'whe_both', 'job.succeeded'],
    ['job_1', 'whe_s', 'job.succeeded'],
    ['job_2', 'whe_both', 'job.failed'],
    ['job_2', 'whe_f', 'job.failed'],
  ]);
  const eventIds = new Set(
    scheduled.filter((e) => (e.data as any).jobId === 'job_1').map((e) => (e.data as any).eventId),
  );
  t.equal(eventIds.size, 1, 'one event id per job event, whichever endpoint');
  const again = dispatcher(store);
  let stored = 0;
  for (const e of await store.readAll(0, 10_000)) stored += await again.react(e);
  t.equal(stored, 0, 'a second reading stores nothing');
  t.equal((await deliveriesIn(store)).length, 4);
});

t.test('a started dispatcher checkpoints after scheduling and a restart resumes there', async (t) => {
  const { store, settle } = await setUp(t);
  const settled = await settle('job_1', 'succeeded');
  const running = dispatcher(store);
  await running.start();
  const id = deliveryIdOf('whe_s', 'job_1:settled');
  for (;;) {
    const last = await store.readLastEvent(WEBHOOK_DISPATCH_STREAM);
    if ((last?.data as { position?: number } | undefined)?.position === settled.position) break;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  t.equal((await loadState(store, webhookDeliveryStream(id), webhookDeliveryDecider)).state.status, 'pending');
  await running.stop();
  const restarted = dispatcher(store);
  const seen: number[] = [];
  const react = restarted.react.bind(restarted);
  restarted.react = async (e) => {
    seen.push(e.position);
    return react(e);
  };
  await restarted.start();
  await settle('job_2', 'succeeded');
  for (;;) {
    if ((await deliveriesIn(store)).length === 4) break;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await restarted.stop();
  t.ok(seen.length > 0 && seen.every((p) => p > settled.position), 'the restart read only events after its checkpoint');
});

t.test('the worker signs, records each attempt once, and drops deliveries of deleted endpoints', async (t) => {
  const { store, settle } = await setUp(t);
  await settle('job_1', 'succeeded');
  const d = dispatcher(store);
  for (const e of await store.readAll(0, 10_000)) await d.react(e);
  const sent: WebhookRequest[] = [];
  let clock = NOW;
  const worker = new WebhookDelivery({
    store,
    clock: () => clock,
    sender: { send: async (r) => (sent.push(r), { statusCode: r.url.endsWith('whe_s') ? 500 : 200, error: null }) },
    policy,
    leaseMs: 30_000,
    pollMs: 60_000,
    due: async () => (await deliveriesIn(store)).map((e) => (e.data as any).deliveryId),
  });
  await worker.deliverDue();
  t.same(sent.map((r) => r.url).sort(), ['https://hooks.example.com/whe_both', 'https://hooks.example.com/whe_s']);
  t.match(sent[0]!.headers['packing-signature'], /^t=\d+,v1=[0-9a-f]{64}$/);
  const s = deliveryIdOf('whe_s', 'job_1:settled');
  const state = (await loadState(store, webhookDeliveryStream(s), webhookDeliveryDecider)).state;
  t.match(state, { status: 'pending', attempts: 1, nextAttemptAt: '2026-11-22T10:00:01.000Z' });
  await worker.deliverDue();
  t.equal(sent.length, 2, 'nothing is due before the next attempt time');
  await handleCommand(store, webhookEndpointStream('whe_s'), webhookEndpointDecider, {
    type: 'DeleteWebhookEndpoint',
    data: { endpointId: 'whe_s', orgId: 'org_a' },
    metadata: { now: NOW, actor },
  });
  clock = '2026-11-22T10:00:02.000Z';
  await worker.deliverDue();
  t.equal(sent.length, 2, 'a deleted endpoint gets nothing');
  t.equal((await loadState(store, webhookDeliveryStream(s), webhookDeliveryDecider)).state.status, 'dropped');
  const both = (
    await loadState(store, webhookDeliveryStream(deliveryIdOf('whe_both', 'job_1:settled')), webhookDeliveryDecider)
  ).state;
  t.match(both, { status: 'succeeded', attempts: 1 });
});
