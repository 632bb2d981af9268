/**
 * Versioned MongoDB read models (service/mongo-read-models.ts, adapters/mongodb/generations.ts),
 * through the stand-in (test/helpers/mongo-stand-in.ts: no server here): the read-store
 * contract on a prefixed generation; a projector of a new READ_MODEL_VERSION rebuilding into
 * fresh collections while a follower keeps serving the old ones, then the switch; an
 * `admin rebuild-read-models` beside a running projector; a stamp of another version ignored.
 */
import t, { type Test } from 'tap';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { ReadModelGenerations } from '../../adapters/mongodb/generations.js';
import { MongoReadStore } from '../../adapters/mongodb/read-store.js';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { followGenerations, MongoProjector, rebuildMongoReadModels } from '../../service/mongo-read-models.js';
import { provisionOrganization } from '../../application/provision.js';
import { PROJECTIONS } from '../../projections/all.js';
import { CheckpointFollower } from '../../projections/follower.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../../projections/organizations/projection.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { readStoreContract } from '../contracts/read-store.contract.js';
import { mongoStandIn, type StandInDb } from '../helpers/mongo-stand-in.js';

/** Resolves once `check` holds (polled every 5 ms); fails the test after 10 s. */
async function until(t: Test, what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) {
      t.fail(`timed out waiting: ${what}`);
      throw new Error(`timed out waiting: ${what}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A pino logger whose lines are collected as objects. */
function collectingLog(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

const now = new Date().toISOString();
const newOrg = (name: string) => ({ name, ownerName: 'O', subscriptionCredits: 1, expiresAt: null, now });

t.test(
  'the read-store contract on a prefixed generation: every collection and the checkpoints carry the prefix',
  async (t) => {
    const { client, dbs } = mongoStandIn();
    let n = 0;
    readStoreContract(t, async () => new MongoReadStore(client, `db${++n}`, 3));

    t.test('names', async (t) => {
      const store = new MongoReadStore(client, 'names', 3);
      await store.collection<{ id: string }>('rows').put({ id: 'a' });
      await store.setCheckpoint('p', 9);
      await store.setCheckpoint('p', 4);
      t.strictSame(
        (await client.db('names').listCollections().toArray()).map((c) => c.name),
        ['rm3_checkpoints', 'rm3_rows'],
      );
      t.strictSame(
        [...dbs.get('names')!.collection('rm3_checkpoints').docs.values()],
        [{ _id: 'p', position: 9 }],
        '$max kept 9',
      );
      store.use(4);
      t.equal(await store.collection('rows').get('a'), undefined, 'another generation: other collections');
      t.equal(await store.checkpoint('p'), 0);
      t.equal(store.atGeneration(3).generation, 3);
      t.equal(await store.atGeneration(3).checkpoint('p'), 9);
    });
  },
);

t.test('stamp documents: two builders of one version share a build; one switch from a stamp wins', async (t) => {
  const { client } = mongoStandIn();
  const generations = new ReadModelGenerations(client.db('s'));
  t.equal(await generations.active(), undefined, 'an empty database has no stamp');
  const first = await generations.stampEmpty('v1', new Date(0));
  t.strictSame(first, { generation: 1, version: 'v1', switchedAt: new Date(0).toISOString() });
  t.strictSame(await generations.stampEmpty('v9'), first, 'a second stamp of an empty database returns the first');
  const a = await generations.claimBuild('v2', true);
  const b = await generations.claimBuild('v2', true);
  t.equal(a.generation, 2);
  t.strictSame(b, a, 'the second projector joins the build');
  const forced = await generations.claimBuild('v2', false);
  t.equal(forced.generation, 3, 'a forced rebuild takes a new generation');
  const won = await generations.switchTo(forced, first, 60_000, new Date(1000));
  t.equal(won.switched, true);
  t.strictSame(won.active, {
    generation: 3,
    version: 'v2',
    switchedAt: new Date(1000).toISOString(),
    previous: { generation: 1, retireAt: new Date(61_000).toISOString() },
  });
  t.equal(await generations.build(), undefined, 'the build stamp is cleared by its switch');
  const lost = await generations.switchTo(a, first, 60_000);
  t.equal(lost.switched, false, 'a switch from a replaced stamp writes nothing');
  t.equal(lost.active.generation, 3);
});

t.test(
  'a projector of a new version rebuilds into fresh collections while a follower serves the old ones, then both switch',
  async (t) => {
    const { client } = mongoStandIn();
    const db = client.db('rm') as unknown as StandInDb;
    const store = new SqliteEventStore(':memory:');
    t.teardown(() => store.close());
    const { log, lines } = collectingLog();

    // Read models written before versioning: unprefixed collections, no stamp.
    const a = await provisionOrganization(store, newOrg('Acme'));
    const legacy = new ProjectionRunner(store, new MongoReadStore(client, 'rm'), [...PROJECTIONS]);
    await legacy.catchUp();
    await legacy.stop();
    db.collection(ORGANIZATIONS).docs.get(a.orgId)!['name'] = 'Acme (old shape)';
    db.collection('rate_limits_of_someone').docs.set('k', { _id: 'k', points: 1 }); // not a read model: never dropped

    // An API process of the new code: it serves the only read models there are.
    const apiReads = new MongoReadStore(client, 'rm');
    const stopFollowing = await followGenerations(apiReads, { version: 'v2', pollMs: 5, log });
    const follower = new CheckpointFollower(
      store,
      apiReads,
      PROJECTIONS.map((p) => p.name),
    );
    await follower.catchUp();
    t.equal(apiReads.generation, 0);

    // Hold the rebuild at its first checkpoint write, to look at both generations meanwhile.
    const checkpoints = db.collection('rm1_checkpoints');
    const write = checkpoints.updateOne.bind(checkpoints);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = false;
    checkpoints.updateOne = async (...args: Parameters<typeof write>) => {
      held = true;
      await gate;
      return write(...args);
    };

    const projector = new MongoProjector(store, new MongoReadStore(client, 'rm'), {
      version: 'v2',
      pollMs: 5,
      retireAfterMs: 300,
      log,
    });
    const building = projector.catchUp();
    await until(t, 'the rebuild writes its first checkpoint', () => held);
    const generations = new ReadModelGenerations(client.db('rm'));
    t.match(await generations.build(), { generation: 1, version: 'v2' }, 'the build is stamped');
    t.match(await generations.active(), { generation: 0, version: null }, 'generation 0 is still the active one');
    t.equal(
      db.collection('rm1_organizations').docs.get(a.orgId)?.['name'],
      'Acme',
      'the fresh collection holds the rebuilt document',
    );
    t.equal(
      (await apiReads.collection<OrganizationDocument>(ORGANIZATIONS).get(a.orgId))?.name,
      'Acme (old shape)',
      'the follower still serves the old collections',
    );
    t.equal(apiReads.generation, 0);

    release();
    await building;
    t.match(
      await generations.active(),
      { generation: 1, version: 'v2', previous: { generation: 0 } },
      'switched in the stamp',
    );
    t.equal(await generations.build(), undefined);
    t.equal(projector.generation, 1);
    t.equal(projector.position, a.position, 'the projector includes the head');
    t.ok(
      lines.some(
        (l) =>
          l['msg'] === 'read models of another version: rebuilding them from the event log into a fresh generation' &&
          l['generation'] === 1,
      ),
    );

    await until(t, 'the follower switches', () => apiReads.generation === 1);
    t.equal(
      (await apiReads.collection<OrganizationDocument>(ORGANIZATIONS).get(a.orgId))?.name,
      'Acme',
      'the follower serves the new collections',
    );
    t.ok(
      lines.some(
        (l) => l['msg'] === 'read models switched to a new generation' && l['from'] === 0 && l['generation'] === 1,
      ),
    );

    // New events: written to the new generation, announced to the follower through its checkpoints.
    const b = await provisionOrganization(store, newOrg('Bolt'));
    t.equal(await follower.waitFor(b.position, 10_000), true);
    t.equal((await apiReads.collection<OrganizationDocument>(ORGANIZATIONS).get(b.orgId))?.name, 'Bolt');
    t.equal(db.collection(ORGANIZATIONS).docs.has(b.orgId), false, 'nothing written to the old generation');

    // After the grace period the projector drops generation 0, and only read models.
    await until(
      t,
      'generation 0 is dropped',
      async () => !(await client.db('rm').listCollections().toArray()).some((c) => c.name === ORGANIZATIONS),
    );
    const left = (await client.db('rm').listCollections().toArray()).map((c) => c.name);
    t.notOk(left.includes('checkpoints'), 'the old checkpoints are dropped');
    t.ok(left.includes('rate_limits_of_someone'), 'other collections are kept');
    t.ok(left.includes('read_model_meta') && left.includes('rm1_checkpoints') && left.includes('rm1_organizations'));

    // A restart with the same version resumes: nothing rebuilt.
    await projector.stop();
    const again = new MongoProjector(store, new MongoReadStore(client, 'rm'), { version: 'v2', pollMs: 5, log });
    await again.catchUp();
    t.equal(again.generation, 1);
    t.equal(again.resumedFrom, b.position, 'resumed from its checkpoints');
    await again.stop();
    await follower.stop();
    await stopFollowing();
  },
);

t.test(
  'admin rebuild beside a running projector: fresh generation, switch, the projector and the follower move to it',
  async (t) => {
    const { client, dbs } = mongoStandIn();
    const store = new SqliteEventStore(':memory:');
    t.teardown(() => store.close());
    const { log, lines } = collectingLog();
    const a = await provisionOrganization(store, newOrg('Acme'));
    const projector = new MongoProjector(store, new MongoReadStore(client, 'rm'), { version: 'v2', pollMs: 5, log });
    await projector.catchUp();
    t.equal(projector.generation, 1, 'an empty database is stamped generation 1 at once');
    t.equal(projector.resumedFrom, 0);
    const apiReads = new MongoReadStore(client, 'rm');
    const stopFollowing = await followGenerations(apiReads, { version: 'v2', pollMs: 5, log });
    t.equal(apiReads.generation, 1);

    const report = await rebuildMongoReadModels(store, new MongoReadStore(client, 'rm'), { version: 'v2' });
    t.match(report, { generation: 2, replaced: 1, position: a.position });
    await until(t, 'the projector moves to generation 2', () => projector.generation === 2);
    await until(t, 'the follower moves to generation 2', () => apiReads.generation === 2);
    t.ok(lines.some((l) => l['msg'] === "projecting into the read models' new generation" && l['generation'] === 2));

    const b = await provisionOrganization(store, newOrg('Bolt'));
    t.equal(await projector.waitFor(b.position, 10_000), true);
    t.equal(
      (await apiReads.collection<OrganizationDocument>(ORGANIZATIONS).get(b.orgId))?.name,
      'Bolt',
      'the projector writes the new generation',
    );
    t.equal(await apiReads.checkpoint('organizations'), b.position);
    t.equal(dbs.get('rm')!.collection('rm1_organizations').docs.has(b.orgId), false, 'not the replaced one');
    await projector.stop();
    await stopFollowing();
  },
);

t.test('a stamp of another version: the follower keeps its generation and says so once', async (t) => {
  const { client } = mongoStandIn();
  const { log, lines } = collectingLog();
  const generations = new ReadModelGenerations(client.db('rm'));
  const first = await generations.stampEmpty('v2');
  const apiReads = new MongoReadStore(client, 'rm');
  const stopFollowing = await followGenerations(apiReads, { version: 'v2', pollMs: 5, log });
  const newer = await generations.claimBuild('v3', true);
  await generations.switchTo(newer, first, 60_000);
  const said = () => lines.filter((l) => String(l['msg']).startsWith('read models of another version are active'));
  await until(t, 'the follower logs the other version', () => said().length === 1);
  await new Promise((r) => setTimeout(r, 50)); // several more polls: still one line
  t.equal(said().length, 1, 'one line per stamp, not one per poll');
  t.match(said()[0], { generation: 2, storedVersion: 'v3', serving: 1, version: 'v2' });
  t.equal(apiReads.generation, 1);
  await stopFollowing();
});
