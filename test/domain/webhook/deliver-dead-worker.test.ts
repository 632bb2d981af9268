/**
 * A scheduler that dies between its claim and its record (domain/webhook/deliver.ts, the attempt
 * claim): two delivery workers, as two scheduler processes run them, on one SQLite event store,
 * each through a view of its own whose appends answer as the EventStoreDB adapter's do
 * (test/helpers/eventstoredb-appends.ts), and a real receiver on loopback that fails some first
 * attempts (500). Worker A POSTs its first round and dies after one POST, before storing it; while its lease stands
 * nobody sends that attempt, and once the lease has ended worker B claims it again and sends it.
 * That one attempt reaches the receiver twice (at-least-once after a crash, the same event id and
 * attempt number) and it is the only duplicate. Times come from a clock the test moves.
 */
import t from 'tap';
import { httpWebhookSender } from '../../../adapters/http/webhook-sender.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { serviceActor } from '../../../domain/decider/actor.js';
import { handleCommand, loadState } from '../../../domain/decider/handle.js';
import type { AttemptOutcome } from '../../../domain/webhook/delivery.js';
import type { WebhookRequest, WebhookSender } from '../../../domain/ports/webhook-sender.js';
import { WebhookDelivery, type WebhookPost } from '../../../domain/webhook/deliver.js';
import { deliveryIdOf, webhookDeliveryDecider, webhookEventIdOf } from '../../../domain/webhook/delivery.js';
import { webhookEndpointDecider } from '../../../domain/webhook/endpoint.js';
import { webhookDeliveryStream, webhookEndpointStream } from '../../../domain/webhook/streams.js';
import { withEventStoreDbAppends } from '../../helpers/eventstoredb-appends.js';
import { startWebhookReceiver } from '../../helpers/webhook-receiver.js';

t.setTimeout(60_000);
const actor = serviceActor('admin');
const NOW = '2026-11-22T10:00:00.000Z';
const at = (ms: number): string => new Date(Date.parse(NOW) + ms).toISOString();
const LEASE_MS = 30_000;
const DELIVERIES = 40;

