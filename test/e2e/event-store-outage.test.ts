/**
 * The API while its event store fails (README "When an engine is down"): reads are answered from
 * the read models (200), writes with 503 `api_disabled` and Retry-After (never 500), and `/health`
 * says `event_store: down since …`: degraded for an API process (it keeps serving reads, so it
 * stays in the load balancer), 503 for the embedded process once past the grace period (its
 * scheduler, projector and solver need the store). The failures are injected by a decorator
 * around the real SQLite store (ServiceConfig.decorateStore).
 */
import t from 'tap';
import type { Profile } from '../../service/profile.js';
import { startService } from '../../service/server.js';
import type { EventStore } from '../../domain/ports/event-store.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { RACE_BODY } from '../helpers/idempotency-race.js';
import { call } from '../helpers/service-process.js';

const GRACE_MS = 300;

/** `inner` failing every call but subscriptions with a refused connection while `fault.down`. */
function switchableStore(inner: EventStore, fault: { down: boolean }): EventStore {
  const guard = <T>(work: () => Promise<T>): Promise<T> =>
    fault.down
      ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED (injected)'), { code: 'ECONNREFUSED' }))
      : work();
  return {
    append: (s, e, x) => guard(() => inner.append(s, e, x)),
    readStream: (s, f) => guard(() => inner.readStream(s, f)),
    readLastEvent: (s) => guard(() => inner.readLastEvent(s)),
    readAll: (a, l) => guard(() => inner.readAll(a, l)),
    headPosition: () => guard(() => inner.headPosition()),
    deleteStream: (s) => guard(() => inner.deleteStream(s)),
    subscribeAll: (a) => inner.subscribeAll(a),
    close: () => inner.close(),
  };
}

