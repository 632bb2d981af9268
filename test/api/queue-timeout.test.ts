/** A job that waits too long for a compute slot fails with queue_timeout and costs nothing (spec States). */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../api/server.js';
import { call } from '../helpers/service-process.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-queue-'));
let service: RunningService;
let key: string;

t.before(async () => {
  service = await startService({ port: 0, host: '127.0.0.1', dataDir: dir, solverThreads: 1, queueTimeoutMs: 400, log: pino({ level: 'silent' }) });
  key = readFileSync(join(dir, 'demo-api-key'), 'utf8').trim();
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

t.test('queued behind a long job past the timeout: failed queue_timeout, charged 0, reservation released', async (t) => {
  // A load that cannot converge early keeps the only compute slot busy.
  const items = Array.from({ length: 200 }, (_, i) => ({ id: `sku-${i}`, length: 20 + (i % 37), width: 15 + (i % 23), height: 10 + (i % 29), weight: 3, quantity: 10 }));
  const busy = await call(service.url, key, 'POST', '/v1/pack', { vehicles: [{ vehicle_id: 'van-3-5t' }], items, options: { packing_mode: 'fleet_only', time_limit: 30 } });
  t.equal(busy.status, 202);
  const waiting = await call(service.url, key, 'POST', '/v1/pack', {
    vehicles: [{ vehicle_id: 'rigid-7-5t' }],
    items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 5 }],
  });
  t.equal(waiting.body.status, 'queued');
  const ended = await call(service.url, key, 'GET', `/v1/jobs/${waiting.body.id}?wait=10`);
  t.equal(ended.body.status, 'failed');
  t.equal(ended.body.error.code, 'queue_timeout');
  t.equal(ended.body.started_at, null);
  t.equal(ended.body.cost.credits, 0);
  await call(service.url, key, 'DELETE', `/v1/jobs/${busy.body.id}`);
  const balance = await call(service.url, key, 'GET', '/v1/balance');
  t.equal(balance.body.reserved_credits, 0);
});