t.test(
  'a worker dead between claim and record: its attempt is sent again once, after the lease, and is the only duplicate',
  async (t) => {
    const receiver = await startWebhookReceiver();
    t.teardown(() => receiver.close());
    // Every fourth event (not the doomed one) fails its first attempt: retries are raced for too.
    const failing = (body: string) => Number(JSON.parse(body).n) % 4 === 1;
    receiver.answer = (_n, body) => (failing(body) && !receiver.received.some((r) => r.body === body) ? 500 : 200);

    const store = new SqliteEventStore(':memory:');
    t.teardown(() => store.close());
    await handleCommand(store, webhookEndpointStream('whe_1'), webhookEndpointDecider, {
      type: 'RegisterWebhookEndpoint',
      data: { endpointId: 'whe_1', orgId: 'org_a', url: receiver.url, events: ['job.succeeded'], secret: 'whsec_1' },
      metadata: { now: NOW, actor },
    });
    const ids: string[] = [];
    for (let n = 0; n < DELIVERIES; n++) {
      const source = `job_${n}:settled`;
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
          jobId: `job_${n}`,
          body: JSON.stringify({ id: eventId, n }),
          sourcePosition: n + 1,
        },
        metadata: { now: NOW, actor },
      });
      ids.push(deliveryId);
    }
    const doomed = ids[0]!;

    let clock = NOW;
    const http = httpWebhookSender({ allowPrivate: true });
    // Worker A's sender POSTs the doomed delivery and then never answers its worker (the process
    // died after the receiver got the request): no record is stored. It lets go only at the end.
    let letGo: ((outcome: AttemptOutcome) => void) | undefined;
    const dying: WebhookSender = {
      async send(req: WebhookRequest, signal?: AbortSignal) {
        if (req.headers['packing-event-id'] !== webhookEventIdOf('job_0:settled')) return http.send(req, signal);
        await http.send(req, signal);
        return new Promise<AttemptOutcome>((resolve) => (letGo = resolve));
      },
    };
    const posts: (WebhookPost & { by: string })[] = [];
    let postTold: (() => void) | undefined;
    /** Resolves once the workers told of `count` POSTs by `by`. */
    const told = (by: string, count: number) =>
      new Promise<void>((resolve) => {
        postTold = () => {
          if (posts.filter((p) => p.by === by).length >= count) resolve();
        };
        postTold();
      });
    let tries = 0;
    const worker = (name: 'a' | 'b', sender: WebhookSender, due: string[]) => {
      const view = withEventStoreDbAppends(store);
      return new WebhookDelivery({
        store: view,
        clock: () => clock,
        sender,
        policy: { baseMs: 1000, maxDelayMs: 1000, windowMs: 3_600_000 },
        leaseMs: LEASE_MS,
        claimantId: () => `${name}-${++tries}`,
        pollMs: 60_000,
        async due(now) {
          const pending: string[] = [];
          for (const id of due) {
            const { state } = await loadState(view, webhookDeliveryStream(id), webhookDeliveryDecider);
            if (state.status === 'pending' && state.nextAttemptAt !== null && state.nextAttemptAt <= now)
              pending.push(id);
          }
          return pending;
        },
        onAttempt: (post) => {
          posts.push({ ...post, by: name });
          postTold?.();
        },
        onError: (err) => t.fail(`${name}: ${String(err)}`),
      });
    };
    const a = worker('a', dying, ids);
    const b = worker('b', http, ids);

    // A claims every delivery and POSTs them; after the doomed one's POST it dies: that round of A
    // never ends. Its other POSTs end and are stored (a quarter of them failed, due again in 1 s).
    const deadRound = a.deliverDue();
    await receiver.until((r) => r.some((x) => x.headers['packing-event-id'] === webhookEventIdOf('job_0:settled')));
    await told('a', DELIVERIES - 1);
    const later = (ms: number) => (clock = new Date(Date.parse(clock) + ms).toISOString());
    // B goes on alone: the retries, a second later; the doomed delivery's claim still stands.
    const before = receiver.received.length;
    t.equal(await b.deliverDue(), 1, 'at once only the doomed delivery is due for B (A stored the others)');
    t.equal(receiver.received.length, before, "and B does not send it: A's claim stands");
    later(1000);
    await b.deliverDue();
    later(1000);
    const latest = async (id: string) =>
      (await loadState(store, webhookDeliveryStream(id), webhookDeliveryDecider)).state;
    t.match(
      await latest(doomed),
      { status: 'pending', attempts: 0, claim: { attempt: 1, take: 1, claimantId: /^a-/ } },
      "the dead worker's claim stands, its attempt unrecorded",
    );
    t.equal(
      receiver.received.filter((r) => r.headers['packing-event-id'] === webhookEventIdOf('job_0:settled')).length,
      1,
      'nobody sends it while the lease stands',
    );

    clock = at(LEASE_MS);
    await b.deliverDue();
    t.match(
      await latest(doomed),
      { status: 'succeeded', attempts: 1, claim: null },
      'sent again after the lease ended, by the live worker',
    );

    const perAttempt = new Map<string, number>();
    for (const r of receiver.received) {
      const key = `${String(r.headers['packing-event-id'])}#${String(r.headers['packing-delivery-attempt'])}`;
      perAttempt.set(key, (perAttempt.get(key) ?? 0) + 1);
    }
    const twice = [...perAttempt.entries()].filter(([, n]) => n > 1).map(([k]) => k);
    t.same(
      twice,
      [`${webhookEventIdOf('job_0:settled')}#1`],
      "exactly one attempt POSTed twice: the dead worker's, claimed again after its lease",
    );
    t.equal(
      new Set(receiver.received.map((r) => r.headers['packing-event-id'])).size,
      DELIVERIES,
      'every event reached the receiver',
    );
    const retried = DELIVERIES / 4;
    t.equal(
      receiver.received.length,
      DELIVERIES + retried + 1,
      `${DELIVERIES} first attempts, ${retried} retries after a 500, one resend after the crash`,
    );
    for (const id of ids) t.match(await latest(id), { status: 'succeeded' }, `${id} succeeded`);
    const doomedClaims = (await store.readStream(webhookDeliveryStream(doomed)))
      .filter((e) => e.type === 'WebhookAttemptClaimed')
      .map((e) => e.data as { attempt: number; claimantId: string });
    t.match(
      doomedClaims,
      [
        { attempt: 1, claimantId: /^a-/ },
        { attempt: 1, claimantId: /^b-/ },
      ],
      "two claims of attempt 1: the dead worker's, then the live one's",
    );
    t.same(
      posts.filter((p) => p.deliveryId === doomed).map((p) => [p.by, p.attempt, p.take, p.recorded]),
      [['b', 1, 2, true]],
      'the live worker told of its POST under the second take',
    );

    // The dead worker's request ends (nothing of it is stored: the attempt is recorded already).
    await a.stop();
    letGo?.({ statusCode: null, error: 'the process died' });
    await deadRound;
    t.match(await latest(doomed), { status: 'succeeded', attempts: 1 });
    t.match(
      posts.filter((p) => p.deliveryId === doomed && p.by === 'a'),
      [{ attempt: 1, take: 1, statusCode: null, recorded: false }],
      "the dead worker's late line: not recorded",
    );
    t.ok(
      posts.some((p) => p.by === 'a' && p.deliveryId !== doomed) &&
        posts.some((p) => p.by === 'b' && p.deliveryId !== doomed),
      'both workers sent others',
    );
  },
);
