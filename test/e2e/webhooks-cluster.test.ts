/**
 * Webhooks from two scheduler processes (domain/webhook/deliver.ts, dispatch.ts) on the
 * multi-process profile (test/helpers/local-cluster.ts): nats-server, one API process, two
 * projector/scheduler processes and one solver node, separate processes sharing one SQLite event
 * store file. 200 small jobs end; the receiver is sometimes slow and fails some first attempts
 * (500). It counts each `Packing-Event-Id`: every job's event arrives, no attempt is POSTed twice,
 * each event is answered 200 once, and each POST has its log line in the process that sent it.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../../domain/digest.js';
import { provisionClusterOrganization, startLocalCluster, type LocalCluster } from '../helpers/local-cluster.js';
import { natsServerBinary } from '../helpers/nats-server.js';
import { call } from '../helpers/service-process.js';
import { startWebhookReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.js';

t.setTimeout(300_000);
const JOBS = 200;
const PACK = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: [{ length: 10, width: 10, height: 10, weight: 1 }],
  options: { time_limit: 1 },
};

/** A number in [0, 1) drawn from `text`: which events fail or are slow. */
const draw = (text: string): number => parseInt(sha256Hex(text).slice(0, 8), 16) / 2 ** 32;
const eventOf = (r: ReceivedWebhook): string => r.headers['packing-event-id'] as string;
const jobOf = (r: ReceivedWebhook): string => (JSON.parse(r.body) as { data: { job: { id: string } } }).data.job.id;
const isPostLine = (e: Record<string, unknown>): boolean =>
  e['msg'] === 'webhook delivered' || e['msg'] === 'webhook attempt failed';

if (!natsServerBinary()) {
  if (process.env['CI']) t.fail('nats-server is not installed, and CI must run the multi-process tests');
  else t.pass('skipped: no nats-server', { skip: "nats-server is not installed (bash .ci/run installs Debian's)" });
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'packing-webhooks-cluster-'));
  let cluster: LocalCluster | undefined;
  t.teardown(async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  t.test(`two scheduler processes, ${JOBS} events: each attempt POSTed once, every event delivered`, async (t) => {
    const receiver = await startWebhookReceiver();
    t.teardown(() => receiver.close());
    receiver.answer = (_n, body) => {
      const id = (JSON.parse(body) as { id: string }).id;
      return draw(`fail ${id}`) < 1 / 6 && !receiver.received.some((r) => eventOf(r) === id) ? 500 : 200;
    };
    receiver.delayMs = (n) => (draw(`slow ${n}`) < 1 / 4 ? Math.floor(draw(`wait ${n}`) * 150) : 0);

    const org = await provisionClusterOrganization(dataDir, 'Hooks', { maxQueuedJobs: 10_000 });
    const started = Date.now();
    cluster = await startLocalCluster({
      dataDir,
      apis: 1,
      cores: 2,
      solvers: 1,
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_POLL_MS: '50' },
    });
    const api = cluster.apis[0]!.url;
    const endpoint = await call(api, org.key, 'POST', '/v1/webhook_endpoints', {
      url: receiver.url,
      events: ['job.succeeded', 'job.failed'],
    });
    t.equal(endpoint.status, 201);
    const jobs: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const posted = await call(api, org.key, 'POST', '/v1/pack', PACK);
      if (posted.status !== 202) t.fail(`POST /v1/pack answered ${posted.status}: ${JSON.stringify(posted.body)}`);
      jobs.push(posted.body.id as string);
    }
    await receiver.until((r) => new Set(r.filter((x) => x.status === 200).map(jobOf)).size >= JOBS, 240_000);
    const cores = cluster.cores;
    const postLines = () => cores.flatMap((c) => c.entries.filter(isPostLine));
    // A POST's line is written once its attempt is stored, after the receiver counted it: wait for
    // the lines not there yet, in whichever process logs them.
    const lineOf = (r: ReceivedWebhook) => (e: Record<string, unknown>) =>
      isPostLine(e) && e['eventId'] === eventOf(r) && String(e['attempt']) === r.headers['packing-delivery-attempt'];
    const allLogged = () => receiver.received.every((r) => postLines().some(lineOf(r)));
    if (!allLogged()) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`${postLines().length} POST lines for ${receiver.received.length} POSTs after 30 s`));
        }, 30_000);
        // The cluster helper parses each output chunk into `entries` before this listener runs (it listens first).
        const check = () => {
          if (!allLogged()) return;
          stop();
          resolve();
        };
        const stop = () => {
          clearTimeout(timer);
          for (const c of cores) c.child.stdout!.off('data', check);
        };
        for (const c of cores) c.child.stdout!.on('data', check);
      });
    }

    const byAttempt = new Map<string, number>();
    const byEvent = new Map<string, ReceivedWebhook[]>();
    for (const r of receiver.received) {
      const key = `${eventOf(r)}#${String(r.headers['packing-delivery-attempt'])}`;
      byAttempt.set(key, (byAttempt.get(key) ?? 0) + 1);
      byEvent.set(eventOf(r), [...(byEvent.get(eventOf(r)) ?? []), r]);
    }
    const twice = [...byAttempt.entries()].filter(([, n]) => n > 1).map(([k]) => k);
    const lines = postLines();
    t.comment(
      `${receiver.received.length} POSTs for ${byEvent.size} events in ${Date.now() - started} ms; attempts POSTed more than once: ${twice.length}; POST lines: ${cores.map((c) => `${c.name} ${c.entries.filter(isPostLine).length}`).join(', ')}`,
    );
    t.same(twice, [], 'no attempt POSTed twice');
    t.equal(byEvent.size, JOBS, 'one event id per job');
    t.same(new Set([...byEvent.values()].map((rs) => jobOf(rs[0]!))), new Set(jobs), 'every job delivered');
    t.same(
      [...byEvent.entries()].filter(([, rs]) => rs.filter((r) => r.status === 200).length !== 1).map(([id]) => id),
      [],
      'each event answered 200 exactly once',
    );
    t.equal(lines.length, receiver.received.length, 'one log line per POST');
    t.same(
      receiver.received.filter((r) => !lines.some(lineOf(r))).length,
      0,
      "each POST's line names its event id and attempt",
    );
    t.ok(
      lines.every((e) => /^whd_/.test(String(e['deliveryId']))),
      'and its delivery id',
    );
    t.ok(
      cores.every((c) => c.entries.some(isPostLine)),
      'both scheduler processes sent',
    );
  });
}
