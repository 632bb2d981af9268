/**
 * Webhooks with two schedulers (domain/webhook/deliver.ts, dispatch.ts): the service in this
 * process (embedded profile: its scheduler runs the webhook dispatcher and delivery worker) and a
 * second scheduler's dispatcher and worker started on the same event store with `startWebhooks`,
 * as a second scheduler process runs them. Each scheduler reaches the store through a view of its
 * own (its own command queue and folded-state cache, as a process has) whose appends answer as the
 * EventStoreDB adapter's do (test/helpers/eventstoredb-appends.ts: two identical appends racing at
 * the same expected revision both report `written: true`).
 *
 * At least 200 jobs end; the receiver is sometimes slow (waits before answering) and sometimes
 * fails (500 to a first attempt), so retries are raced for too. It counts each `Packing-Event-Id`:
 * every event arrives, each attempt is POSTed once, each event is answered 200 once, and every POST
 * has its log line (delivery id, attempt, event id) from the scheduler that sent it.
 */
import t from 'tap';
import { pino, type Logger } from 'pino';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import { startWebhooks } from '../../service/webhooks.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import { DEFAULT_RETRY_POLICY } from '../../domain/webhook/retry-policy.js';
import { sha256Hex } from '../../domain/digest.js';
import { withEventStoreDbAppends } from '../helpers/eventstoredb-appends.js';
import { inProcessService } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { startWebhookReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.js';

t.setTimeout(180_000);

const JOBS = 210;
const RETRY_BASE_MS = 50;
const POLL_MS = 20;
const PACK = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: [{ length: 10, width: 10, height: 10, weight: 1 }],
  options: { time_limit: 1 },
};

/** Log lines of the POSTs (service/webhooks.ts: 'webhook delivered' or 'webhook attempt failed'), of both schedulers. */
const postLines: Record<string, unknown>[] = [];
let postLineAdded: (() => void) | undefined;

/** A logger that keeps its JSON lines in `entries` and the POST lines also in `postLines`. */
function capturingLogger(entries: Record<string, unknown>[]): Logger {
  return pino(
    { level: 'info' },
    {
      write: (line: string) => {
        const entry = JSON.parse(line) as Record<string, unknown>;
        entries.push(entry);
        if (entry['msg'] === 'webhook delivered' || entry['msg'] === 'webhook attempt failed') {
          postLines.push(entry);
          postLineAdded?.();
        }
      },
    },
  );
}

