/**
 * The attempt claim of the webhook delivery worker (domain/webhook/deliver.ts), on a real SQLite
 * event store and a real HTTP receiver on loopback:
 * - two workers, as two scheduler processes run them, racing over the same pending deliveries
 *   POST every attempt exactly once;
 * - a claim left by a worker that died holds its attempt until the lease ends, then another
 *   worker claims it again and sends it once (at-least-once after a crash);
 * - a send still under way when the lease nears its end is cut off and stored as a failed attempt;
 * - a worker whose due deliveries are all claimed by another does not look again in a busy loop.
 */
import t, { type Test } from 'tap';
import { httpWebhookSender } from '../../../adapters/http/webhook-sender.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { serviceActor } from '../../../domain/decider/actor.js';
import { handleCommand, loadState } from '../../../domain/decider/handle.js';
import { ConcurrencyError, type EventStore } from '../../../domain/ports/event-store.js';
import { ATTEMPT_RECORD_MARGIN_MS, DELIVERIES_PER_ROUND, WebhookDelivery } from '../../../domain/webhook/deliver.js';
import { deliveryIdOf, webhookDeliveryDecider, webhookEventIdOf } from '../../../domain/webhook/delivery.js';
import { webhookEndpointDecider } from '../../../domain/webhook/endpoint.js';
import {
  WEBHOOK_DELIVERY_STREAM_PREFIX,
  webhookDeliveryStream,
  webhookEndpointStream,
} from '../../../domain/webhook/streams.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import { storeView } from '../../helpers/store-view.js';

t.setTimeout(60_000);
const actor = serviceActor('admin');
const NOW = '2026-11-22T10:00:00.000Z';
const at = (ms: number): string => new Date(Date.parse(NOW) + ms).toISOString();
const LEASE_MS = 30_000;

/**
 * The store as another process sees it: the same events, but its own folded-state cache and
 * per-stream command queue (domain/decider/handle.ts keys both by the store object), so two
 * workers decide on what each read and meet only at the expected revision, as two processes do.
 */
function asProcess(store: EventStore): EventStore {
  return storeView(store, undefined, true);
}

