/**
 * The read-model cache (projections/read-model-cache.ts) on real parts: a SQLite event store,
 * a SQLite read store (counted by a decorator that forwards every call) written by a real
 * ProjectionRunner, and in the distributed shape a CheckpointFollower over a read store file
 * another runner writes. A second read is served from memory; an applied event drops exactly
 * the entries its stream folds into; a read that began before an event and resolves after its
 * invalidation never fills the cache with the old document.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { SqliteReadStore } from '../../adapters/sqlite/read-store.js';
import { hashApiKey } from '../../application/api-key.js';
import { setMaintenance } from '../../application/operator-commands.js';
import { createApiKey, provisionOrganization, purchaseCredits, revokeApiKey } from '../../application/provision.js';
import { endSession, sessionTokenHash, startSession } from '../../application/sessions.js';
import type { ReadCollection, ReadDocument, ReadStore } from '../../domain/ports/read-store.js';
import { PROJECTIONS } from '../../projections/all.js';
import { CheckpointFollower } from '../../projections/follower.js';
import { ReadModelCache } from '../../projections/read-model-cache.js';
import { ProjectionRunner } from '../../projections/runner.js';

const NOW = '2026-01-01T00:00:00.000Z';

/** `inner` with every `get` counted by collection, and the gets of `held` collections waiting for `release()`. */
class CountingReadStore implements ReadStore {
  readonly gets = new Map<string, number>();
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  private held = new Set<string>();

  constructor(private readonly inner: ReadStore) {}

  /** Gets of `collection` from now on read the store at once but resolve only at `release()`. */
  hold(collection: string): void {
    this.held.add(collection);
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.held.clear();
    this.open?.();
  }

  count(collection: string): number {
    return this.gets.get(collection) ?? 0;
  }

  collection<T extends ReadDocument>(name: string): ReadCollection<T> {
    const inner = this.inner.collection<T>(name);
    return {
      get: (id) => {
        this.gets.set(name, this.count(name) + 1);
        const read = inner.get(id); // the document as the store has it now
        const gate = this.held.has(name) ? this.gate : undefined;
        return gate ? gate.then(() => read) : read;
      },
      put: (doc) => inner.put(doc),
      delete: (id) => inner.delete(id),
      find: (query) => inner.find(query),
      count: (filter) => inner.count(filter),
    };
  }

  ensureIndexes: ReadStore['ensureIndexes'] = (c, i) => this.inner.ensureIndexes(c, i);
  checkpoint: ReadStore['checkpoint'] = (p) => this.inner.checkpoint(p);
  setCheckpoint: ReadStore['setCheckpoint'] = (p, n) => this.inner.setCheckpoint(p, n);
  close: ReadStore['close'] = () => this.inner.close();
}

/** An event store, a SQLite read store its runner writes, the counted view of it and a cache over that. */
async function embedded(t: Test) {
  const store = new SqliteEventStore(':memory:');
  const sqlite = new SqliteReadStore(':memory:', 'test');
  const runner = new ProjectionRunner(store, sqlite, [...PROJECTIONS]);
  const counted = new CountingReadStore(sqlite);
  const cache = new ReadModelCache(counted, runner);
  await runner.catchUp();
  t.teardown(async () => {
    cache.stop();
    await runner.stop();
    await store.close();
    await sqlite.close();
  });
  return { store, runner, counted, cache };
}

/** An organization with 100 subscription credits and one key; waits until `runner` applied them. */
async function orgWithKey(store: SqliteEventStore, runner: ProjectionRunner, name: string) {
  const org = await provisionOrganization(store, {
    name,
    ownerName: 'Owner',
    subscriptionCredits: 100,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now: NOW,
  });
  const key = await createApiKey(store, { orgId: org.orgId, memberId: org.ownerId, name: 'k', now: NOW });
  await runner.waitFor(key.position);
  return { ...org, key, hash: hashApiKey(key.secret) };
}

