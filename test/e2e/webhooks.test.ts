/**
 * Webhooks across a crash, on the real service started as a child process
 * (`node service/main.ts`, embedded profile, WEBHOOK_ALLOW_PRIVATE_TARGETS=true so the loopback
 * receiver is allowed, WEBHOOK_RETRY_BASE_MS=300). The receiver first answers 500 to everything,
 * so deliveries wait in their stored retry schedule; the service is killed with SIGKILL (one more
 * job possibly open), the receiver starts answering 200 and the service is started again. Every
 * finished job then has exactly one event id, verified with the endpoint's secret, answered 200
 * exactly once. Delivery is at least once by design (a crash between the receiver's answer and
 * the stored attempt sends again with the same event id); receivers de-duplicate by event id, as
 * this test does when it counts events.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyWebhookSignature } from '../../clients/typescript/src/webhook-signature.js';
import { call, startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { startWebhookReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.js';

const dataDir = mkdtempSync(join(tmpdir(), 'packing-webhooks-e2e-'));
const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '300', WEBHOOK_POLL_MS: '50' };
const PACK = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: [{ length: 10, width: 10, height: 10, weight: 1 }],
  options: { time_limit: 5 },
};
let service: ServiceProcess | undefined;
t.teardown(async () => {
  await service?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const jobOf = (r: ReceivedWebhook): string => JSON.parse(r.body).data.job.id;

t.test('one verified event per finished job across a kill -9', async (t) => {
  const receiver = await startWebhookReceiver();
  t.teardown(() => receiver.close());
  let healthy = false;
  receiver.answer = () => (healthy ? 200 : 500);

  service = await startServiceProcess(dataDir, ENV);
  const endpoint = (
    await call(service.url, service.key, 'POST', '/v1/webhook_endpoints', {
      url: receiver.url,
      events: ['job.succeeded', 'job.failed', 'job.canceled'],
    })
  ).body;
  t.match(endpoint, { id: /^whe_/, secret: /^whsec_/ });

  const jobs: string[] = [];
  for (let i = 0; i < 2; i++) {
    const job = (await call(service.url, service.key, 'POST', '/v1/pack?wait=60', PACK)).body;
    t.equal(job.status, 'succeeded');
    jobs.push(job.id);
  }
  // Both deliveries were tried (and refused with 500): they now wait for their next attempt.
  await receiver.until((r) => jobs.every((id) => r.some((x) => jobOf(x) === id)));
  // One more job, not waited for: it may end before the kill (then it is delivered) or be open (then it fails with server_restarted).
  const open = (await call(service.url, service.key, 'POST', '/v1/pack', PACK)).body;
  jobs.push(open.id);
  await service.stop('SIGKILL');

  healthy = true;
  service = await startServiceProcess(dataDir, ENV);
  const ended = (await call(service.url, service.key, 'GET', `/v1/jobs/${open.id}?wait=60`)).body;
  t.ok(['succeeded', 'failed'].includes(ended.status), `the open job ended: ${ended.status}`);
  const after = (await call(service.url, service.key, 'POST', '/v1/pack?wait=60', PACK)).body;
  t.equal(after.status, 'succeeded');
  jobs.push(after.id);

  const answered200 = (r: ReceivedWebhook[], id: string) => r.some((x) => x.status === 200 && jobOf(x) === id);
  await receiver.until((r) => jobs.every((id) => answered200(r, id)));

  const byEvent = new Map<string, ReceivedWebhook[]>();
  for (const r of receiver.received) {
    const check = verifyWebhookSignature(r.body, r.headers['packing-signature'] as string, endpoint.secret, {
      toleranceSeconds: 600,
    });
    t.equal(check.ok, true, 'every request is signed with the endpoint secret');
    const id = r.headers['packing-event-id'] as string;
    t.equal(JSON.parse(r.body).id, id, 'the body id is the Packing-Event-Id header');
    byEvent.set(id, [...(byEvent.get(id) ?? []), r]);
  }
  t.equal(byEvent.size, jobs.length, `${jobs.length} jobs, as many distinct event ids`);
  for (const id of jobs) {
    const events = [...byEvent.entries()].filter(([, rs]) => rs.some((r) => jobOf(r) === id));
    t.equal(events.length, 1, `job ${id}: one event id`);
    const [eventId, requests] = events[0]!;
    t.equal(requests.filter((r) => r.status === 200).length, 1, `job ${id}: answered 200 once (${eventId})`);
    t.ok(
      requests.every((r) => r.body === requests[0]!.body),
      'the same body on every attempt',
    );
  }
  const kinds = [...byEvent.values()].map((rs) => JSON.parse(rs[0]!.body).type);
  t.ok(
    kinds.every((k) => k === 'job.succeeded' || k === 'job.failed'),
    `kinds: ${kinds.join(', ')}`,
  );

  const deliveries = (
    await call(service.url, service.key, 'GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=100`)
  ).body;
  t.equal(deliveries.data.length, jobs.length, 'one delivery per job listed on the endpoint');
});
