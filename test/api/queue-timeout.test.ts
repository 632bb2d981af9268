/** A job that waits too long for a compute slot fails with queue_timeout and costs nothing (spec States). */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { call } from '../helpers/service-process.js';
import { computing, untilJob } from '../helpers/job-state.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-queue-'));
// Long enough that the busy job, queued for the few ms its start takes, is never expired itself
// on a loaded machine; short enough that the waiting job's expiry comes soon.
const QUEUE_TIMEOUT_MS = 2000;
let service: RunningService;
let key: string;

t.before(async () => {
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    queueTimeoutMs: QUEUE_TIMEOUT_MS,
    log: pino({ level: 'silent' }),
  });
  key = readFileSync(join(dir, 'demo-api-key'), 'utf8').trim();
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

t.test(
  'queued behind a long job past the timeout: failed queue_timeout, charged 0, reservation released',
  async (t) => {
    // The solver warms its threads first; a job waiting for that longer than the timeout expires
    // too (it has not begun computing): go on once one small job has succeeded.
    for (let attempt = 0; attempt < 10; attempt++) {
      const warm = await call(service.url, key, 'POST', '/v1/pack?wait=60', {
        vehicles: [{ vehicle_id: 'rigid-7-5t' }],
        items: [{ id: 'c', length: 60, width: 40, height: 40, weight: 12, quantity: 1 }],
      });
      if (warm.body.status === 'succeeded') break;
    }
    // A load that cannot converge early keeps the only compute slot busy.
    const items = Array.from({ length: 200 }, (_, i) => ({
      id: `sku-${i}`,
      length: 20 + (i % 37),
      width: 15 + (i % 23),
      height: 10 + (i % 29),
      weight: 3,
      quantity: 10,
    }));
    const busy = await call(service.url, key, 'POST', '/v1/pack', {
      vehicles: [{ vehicle_id: 'van-3-5t' }],
      items,
      options: { packing_mode: 'fleet_only', time_limit: 30 },
    });
    t.equal(busy.status, 202);
    t.equal(
      (await untilJob(service.services, busy.body.id, 'computing', computing)).status,
      'running',
      'the long job computes in the slot',
    );
    const posted = Date.now();
    const waiting = await call(service.url, key, 'POST', '/v1/pack', {
      vehicles: [{ vehicle_id: 'rigid-7-5t' }],
      items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 5 }],
    });
    // Queued; on a machine slow enough to answer after the timeout, already expired by it.
    if (waiting.body.status !== 'queued')
      t.same(
        [waiting.body.status, waiting.body.error?.code],
        ['failed', 'queue_timeout'],
        'queued, or already expired',
      );
    t.equal(waiting.body.started_at, null, 'it never got the slot');
    const ended = await call(service.url, key, 'GET', `/v1/jobs/${waiting.body.id}?wait=60`);
    t.ok(Date.now() - posted >= QUEUE_TIMEOUT_MS, 'it ended only after the queue timeout');
    t.equal(ended.body.status, 'failed');
    t.equal(ended.body.error.code, 'queue_timeout');
    t.equal(ended.body.started_at, null);
    t.equal(ended.body.cost.credits, 0);
    await call(service.url, key, 'DELETE', `/v1/jobs/${busy.body.id}`);
    const balance = await call(service.url, key, 'GET', '/v1/balance');
    t.equal(balance.body.reserved_credits, 0);
  },
);