t.test('a second read of each hot document is served from memory, frozen', async (t) => {
  const { store, runner, counted, cache } = await embedded(t);
  const a = await orgWithKey(store, runner, 'A');
  for (let i = 0; i < 3; i++) {
    t.equal((await cache.apiKey(a.hash))?.keyId, a.key.keyId);
    t.equal((await cache.organization(a.orgId))?.name, 'A');
    t.equal((await cache.balance(a.orgId))?.subscription, 100_000_000, 'micro-credits');
    t.equal(await cache.serviceSettings(), undefined, 'no maintenance switch was ever turned');
  }
  t.same(
    ['api_keys', 'organizations', 'balances', 'service_settings'].map((c) => counted.count(c)),
    [1, 1, 1, 1],
    'one store read per document for three reads each (an absent settings document is held too)',
  );
  const key = (await cache.apiKey(a.hash))!;
  t.ok(Object.isFrozen(key) && Object.isFrozen(key.scopes), 'the shared document is deep-frozen');
  t.throws(() => {
    (key.scopes as string[]).push('x');
  }, TypeError);
  t.equal(await cache.apiKey(hashApiKey('pk_live_unknown')), undefined);
  t.equal(await cache.apiKey(hashApiKey('pk_live_unknown')), undefined);
  t.equal(counted.count('api_keys'), 3, 'an unknown key is not held: every guess goes to the store');
  t.same(cache.sizes(), { serviceSettings: 1, apiKeys: 1, organizations: 1, balances: 1, webSessions: 0, jobs: 0 });
});

t.test('an applied event drops exactly the entries its stream folds into', async (t) => {
  const { store, runner, counted, cache } = await embedded(t);
  const a = await orgWithKey(store, runner, 'A');
  const b = await orgWithKey(store, runner, 'B');
  const fill = async () => {
    for (const o of [a, b]) {
      await cache.apiKey(o.hash);
      await cache.organization(o.orgId);
      await cache.balance(o.orgId);
    }
    await cache.serviceSettings();
  };
  const reads = () => ['api_keys', 'organizations', 'balances', 'service_settings'].map((c) => counted.count(c));
  await fill();
  t.same(reads(), [2, 2, 2, 1]);

  // A purchase: a ledger-<A> event drops A's balance only.
  await runner.waitFor(await purchaseCredits(store, a.orgId, 5, NOW));
  t.equal((await cache.balance(a.orgId))?.purchased, 5_000_000, "the next read returns A's new balance");
  t.equal((await cache.balance(b.orgId))?.purchased, 0);
  await fill();
  t.same(reads(), [2, 2, 3, 1], "one more balance read (A's), nothing else");

  // A revocation: an org-<A> event drops A's organization and keys only.
  await runner.waitFor(await revokeApiKey(store, a.orgId, a.key.keyId, NOW));
  t.equal((await cache.apiKey(a.hash))?.revoked, true, "the next read returns A's revoked key");
  t.equal((await cache.apiKey(b.hash))?.revoked, false);
  await fill();
  t.same(reads(), [3, 3, 3, 1], "A's key and organization read again, B's held");

  // The maintenance switch: the service-settings event drops the settings document.
  const on = await setMaintenance(store, { message: 'upgrade', retryAfterSeconds: 60 }, NOW);
  await runner.waitFor(on.position);
  t.equal((await cache.serviceSettings())?.maintenance?.message, 'upgrade');
  await fill();
  t.same(reads(), [3, 3, 3, 2], 'only the settings read again');
});

t.test('a read begun before an event and resolved after its invalidation does not fill the cache', async (t) => {
  const { store, runner, counted, cache } = await embedded(t);
  const a = await orgWithKey(store, runner, 'A');

  counted.hold('balances');
  const before = cache.balance(a.orgId); // reads the old balance now, resolves at release
  const joined = cache.balance(a.orgId); // a concurrent read shares the read in flight
  await runner.waitFor(await purchaseCredits(store, a.orgId, 7, NOW)); // applied: A's balance invalidated
  counted.release();
  t.equal((await before)?.purchased, 0, 'the read in flight returns what it read (begun before the event)');
  t.equal((await joined)?.purchased, 0);
  t.equal(counted.count('balances'), 1, 'the two concurrent reads shared one store read');
  t.equal((await cache.balance(a.orgId))?.purchased, 7_000_000, 'the next read is not served the old document');
  t.equal(counted.count('balances'), 2);
  t.equal((await cache.balance(a.orgId))?.purchased, 7_000_000);
  t.equal(counted.count('balances'), 2, 'and the new one is held');

  // The same for a key, whose entries an organization's event drops by organization.
  counted.hold('api_keys');
  const keyBefore = cache.apiKey(a.hash);
  await runner.waitFor(await revokeApiKey(store, a.orgId, a.key.keyId, NOW));
  counted.release();
  t.equal((await keyBefore)?.revoked, false);
  t.equal((await cache.apiKey(a.hash))?.revoked, true, 'the revoked key is read, not the one read before');
});