/** Resolves once `count` POST lines were logged; rejects after `timeoutMs`. */
function postLinesReach(count: number, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${postLines.length} POST log lines, awaited ${count}`)),
      timeoutMs,
    );
    postLineAdded = () => {
      if (postLines.length < count) return;
      clearTimeout(timer);
      postLineAdded = undefined;
      resolve();
    };
    postLineAdded();
  });
}

const logA: Record<string, unknown>[] = [];
const logB: Record<string, unknown>[] = [];
let plain: EventStore | undefined;
const viewA: { view?: ReturnType<typeof withEventStoreDbAppends> } = {};
const running = inProcessService(t, 'webhooks-two-schedulers', {
  log: capturingLogger(logA),
  webhooks: { allowPrivateTargets: true, retryBaseMs: RETRY_BASE_MS, pollMs: POLL_MS },
  decorateStore: (store) => {
    plain = store;
    viewA.view = withEventStoreDbAppends(store);
    return viewA.view;
  },
});

/** A number in [0, 1) drawn from `text` (the same for the same text): which events fail or are slow. */
const draw = (text: string): number => parseInt(sha256Hex(text).slice(0, 8), 16) / 2 ** 32;

const eventOf = (r: ReceivedWebhook): string => r.headers['packing-event-id'] as string;
const attemptOf = (r: ReceivedWebhook): string => r.headers['packing-delivery-attempt'] as string;
const jobOf = (r: ReceivedWebhook): string => (JSON.parse(r.body) as { data: { job: { id: string } } }).data.job.id;

t.test(
  `two schedulers, ${JOBS} events, a slow and failing receiver: each attempt POSTed once, every event delivered`,
  async (t) => {
    const { service } = running;
    const receiver = await startWebhookReceiver();
    t.teardown(() => receiver.close());
    // One event in six fails its first attempt (500); one request in four waits up to 150 ms.
    receiver.answer = (_n, body) => {
      const id = (JSON.parse(body) as { id: string }).id;
      return draw(`fail ${id}`) < 1 / 6 && !receiver.received.some((r) => eventOf(r) === id) ? 500 : 200;
    };
    receiver.delayMs = (n) => (draw(`slow ${n}`) < 1 / 4 ? Math.floor(draw(`wait ${n}`) * 150) : 0);

    const viewB = withEventStoreDbAppends(plain!);
    const stopB = await startWebhooks(
      { ...service.services, store: viewB, log: capturingLogger(logB) },
      {
        baseUrl: service.url,
        allowPrivateTargets: true,
        policy: { ...DEFAULT_RETRY_POLICY, baseMs: RETRY_BASE_MS },
        pollMs: POLL_MS,
      },
    );
    try {
      const now = new Date().toISOString();
      const org = await provisionOrganization(service.services.store, {
        name: 'Two schedulers',
        ownerName: 'Owner',
        subscriptionCredits: 100_000,
        expiresAt: '2099-01-01T00:00:00.000Z',
        now,
        limits: { maxQueuedJobs: 10_000, rateLimits: { perMinute: 100_000, perHour: 100_000, perDay: 100_000 } },
      });
      const key = await createApiKey(service.services.store, {
        orgId: org.orgId,
        memberId: org.ownerId,
        name: 'test',
        now,
      });
      await service.services.projections.waitFor(key.position);
      const endpoint = (
        await call(service.url, key.secret, 'POST', '/v1/webhook_endpoints', {
          url: receiver.url,
          events: ['job.succeeded', 'job.failed'],
        })
      ).body;
      t.match(endpoint, { id: /^whe_/ });

      const jobs: string[] = [];
      for (let i = 0; i < JOBS; i++) {
        const posted = await call(service.url, key.secret, 'POST', '/v1/pack', PACK);
        t.equal(posted.status, 202, 'job accepted', { diagnostic: posted.status !== 202 });
        jobs.push(posted.body.id as string);
      }
      const answered200 = (r: ReceivedWebhook[]) => new Set(r.filter((x) => x.status === 200).map(jobOf));
      await receiver.until((r) => answered200(r).size >= JOBS, 150_000);

      const byAttempt = new Map<string, number>();
      const byEvent = new Map<string, ReceivedWebhook[]>();
      for (const r of receiver.received) {
        const key = `${eventOf(r)}#${attemptOf(r)}`;
        byAttempt.set(key, (byAttempt.get(key) ?? 0) + 1);
        byEvent.set(eventOf(r), [...(byEvent.get(eventOf(r)) ?? []), r]);
      }
      const twice = [...byAttempt.entries()].filter(([, n]) => n > 1).map(([k]) => k);
      const refusedClaims = [viewA.view!, viewB].reduce(
        (n, v) => n + (v.counts.refusedByType.get('WebhookAttemptClaimed') ?? 0),
        0,
      );
      t.comment(
        `${receiver.received.length} POSTs for ${byEvent.size} events; attempts POSTed more than once: ${twice.length}; claims refused by the expected revision: ${refusedClaims}; appends answered written though raced: A ${viewA.view!.counts.racedWritten}, B ${viewB.counts.racedWritten}`,
      );
      t.same(twice, [], 'no attempt POSTed twice');
      t.ok(
        refusedClaims > 0,
        `the schedulers raced for attempts: ${refusedClaims} claims were refused by the expected revision`,
      );
      t.equal(byEvent.size, JOBS, 'one event id per job');
      t.same(new Set([...byEvent.values()].map((rs) => jobOf(rs[0]!))), new Set(jobs), 'every job delivered');
      const okTwice = [...byEvent.entries()]
        .filter(([, rs]) => rs.filter((r) => r.status === 200).length !== 1)
        .map(([id]) => id);
      t.same(okTwice, [], 'each event answered 200 exactly once');
      const retried = [...byEvent.values()].filter((rs) => rs.length > 1).length;
      t.ok(retried > 0, `${retried} events were retried after a 500`);

      // Every POST has its log line, from the scheduler that sent it.
      // A POST's line is written once its answer came and its attempt was stored (after the receiver counted it).
      await postLinesReach(receiver.received.length);
      const posts = postLines;
      t.equal(posts.length, receiver.received.length, 'one log line per POST');
      const logged = new Set(posts.map((e) => `${String(e['eventId'])}#${String(e['attempt'])}`));
      t.same(
        [...byAttempt.keys()].filter((k) => !logged.has(k)),
        [],
        'each POST names its event id and attempt',
      );
      t.ok(
        posts.every((e) => typeof e['deliveryId'] === 'string' && /^whd_/.test(e['deliveryId'])),
        'each POST names its delivery id',
      );
      const sentBy = {
        a: logA.filter((e) => posts.includes(e)).length,
        b: logB.filter((e) => posts.includes(e)).length,
      };
      t.ok(sentBy.a > 0 && sentBy.b > 0, `both schedulers sent (A ${sentBy.a}, B ${sentBy.b} POSTs)`);
    } finally {
      await stopB();
    }
  },
);
