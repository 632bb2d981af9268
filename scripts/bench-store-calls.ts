/**
 * Event store round trips per `GET /v1/jobs/{id}` on an API process of the multi-process
 * profile (shared SQLite log, its own read models, read-your-writes across processes), counted by
 * a decorator around the SQLite store (ServiceConfig.decorateStore).
 *
 *   node --import tsx scripts/bench-store-calls.ts [--requests 200] [--concurrency 20] [--latency-ms 0]
 *
 * Prints the calls per method for `--requests` sequential GETs, then for the same number sent
 * `--concurrency` at a time. `--latency-ms` delays every store answer by that much, as a store
 * across the network does (SQLite answers at once, so concurrent requests never overlap there).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { pino } from 'pino';
import { startService } from '../service/server.js';
import { createApiKey, provisionOrganization } from '../application/provision.js';
import type { Profile } from '../service/profile.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { countingStore, type CountingStore } from '../test/helpers/counting-store.js';
import { RACE_BODY } from '../test/helpers/idempotency-race.js';

const options = new Command()
  .option('--requests <n>', 'GET requests per round', (v) => Number(v), 200)
  .option('--concurrency <n>', 'requests at once in the second round', (v) => Number(v), 20)
  .option('--latency-ms <ms>', 'delay of every store answer', (v) => Number(v), 0)
  .parse()
  .opts<{ requests: number; concurrency: number; latencyMs: number }>();

/** `store` answering every call `ms` later. */
function delayed(store: EventStore, ms: number): EventStore {
  if (ms <= 0) return store;
  const later = <T>(value: Promise<T>): Promise<T> =>
    new Promise((resolve, reject) => setTimeout(() => void value.then(resolve, reject), ms));
  return {
    append: (s, e, x) => later(store.append(s, e, x)),
    readStream: (s, f) => later(store.readStream(s, f)),
    readLastEvent: (s) => later(store.readLastEvent(s)),
    readAll: (a, l) => later(store.readAll(a, l)),
    headPosition: () => later(store.headPosition()),
    deleteStream: (s) => later(store.deleteStream(s)),
    subscribeAll: (a) => store.subscribeAll(a),
    close: () => store.close(),
  };
}

/** An API-only process of the multi-process profile: it connects to no bus. */
const API_ONLY: Profile = {
  roles: new Set(['api']),
  eventStore: { kind: 'sqlite' },
  readStore: { kind: 'memory' },
  bus: { kind: 'nats', url: 'nats://127.0.0.1:4222', ackWaitMs: 30_000 },
};

const dir = mkdtempSync(join(tmpdir(), 'packing-store-calls-'));
let counting: CountingStore | undefined;
const service = await startService({
  port: 0,
  host: '127.0.0.1',
  dataDir: dir,
  profile: API_ONLY,
  log: pino({ level: 'silent' }),
  decorateStore: (store) => (counting = countingStore(delayed(store, options.latencyMs))),
});
try {
  const now = new Date().toISOString();
  const org = await provisionOrganization(service.services.store, {
    name: 'Bench',
    ownerName: 'Owner',
    subscriptionCredits: 100,
    expiresAt: '2099-01-01T00:00:00.000Z',
    now,
    limits: { rateLimits: { perMinute: 1_000_000, perHour: 1_000_000, perDay: 1_000_000 } },
  });
  const key = await createApiKey(service.services.store, {
    orgId: org.orgId,
    memberId: org.ownerId,
    name: 'bench',
    now,
  });
  await service.services.projections.waitFor(key.position);
  const headers = { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' };
  const posted = await fetch(`${service.url}/v1/pack`, { method: 'POST', headers, body: JSON.stringify(RACE_BODY) });
  const { id } = (await posted.json()) as { id: string };
  if (posted.status !== 202) throw new Error(`POST /v1/pack answered ${posted.status}`);
  const get = async (): Promise<void> => {
    const res = await fetch(`${service.url}/v1/jobs/${id}`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /v1/jobs/${id} answered ${res.status}`);
  };
  const report = (label: string): void => {
    const c = counting!;
    const per = (n: number): string => (n / options.requests).toFixed(2);
    const methods = Object.entries(c.counts)
      .filter(([, n]) => n > 0)
      .map(([m, n]) => `${m} ${per(n)}`);
    process.stdout.write(
      `${label}, store latency ${options.latencyMs} ms: ${per(c.total())} store calls per GET /v1/jobs/{id} (${methods.join(', ') || 'none'}) over ${options.requests} requests\n`,
    );
  };

  counting!.reset();
  for (let i = 0; i < options.requests; i++) await get();
  report('sequential');

  counting!.reset();
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next++ < options.requests) await get();
    }),
  );
  report(`${options.concurrency} at once`);
} finally {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
