/**
 * X-Credits-Remaining of a 202 from POST /v1/pack comes from the ledger's funds right after the
 * admission (the state the AdmitJob command returned), not from a second read of the balance:
 * it equals the balance the read models show once they include the admission.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startService, type RunningService } from '../../service/server.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import { BALANCES } from '../../projections/balances/projection.js';
import type { ReadDocument } from '../../domain/ports/read-store.js';
import { call } from '../helpers/service-process.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-credits-header-'));
let service: RunningService;

t.before(async () => {
  service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
  });
});
t.teardown(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A long search (200 kinds of boxes, 30 s allowed) that keeps the one compute slot busy. */
const busy = {
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: Array.from({ length: 200 }, (_, i) => ({
    id: `sku-${i}`,
    length: 20 + (i % 37),
    width: 15 + (i % 23),
    height: 10 + (i % 29),
    weight: 3,
    quantity: 10,
  })),
  options: { packing_mode: 'fleet_only', time_limit: 30 },
};
const small = {
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [{ id: 'carton', length: 60, width: 40, height: 40, weight: 12, quantity: 20 }],
};

t.test('a 202 states the credits left after its own reservation, read from the admission', async (t) => {
  const now = new Date().toISOString();
  const org = await provisionOrganization(service.services.store, {
    name: 'Header',
    ownerName: 'O',
    subscriptionCredits: 50,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
    limits: { concurrency: 1 },
  });
  const key = await createApiKey(service.services.store, { orgId: org.orgId, memberId: org.ownerId, name: 'k', now });
  await service.services.projections.waitFor(key.position);

  // Count the balance reads of the request (the read models' own work aside).
  const reads = service.services.reads;
  const collection = reads.collection.bind(reads);
  let balanceReads = 0;
  reads.collection = <T extends ReadDocument>(name: string) => {
    const c = collection<T>(name);
    if (name !== BALANCES) return c;
    return Object.assign(Object.create(c) as typeof c, {
      get: (id: string) => {
        // The balances projection reads its own documents while it applies the admission.
        if (!new Error().stack!.includes('balances/projection')) balanceReads += 1;
        return c.get(id);
      },
    });
  };
  t.teardown(() => {
    reads.collection = collection;
  });

  const first = await call(service.url, key.secret, 'POST', '/v1/pack', busy);
  t.equal(first.status, 202);
  balanceReads = 0;
  const second = await call(service.url, key.secret, 'POST', '/v1/pack', small);
  t.equal(second.status, 202, 'queued behind the busy job');
  t.ok(balanceReads <= 1, `${balanceReads} balance read(s) for the request: at most authentication's`);

  const header = Number(second.headers.get('x-credits-remaining'));
  const balance = (await call(service.url, key.secret, 'GET', '/v1/balance')).body;
  t.equal(balance.reserved_credits > 0, true, 'both jobs hold credits');
  t.equal(header, balance.available_credits, 'the header is the balance after the admission');
  t.equal(Number((50 - header).toFixed(6)), balance.reserved_credits, 'nothing charged yet: only held');

  for (const id of [second.body.id, first.body.id]) {
    const canceled = await call(service.url, key.secret, 'DELETE', `/v1/jobs/${id}`);
    t.ok([200, 409].includes(canceled.status), `job ${id} canceled (${canceled.status})`);
  }
});
