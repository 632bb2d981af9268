/**
 * Job documents in the read-model cache (projections/read-model-cache.ts) on real parts (SQLite
 * event and read stores, a ProjectionRunner): a job read again comes from memory until an event
 * naming it is applied; a read begun before such an event and resolved after it never fills the
 * cache; `jobsVersion` moves for the organization of the job an event names (and for every
 * organization when this process cannot tell which).
 */
import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { SqliteReadStore } from '../../adapters/sqlite/read-store.js';
import type { ReadCollection, ReadDocument, ReadStore } from '../../domain/ports/read-store.js';
import { PROJECTIONS } from '../../projections/all.js';
import { ReadModelCache } from '../../projections/read-model-cache.js';
import { ProjectionRunner } from '../../projections/runner.js';

const NOW = '2026-11-01T00:00:00.000Z';

/** `inner` with the job gets counted, and held until `release()` after `hold()`. */
class CountingReadStore implements ReadStore {
  jobGets = 0;
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  constructor(private readonly inner: ReadStore) {}
  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }
  release(): void {
    this.open?.();
    this.gate = undefined;
  }
  collection<T extends ReadDocument>(name: string): ReadCollection<T> {
    const inner = this.inner.collection<T>(name);
    return {
      get: (id) => {
        if (name !== 'jobs') return inner.get(id);
        this.jobGets += 1;
        const read = inner.get(id);
        const gate = this.gate;
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

async function setup(t: Test) {
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
  const append = async (stream: string, type: string, data: unknown) => {
    const { position } = await store.append(stream, [{ id: randomUUID(), type, data }], 'any');
    await runner.waitFor(position);
  };
  const queue = (jobId: string, orgId: string) =>
    append(`job-${jobId}`, 'JobQueued', {
      jobId,
      orgId,
      memberId: 'usr_a',
      reference: null,
      source: 'api',
      createdAt: NOW,
      expiresAt: '2026-12-01T00:00:00.000Z',
      items: 1,
      maxVehicles: 1,
      budgetMs: 1000,
      rateCardVersion: 1,
      reservedMicros: 1,
      warnings: [],
    });
  return { cache, counted, append, queue };
}

t.test("a job is held until an event naming it; jobsVersion moves for the job's organization", async (t) => {
  const { cache, counted, append, queue } = await setup(t);
  t.equal(await cache.job('job_a'), undefined);
  t.equal(await cache.job('job_a'), undefined);
  t.equal(counted.jobGets, 2, 'an unknown job is not held');
  const a0 = cache.jobsVersion('org_a');
  const b0 = cache.jobsVersion('org_b');
  await queue('job_a', 'org_a');
  t.ok(cache.jobsVersion('org_a') > a0, "JobQueued moves its organization's version");
  t.equal(cache.jobsVersion('org_b'), b0, 'not the others');
  for (let i = 0; i < 3; i++) t.equal((await cache.job('job_a'))?.status, 'queued');
  t.equal(counted.jobGets, 3, 'one store read for three');
  t.equal(cache.sizes().jobs, 1);
  t.ok(Object.isFrozen(await cache.job('job_a')), 'shared and frozen');

  const a1 = cache.jobsVersion('org_a');
  await append('job-job_a', 'JobFailed', {
    jobId: 'job_a',
    finishedAt: NOW,
    computeMs: 0,
    code: 'canceled',
    message: 'canceled by the caller',
  });
  t.equal((await cache.job('job_a'))?.status, 'canceled', 'the next read shows the event');
  t.equal(counted.jobGets, 4);
  t.ok(cache.jobsVersion('org_a') > a1);
  t.equal(cache.jobsVersion('org_b'), b0);

  // An event naming a job this process never saw queued: every organization's version moves.
  await append('job-job_z', 'JobWarned', { jobId: 'job_z', warning: { code: 'x', message: 'y' } });
  t.ok(cache.jobsVersion('org_b') > b0, 'an unknown job moves every version');
});

t.test('a job read begun before an event and resolved after it does not fill the cache', async (t) => {
  const { cache, counted, append, queue } = await setup(t);
  await queue('job_r', 'org_a');
  counted.hold();
  const before = cache.job('job_r'); // reads the queued job now, resolves at release
  await append('job-job_r', 'JobStarted', { jobId: 'job_r', startedAt: NOW });
  counted.release();
  t.equal((await before)?.status, 'queued', 'the read in flight returns what it read');
  t.equal((await cache.job('job_r'))?.status, 'running', 'the next read is not served the old document');
  t.equal(counted.jobGets, 2);
  t.equal((await cache.job('job_r'))?.status, 'running');
  t.equal(counted.jobGets, 2, 'and the new one is held');
});