t.test('keys, organizations and balances are bounded: the least recently read goes first', async (t) => {
  const store = new SqliteEventStore(':memory:');
  const sqlite = new SqliteReadStore(':memory:', 'test');
  const runner = new ProjectionRunner(store, sqlite, [...PROJECTIONS]);
  const counted = new CountingReadStore(sqlite);
  const cache = new ReadModelCache(counted, runner, { maxEntries: 2 });
  await runner.catchUp();
  t.teardown(async () => {
    cache.stop();
    await runner.stop();
    await store.close();
  });
  const orgs = [];
  for (const name of ['A', 'B', 'C']) orgs.push(await orgWithKey(store, runner, name));
  const [a, b, c] = orgs as [(typeof orgs)[0], (typeof orgs)[0], (typeof orgs)[0]];
  await cache.balance(a.orgId);
  await cache.balance(b.orgId);
  await cache.balance(a.orgId); // A is now the most recently read
  await cache.balance(c.orgId); // B goes
  t.equal(cache.sizes().balances, 2);
  t.equal(counted.count('balances'), 3);
  await cache.balance(a.orgId);
  t.equal(counted.count('balances'), 3, 'A is still held');
  await cache.balance(b.orgId);
  t.equal(counted.count('balances'), 4, 'B was dropped and is read again');
});

t.test('distributed shape: a CheckpointFollower over a shared SQLite read store keeps the cache right', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'read-model-cache-'));
  const store = new SqliteEventStore(join(dir, 'events.db'));
  // The projector's process writes the file; the API's process opens it separately and follows.
  const projectorReads = new SqliteReadStore(join(dir, 'read-models.db'), 'test');
  const apiReads = new SqliteReadStore(join(dir, 'read-models.db'), 'test');
  const runner = new ProjectionRunner(store, projectorReads, [...PROJECTIONS]);
  const follower = new CheckpointFollower(
    store,
    apiReads,
    PROJECTIONS.map((p) => p.name),
  );
  const counted = new CountingReadStore(apiReads);
  const cache = new ReadModelCache(counted, follower);
  await runner.catchUp();
  await follower.catchUp();
  t.teardown(async () => {
    cache.stop();
    await follower.stop();
    await runner.stop();
    await store.close();
    await projectorReads.close();
    await apiReads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const a = await orgWithKey(store, runner, 'A');
  t.ok(await follower.waitFor(a.key.position, 10_000));
  t.equal((await cache.apiKey(a.hash))?.revoked, false);
  t.equal((await cache.balance(a.orgId))?.purchased, 0);
  const revoked = await revokeApiKey(store, a.orgId, a.key.keyId, NOW);
  const bought = await purchaseCredits(store, a.orgId, 3, NOW);
  t.ok(await follower.waitFor(Math.max(revoked, bought), 10_000));
  t.equal((await cache.apiKey(a.hash))?.revoked, true, 'the revocation reached the cache through the follower');
  t.equal((await cache.balance(a.orgId))?.purchased, 3_000_000, 'so did the purchase');
  t.equal(counted.count('api_keys'), 2);
  t.equal(counted.count('balances'), 2);
});

t.test("a web app session is held until its stream's next event", async (t) => {
  const { store, runner, counted, cache } = await embedded(t);
  const a = await orgWithKey(store, runner, 'A');
  const ports = { store, reads: counted, projections: runner, clock: () => new Date().toISOString() };
  const one = await startSession(ports, a.orgId, a.ownerId);
  const two = await startSession(ports, a.orgId, a.ownerId);
  const before = counted.count('web_sessions');
  for (let i = 0; i < 2; i++) {
    t.equal((await cache.webSession(sessionTokenHash(one.token)))?.endedAt, null);
    t.equal((await cache.webSession(sessionTokenHash(two.token)))?.endedAt, null);
  }
  t.equal(counted.count('web_sessions') - before, 2, 'one store read per session');
  await endSession(ports, one.session.sessionId, 'signed_out');
  t.equal((await cache.webSession(sessionTokenHash(one.token)))?.endReason, 'signed_out', 'the ended session is read');
  t.equal((await cache.webSession(sessionTokenHash(two.token)))?.endedAt, null);
  t.equal(counted.count('web_sessions') - before, 3, 'only the ended one read again');
});
