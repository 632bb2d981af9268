/**
 * An admission whose store write fails half way (DESIGN §4.1 admission; spec Endpoints,
 * "Idempotency"), through HTTP against the real service with a fault-injecting decorator around
 * the event store port: whether the job was queued is decided on its own stream (VoidJob), so
 * - a JobQueued write that was stored but answered with an error still answers the job, and a
 *   retry with the key replays it (one job, one hold);
 * - a request body write that failed leaves nothing queued or held, the key's claim is released,
 *   and the retry makes the one job.
 */
import t from 'tap';
import type { EventStore } from '../../domain/ports/event-store.js';
import { ledgerStream } from '../../domain/ledger/streams.js';
import { loadState } from '../../domain/decider/handle.js';
import { ledgerDecider } from '../../domain/ledger/decide.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { storeView } from '../helpers/store-view.js';

/** Which append fails next, and how: after it was stored (a lost answer) or before. */
let fault: { type: string; stored: boolean } | null = null;

/** The store with the next append carrying an event of `fault.type` failing once. */
function faulty(inner: EventStore): EventStore {
  return storeView(inner, async (stream, events, expected) => {
    const hit = fault && events.some((e) => e.type === fault!.type) ? fault : null;
    if (!hit) return inner.append(stream, events, expected);
    fault = null;
    if (hit.stored) await inner.append(stream, events, expected);
    throw new Error(`injected: append of ${hit.type} ${hit.stored ? 'stored, answer lost' : 'failed'}`);
  });
}

const svc = inProcessService(t, 'admission-faults', { decorateStore: faulty });
const body = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 4 }],
};

async function post(
  key: string,
  idempotencyKey?: string,
): Promise<{ status: number; body: any; replayed: boolean; retryAfter: string | null }> {
  const res = await fetch(`${svc.service.url}/v1/pack`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: await res.json(),
    replayed: res.headers.get('idempotent-replayed') === 'true',
    retryAfter: res.headers.get('retry-after'),
  };
}

/** Job ids admitted (held) and queued for the organization, from the log. */
async function jobsOf(orgId: string): Promise<{ admitted: string[]; queued: string[] }> {
  const store = svc.service.services.store;
  const admitted = (await store.readStream(ledgerStream(orgId)))
    .filter((e) => e.type === 'JobAdmitted')
    .map((e) => (e.data as { jobId: string }).jobId);
  const queued: string[] = [];
  for (const e of await store.readAll(0, 100_000))
    if (e.type === 'JobQueued' && (e.data as { orgId: string }).orgId === orgId)
      queued.push((e.data as { jobId: string }).jobId);
  return { admitted, queued };
}

t.test('JobQueued stored but its answer lost: the request answers the job, a retry replays it', async (t) => {
  const org = await orgWithKey(svc.service);
  fault = { type: 'JobQueued', stored: true };
  const first = await post(org.key, 'lost-answer');
  t.equal(first.status, 202, `the job, not a 500 (${JSON.stringify(first.body).slice(0, 200)})`);
  t.equal(fault, null, 'the fault fired');
  const retry = await post(org.key, 'lost-answer');
  t.equal(retry.body.id, first.body.id, 'the retry names the same job');
  t.equal(retry.replayed, true);
  t.same(await jobsOf(org.orgId), { admitted: [first.body.id], queued: [first.body.id] }, 'one hold, one job');
});

t.test('the same without a key: the request answers the job it queued', async (t) => {
  const org = await orgWithKey(svc.service);
  fault = { type: 'JobQueued', stored: true };
  const first = await post(org.key);
  t.equal(first.status, 202);
  t.same(await jobsOf(org.orgId), { admitted: [first.body.id], queued: [first.body.id] });
});

t.test(
  'the request body not stored: 503 (the store failed; retry), nothing queued, the hold released, and the retry with the key makes the one job',
  async (t) => {
    const org = await orgWithKey(svc.service);
    fault = { type: 'RequestStored', stored: false };
    const first = await post(org.key, 'failed-write');
    t.equal(first.status, 503, 'a store that failed is a retryable 503, not a 500');
    t.equal(first.body.error.code, 'api_disabled');
    t.ok(Number(first.retryAfter) > 0, `Retry-After ${first.retryAfter}`);
    const afterFailure = await jobsOf(org.orgId);
    t.equal(afterFailure.queued.length, 0, 'nothing queued');
    const { state } = await loadState(svc.service.services.store, ledgerStream(org.orgId), ledgerDecider);
    t.equal(state.holds.size, 0, 'no credits held');
    const retry = await post(org.key, 'failed-write');
    t.equal(retry.status, 202, 'the retry creates the job at once (the claim was released, not left pending)');
    t.equal(retry.replayed, false);
    const after = await jobsOf(org.orgId);
    t.same(after.queued, [retry.body.id], 'one job');
  },
);
