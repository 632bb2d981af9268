/**
 * The CheckpointFollower (API and scheduler processes beside a projector in another process, as
 * with MongoDB): here the projector is a ProjectionRunner writing to the same read store. The
 * follower announces an event only once every projection's checkpoint has reached it.
 */
import t from 'tap';
import { MemoryReadStore } from '../../adapters/memory/read-store.js';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { provisionOrganization } from '../../application/provision.js';
import { PROJECTIONS } from '../../service/server.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import { CheckpointFollower } from '../../projections/follower.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../../projections/organizations/projection.js';
import { ProjectionRunner } from '../../projections/runner.js';

t.test('the follower waits for the projector, then follows it event by event', async (t) => {
  const store = new SqliteEventStore(':memory:');
  const reads = new MemoryReadStore();
  const now = new Date().toISOString();
  const first = await provisionOrganization(store, {
    name: 'Before',
    ownerName: 'O',
    subscriptionCredits: 1,
    expiresAt: null,
    now,
  });
  const follower = new CheckpointFollower(
    store,
    reads,
    PROJECTIONS.map((p) => p.name),
  );
  let caughtUp = false;
  const following = follower.catchUp().then(() => {
    caughtUp = true;
  });
  // Nothing is projected yet: the follower must not claim the head.
  await new Promise((r) => setImmediate(r));
  t.equal(caughtUp, false, 'not caught up before the projector ran');
  const runner = new ProjectionRunner(store, reads, [...PROJECTIONS]);
  await runner.catchUp();
  await following;
  t.equal(follower.position, first.position, 'caught up to the head once the projector is');

  const seen: RecordedEvent[] = [];
  follower.onApplied((e) => seen.push(e));
  const second = await provisionOrganization(store, {
    name: 'After',
    ownerName: 'O',
    subscriptionCredits: 1,
    expiresAt: null,
    now,
  });
  t.equal(await follower.waitFor(second.position, 10_000), true, 'the new events reach the follower');
  t.ok(seen.length >= 3, `each event announced (${seen.length})`);
  t.ok(runner.position >= second.position, 'never ahead of the projector');
  const created = seen.find((e) => e.type === 'OrganizationCreated');
  t.equal(
    created && (await reads.collection<OrganizationDocument>(ORGANIZATIONS).get(second.orgId))?.name,
    'After',
    'the document was written when it was announced',
  );
  t.equal(await follower.sync(1000), true, 'sync: nothing stored beyond what the follower has');
  await follower.stop();
  await runner.stop();
  await store.close();
});