/** A store with one endpoint posting to `receiver` and `count` deliveries scheduled at `now`; resolves with their ids. */
async function setUp(t: Test, receiver: WebhookReceiver, count: number, now: string) {
  const store = new SqliteEventStore(':memory:');
  t.teardown(() => store.close());
  await handleCommand(store, webhookEndpointStream('whe_1'), webhookEndpointDecider, {
    type: 'RegisterWebhookEndpoint',
    data: { endpointId: 'whe_1', orgId: 'org_a', url: receiver.url, events: ['job.succeeded'], secret: 'whsec_1' },
    metadata: { now, actor },
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const source = `job_${i}:settled`;
    const deliveryId = deliveryIdOf('whe_1', source);
    const eventId = webhookEventIdOf(source);
    await handleCommand(store, webhookDeliveryStream(deliveryId), webhookDeliveryDecider, {
      type: 'ScheduleWebhookDelivery',
      data: {
        deliveryId,
        endpointId: 'whe_1',
        orgId: 'org_a',
        eventId,
        type: 'job.succeeded',
        jobId: `job_${i}`,
        body: JSON.stringify({ id: eventId, type: 'job.succeeded' }),
        sourcePosition: i + 1,
      },
      metadata: { now, actor },
    });
    ids.push(deliveryId);
  }
  return { store, ids };
}

t.test('two workers racing over the same deliveries POST every attempt exactly once', async (t) => {
  const receiver = await startWebhookReceiver();
  t.teardown(() => receiver.close());
  // The first request of each event fails, so attempt 2 (due at once: a 0 ms backoff) is raced for too.
  receiver.answer = (_n, body) => (receiver.received.some((r) => r.body === body) ? 200 : 500);
  const DELIVERIES = 50;
  const { store, ids } = await setUp(t, receiver, DELIVERIES, new Date().toISOString());
  // Claims a worker decided on and the store then refused (the other's claim was stored first, at that revision or with that id).
  const refused = { a: 0, b: 0 };
  const worker = (name: 'a' | 'b') => {
    const view = asProcess(store);
    const append = view.append.bind(view);
    view.append = async (stream, events, expected) => {
      const claim = events[0]?.type === 'WebhookAttemptClaimed';
      try {
        const result = await append(stream, events, expected);
        if (claim && !result.written) refused[name]++;
        return result;
      } catch (err) {
        if (claim && err instanceof ConcurrencyError) refused[name]++;
        throw err;
      }
    };
    let tries = 0;
    return new WebhookDelivery({
      store: view,
      clock: () => new Date().toISOString(),
      sender: httpWebhookSender({ allowPrivate: true }),
      policy: { baseMs: 0, maxDelayMs: 0, windowMs: 3_600_000 },
      leaseMs: LEASE_MS,
      claimantId: () => `${name}-${++tries}`,
      pollMs: 60_000,
      // Stands in for the read model: the first pending deliveries, the same list for both workers.
      async due(_now, limit) {
        const pending: string[] = [];
        for (const id of ids)
          if ((await loadState(view, webhookDeliveryStream(id), webhookDeliveryDecider)).state.status === 'pending')
            pending.push(id);
        return pending.slice(0, limit);
      },
      onError: (err) => t.fail(`${name}: ${String(err)}`),
    });
  };
  const a = worker('a');
  const b = worker('b');
  // Both look at once, as two schedulers polling, until neither finds a pending delivery; the one
  // that looks first changes from round to round.
  for (let round = 0; round < 20; round++) {
    const seen = await Promise.all(
      round % 2 === 0 ? [a.deliverDue(), b.deliverDue()] : [b.deliverDue(), a.deliverDue()],
    );
    if (seen[0] === 0 && seen[1] === 0) break;
  }

  const byAttempt = new Map<string, number>();
  for (const r of receiver.received) {
    const key = `${String(r.headers['packing-event-id'])}#${String(r.headers['packing-delivery-attempt'])}`;
    byAttempt.set(key, (byAttempt.get(key) ?? 0) + 1);
  }
  const twice = [...byAttempt.entries()].filter(([, n]) => n > 1);
  t.same(twice, [], 'no attempt POSTed twice');
  t.equal(receiver.received.length, 2 * DELIVERIES, `${DELIVERIES} deliveries, two attempts each (500, then 200)`);
  t.equal(byAttempt.size, 2 * DELIVERIES);
  for (const id of ids)
    t.match((await loadState(store, webhookDeliveryStream(id), webhookDeliveryDecider)).state, {
      status: 'succeeded',
      attempts: 2,
    });

  const claims = (await store.readAll(0, 100_000)).filter(
    (e) => e.stream.startsWith(WEBHOOK_DELIVERY_STREAM_PREFIX) && e.type === 'WebhookAttemptClaimed',
  );
  t.equal(claims.length, 2 * DELIVERIES, 'one stored claim per attempt');
  const wonBy = (name: string) =>
    claims.filter((e) => (e.data as { claimantId: string }).claimantId.startsWith(`${name}-`)).length;
  t.ok(wonBy('a') > 0 && wonBy('b') > 0, `both workers sent (a ${wonBy('a')}, b ${wonBy('b')} attempts)`);
  t.ok(
    refused.a + refused.b >= DELIVERIES,
    `they raced: ${refused.a + refused.b} claims decided on the state the other claimed from were refused by the store`,
  );
});

t.test('a claim left by a dead worker holds its attempt until the lease ends, then one worker sends it', async (t) => {
  const receiver = await startWebhookReceiver();
  t.teardown(() => receiver.close());
  const { store, ids } = await setUp(t, receiver, 1, NOW);
  const deliveryId = ids[0]!;
  const stream = webhookDeliveryStream(deliveryId);
  const died = await handleCommand(store, stream, webhookDeliveryDecider, {
    type: 'ClaimWebhookAttempt',
    data: { deliveryId, attempt: 1, claimantId: 'dead', leaseUntil: at(LEASE_MS) },
    metadata: { now: NOW, actor },
  });
  t.equal(died.events.length, 1);
  let clock = at(LEASE_MS - 1);
  const worker = (name: string) =>
    new WebhookDelivery({
      store: asProcess(store),
      clock: () => clock,
      sender: httpWebhookSender({ allowPrivate: true }),
      policy: { baseMs: 1000, maxDelayMs: 1000, windowMs: 3_600_000 },
      leaseMs: LEASE_MS,
      claimantId: () => name,
      pollMs: 60_000,
      due: async () => [deliveryId],
    });
  const [a, b] = [worker('a'), worker('b')];
  await Promise.all([a.deliverDue(), b.deliverDue()]);
  t.equal(receiver.received.length, 0, "nothing is sent while the dead worker's lease stands");
  clock = at(LEASE_MS);
  await Promise.all([a.deliverDue(), b.deliverDue()]);
  t.equal(receiver.received.length, 1, 'sent once after the lease ended');
  t.equal(receiver.received[0]!.headers['packing-delivery-attempt'], '1', 'the same attempt, claimed again');
  const claims = (await store.readStream(stream)).filter((e) => e.type === 'WebhookAttemptClaimed');
  t.same(claims.map((e) => [e.id, (e.data as { claimantId: string }).claimantId]).slice(0, 1), [
    [`${deliveryId}:claim:1:1:dead`, 'dead'],
  ]);
  t.equal(claims.length, 2, 'claimed a second time, by one worker');
  t.match(claims[1]!.id, new RegExp(`^${deliveryId}:claim:1:2:(a|b)$`), 'the second take, named by its claimant');
  t.match((await loadState(store, stream, webhookDeliveryDecider)).state, {
    status: 'succeeded',
    attempts: 1,
    claim: null,
  });
});

t.test('a send outlasting the lease is cut off before the lease ends and stored as a failed attempt', async (t) => {
  const receiver = await startWebhookReceiver();
  t.teardown(() => receiver.close());
  const { store, ids } = await setUp(t, receiver, 1, NOW);
  const deliveryId = ids[0]!;
  const CUT_OFF_MS = 50;
  let abortedAfterMs = -1;
  const worker = new WebhookDelivery({
    store,
    clock: () => NOW,
    // A receiver that does not answer within 5 s (the timer also keeps the test's process alive:
    // the cut-off timer, like every AbortSignal.timeout, does not).
    sender: {
      send: (_request, signal) =>
        new Promise((resolve) => {
          const started = Date.now();
          const gaveUp = setTimeout(() => resolve({ statusCode: null, error: 'not cut off within 5 s' }), 5000);
          signal?.addEventListener('abort', () => {
            clearTimeout(gaveUp);
            abortedAfterMs = Date.now() - started;
            resolve({ statusCode: null, error: 'aborted' });
          });
        }),
    },
    policy: { baseMs: 1000, maxDelayMs: 1000, windowMs: 3_600_000 },
    leaseMs: ATTEMPT_RECORD_MARGIN_MS + CUT_OFF_MS,
    pollMs: 60_000,
    due: async () => [deliveryId],
  });
  await worker.deliverDue();
  t.ok(abortedAfterMs >= CUT_OFF_MS - 5 && abortedAfterMs < CUT_OFF_MS + 1000, `cut off after ${abortedAfterMs} ms`);
  const attempted = (await store.readStream(webhookDeliveryStream(deliveryId))).find(
    (e) => e.type === 'WebhookDeliveryAttempted',
  );
  t.match(attempted?.data, {
    attempt: 1,
    statusCode: null,
    succeeded: false,
    error: `no answer within ${CUT_OFF_MS} ms (the attempt's lease)`,
    nextAttemptAt: at(1000),
  });
  t.throws(
    () =>
      new WebhookDelivery({
        store,
        clock: () => NOW,
        sender: { send: async () => ({ statusCode: 200, error: null }) },
        policy: { baseMs: 1, maxDelayMs: 1, windowMs: 1 },
        leaseMs: ATTEMPT_RECORD_MARGIN_MS,
        pollMs: 1,
        due: async () => [],
      }),
    RangeError,
  );
});

t.test(
  'a worker finding a full round of attempts claimed by another waits for the next poll instead of looking again at once',
  async (t) => {
    const receiver = await startWebhookReceiver();
    t.teardown(() => receiver.close());
    const { store, ids } = await setUp(t, receiver, DELIVERIES_PER_ROUND, NOW);
    for (const deliveryId of ids) {
      await handleCommand(store, webhookDeliveryStream(deliveryId), webhookDeliveryDecider, {
        type: 'ClaimWebhookAttempt',
        data: { deliveryId, attempt: 1, claimantId: 'other', leaseUntil: at(LEASE_MS) },
        metadata: { now: NOW, actor },
      });
    }
    let looks = 0;
    const worker = new WebhookDelivery({
      store: asProcess(store),
      clock: () => at(1000),
      sender: httpWebhookSender({ allowPrivate: true }),
      policy: { baseMs: 1000, maxDelayMs: 1000, windowMs: 3_600_000 },
      leaseMs: LEASE_MS,
      pollMs: 60_000,
      async due() {
        looks++;
        // A read model answers on a later turn of the event loop, as a real one does.
        await new Promise<void>((resolve) => setImmediate(resolve));
        return ids;
      },
    });
    worker.start();
    for (let turn = 0; turn < 200; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    await worker.stop();
    t.equal(looks, 1, 'one look in 200 turns of the event loop');
    t.equal(receiver.received.length, 0, 'nothing sent: the other worker holds every attempt');
  },
);