/** Polls GET /health until `check` holds for its answer (every 20 ms, at most 10 s). */
async function healthUntil(url: string, check: (res: { status: number; body: any }) => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await call(url, null, 'GET', '/health');
    if (check(res)) return res;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last /health: ${res.status} ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** An API process of the multi-process profile: shared SQLite log, its own read models, no bus. */
const API_ONLY: Profile = {
  roles: new Set(['api']),
  eventStore: { kind: 'sqlite' },
  readStore: { kind: 'memory' },
  bus: { kind: 'nats', url: 'nats://127.0.0.1:4222', ackWaitMs: 30_000 },
};

t.test(
  'an API process: reads 200, writes 503 + Retry-After, /health degraded (not 503) even past the grace period',
  async (t) => {
    const fault = { down: false };
    const running = inProcessService(t, 'api-store-outage', {
      profile: API_ONLY,
      decorateStore: (store) => switchableStore(store, fault),
      dependencyGraceMs: GRACE_MS,
      dependencyProbeMs: 50,
    });
    await t.test('outage', async (t) => {
      const { service } = running;
      const org = await orgWithKey(service);
      const posted = await call(service.url, org.key, 'POST', '/v1/pack', RACE_BODY);
      t.equal(posted.status, 202);
      const healthy = await call(service.url, null, 'GET', '/health');
      t.same(healthy.body.dependencies, { event_store: 'up', read_store: 'up' }, 'an API process uses no bus');
      t.equal(healthy.body.status, 'ok');

      fault.down = true;
      const refused = await call(service.url, org.key, 'POST', '/v1/pack', RACE_BODY);
      t.equal(refused.status, 503, 'a write while the event store fails');
      t.equal(refused.body.error.code, 'api_disabled');
      t.match(refused.body.error.message, /event store is unavailable/);
      t.equal(refused.headers.get('retry-after'), '5');
      t.equal(refused.body.error.request_id, refused.headers.get('x-request-id'));

      const job = await call(service.url, org.key, 'GET', `/v1/jobs/${posted.body.id as string}`);
      t.equal(job.status, 200, 'a read is answered from the read models');
      t.equal(job.body.id, posted.body.id);
      t.equal((await call(service.url, org.key, 'GET', '/v1/jobs?limit=5')).status, 200, 'the job list too');
      t.equal((await call(service.url, org.key, 'GET', '/v1/balance')).status, 200, 'and the balance');

      const degraded = await call(service.url, null, 'GET', '/health');
      t.equal(degraded.status, 200);
      t.equal(degraded.body.status, 'degraded');
      t.match(degraded.body.dependencies.event_store, /^down since \d{4}-\d\d-\d\dT[\d:.]+Z$/);
      const since = Date.parse(String(degraded.body.dependencies.event_store).slice('down since '.length));
      const past = await healthUntil(service.url, () => Date.now() - since > 2 * GRACE_MS, 'twice the grace period');
      t.equal(past.status, 200, 'past the grace period an API process stays in the load balancer: it serves reads');
      t.equal(past.body.status, 'degraded');

      fault.down = false;
      const back = await healthUntil(
        service.url,
        (res) => res.body.status === 'ok',
        'the probe to find the event store back',
      );
      t.same(back.body.dependencies, { event_store: 'up', read_store: 'up' });
      t.equal((await call(service.url, org.key, 'POST', '/v1/pack', RACE_BODY)).status, 202, 'writes work again');
    });
  },
);

t.test(
  'the embedded process: writes 503, reads 200, /health 503 down past the grace period, 200 once the store is back',
  async (t) => {
    const fault = { down: false };
    const running = inProcessService(t, 'embedded-store-outage', {
      decorateStore: (store) => switchableStore(store, fault),
      dependencyGraceMs: GRACE_MS,
      dependencyProbeMs: 50,
    });
    await t.test('outage', async (t) => {
      const { service } = running;
      const org = await orgWithKey(service);
      const posted = await call(service.url, org.key, 'POST', '/v1/pack', RACE_BODY);
      t.equal(posted.status, 202);
      t.same(
        (await call(service.url, null, 'GET', '/health')).body.dependencies,
        { event_store: 'up', read_store: 'up', bus: 'up' },
        'the in-process bus is up',
      );

      fault.down = true;
      const refused = await call(service.url, org.key, 'DELETE', `/v1/jobs/${posted.body.id as string}`);
      t.equal(refused.status, 503, 'a cancel while the event store fails');
      t.equal(refused.body.error.code, 'api_disabled');
      t.equal(refused.headers.get('retry-after'), '5');
      t.equal(
        (await call(service.url, org.key, 'GET', `/v1/jobs/${posted.body.id as string}`)).status,
        200,
        'reads from the read models',
      );

      const down = await healthUntil(
        service.url,
        (res) => res.status === 503,
        '/health to turn 503 past the grace period',
      );
      t.equal(down.body.status, 'down');
      t.equal(down.body.error.code, 'api_disabled', 'the error envelope of every non-2xx answer');
      t.match(down.body.error.message, /event_store down since/);
      t.match(down.body.dependencies, { event_store: /^down since /, read_store: 'up', bus: 'up' });
      t.equal(down.headers.get('retry-after'), '5');

      fault.down = false;
      const back = await healthUntil(
        service.url,
        (res) => res.status === 200 && res.body.status === 'ok',
        'the store to be back',
      );
      t.same(back.body.dependencies, { event_store: 'up', read_store: 'up', bus: 'up' });
    });
  },
);

t.test(
  'DEPENDENCY_GRACE_MS must be a whole number of milliseconds: a bad value stops the start, naming it',
  async (t) => {
    const saved = process.env['DEPENDENCY_GRACE_MS'];
    process.env['DEPENDENCY_GRACE_MS'] = 'a minute';
    t.teardown(() => {
      if (saved === undefined) delete process.env['DEPENDENCY_GRACE_MS'];
      else process.env['DEPENDENCY_GRACE_MS'] = saved;
    });
    await t.rejects(startService({ port: 0, host: '127.0.0.1', dataDir: '/nonexistent/never-made' }), {
      name: 'ProfileError',
      variable: 'DEPENDENCY_GRACE_MS',
      message: /DEPENDENCY_GRACE_MS must be a whole number of milliseconds/,
    });
  },
);
