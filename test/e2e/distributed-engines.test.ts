/**
 * The service on the distributed profile's engines: EventStoreDB events, MongoDB read
 * models, in one process (in-process bus) so that only the two adapters differ from the embedded
 * run. Needs EVENTSTORE_URL and MONGODB_URL (no such server can be installed on the build
 * machines): without them it prints why it was skipped. A fresh stream namespace and database
 * per run, so a shared server is safe.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { MongoReadStore } from '../../adapters/mongodb/read-store.js';
import { createApiKey, provisionOrganization } from '../../application/provision.js';
import { profileFromEnvironment } from '../../service/profile.js';
import { startService, type RunningService } from '../../service/server.js';
import type { Plan } from '../../domain/pack/plan.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import { modelOf } from '../helpers/example-model.js';
import { call } from '../helpers/service-process.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const eventStoreUrl = process.env['EVENTSTORE_URL'];
const mongoUrl = process.env['MONGODB_URL'];

if (!eventStoreUrl || !mongoUrl) {
  t.pass('skipped', {
    skip: `${[!eventStoreUrl && 'EVENTSTORE_URL', !mongoUrl && 'MONGODB_URL'].filter(Boolean).join(' and ')} not set: no EventStoreDB or MongoDB server on this machine; set both to run the service on them`,
  });
} else {
  const run = randomBytes(4).toString('hex');
  const database = `packing_test_${run}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'packing-engines-'));
  const profile = profileFromEnvironment({
    PACKING_EVENT_STORE: 'eventstoredb',
    EVENTSTORE_URL: eventStoreUrl,
    EVENTSTORE_NAMESPACE: `t${run}-`,
    PACKING_READ_STORE: 'mongodb',
    MONGODB_URL: mongoUrl,
    MONGODB_DATABASE: database,
  });
  const start = () =>
    startService({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      profile,
      solverThreads: 1,
      solverThreadModule: solverThreadModule(),
      log: pino({ level: 'silent' }),
    });
  let service: RunningService | undefined;
  t.teardown(async () => {
    await service?.close();
    const mongo = await MongoReadStore.connect(mongoUrl, database);
    await mongo.dropDatabase();
    await mongo.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  t.test('a job runs, lists and reads back after a restart', async (t) => {
    service = await start();
    const now = new Date().toISOString();
    const org = await provisionOrganization(service.services.store, {
      name: 'Engines',
      ownerName: 'Owner',
      subscriptionCredits: 100,
      expiresAt: '2099-01-01T00:00:00.000Z',
      now,
    });
    const key = await createApiKey(service.services.store, {
      orgId: org.orgId,
      memberId: org.ownerId,
      name: 'engines',
      now,
    });
    t.ok(await service.services.projections.waitFor(key.position, 10_000), 'the key reached the MongoDB read models');
    const body = {
      vehicles: [{ vehicle_id: 'van-3-5t' }],
      items: [{ length: 60, width: 40, height: 40, weight: 10, quantity: 12 }],
      reference: 'engines-1',
    };
    const posted = await call(service.url, key.secret, 'POST', '/v1/pack?wait=60', body);
    t.equal(posted.status, 200, JSON.stringify(posted.body));
    t.equal(posted.body.status, 'succeeded');
    const result = (await call(service.url, key.secret, 'GET', `/v1/jobs/${posted.body.id}/result`)).body;
    const plan: Plan = { vehicles: result.vehicles, unplaced: result.unplaced };
    t.same(verifyPlan(modelOf(body).model, plan), [], 'the plan verifies');
    const listed = (await call(service.url, key.secret, 'GET', '/v1/jobs?reference=engines-1')).body;
    t.same(
      listed.data.map((j: { id: string }) => j.id),
      [posted.body.id],
      'the list filter ran in MongoDB',
    );
    const balance = (await call(service.url, key.secret, 'GET', '/v1/balance')).body;
    await service.close();
    service = await start();
    const again = (await call(service.url, key.secret, 'GET', `/v1/jobs/${posted.body.id}`)).body;
    t.same(
      [again.status, again.cost],
      [posted.body.status, posted.body.cost],
      'the job reads back the same after a restart',
    );
    t.same((await call(service.url, key.secret, 'GET', '/v1/balance')).body, balance, 'the balance too');
  });
}
