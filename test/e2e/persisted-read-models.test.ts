/**
 * Persisted read models (embedded profile): a restart resumes from the stored
 * checkpoint instead of replaying the log; `rebuildReadModels` (npm run admin --
 * rebuild-read-models) replays the whole log into a new file that holds exactly what the
 * persisted one held; a read-model version change empties the file so it is rebuilt; a rebuild
 * refuses while the service runs.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { DataDirBusy } from '../../adapters/sqlite/data-dir-lock.js';
import { SqliteReadStore } from '../../adapters/sqlite/read-store.js';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';
import { READ_MODELS_FILE } from '../../service/open-adapters.js';
import { rebuildReadModels } from '../../service/read-models-rebuild.js';
import { startService, type RunningService } from '../../service/server.js';
import { READ_MODEL_VERSION } from '../../projections/version.js';
import { orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { solverThreadModule } from '../helpers/compiled-service.js';

const dir = mkdtempSync(join(tmpdir(), 'packing-persisted-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** Log lines of one start, as objects. */
function capture(): { lines: Record<string, unknown>[]; log: Logger } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, sink) };
}

const start = (log: Logger): Promise<RunningService> =>
  startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    solverThreads: 1,
    log,
    publicBaseUrl: 'https://packing.test',
  });

const caughtUp = (lines: Record<string, unknown>[]): Record<string, unknown> => {
  const line = lines.find((l) => l['msg'] === 'read models caught up with the event log');
  if (!line) throw new Error('no catch-up line in the log');
  return line;
};

/** Every document of every collection of the persisted read models, by collection. */
async function dump(file: string): Promise<Record<string, unknown[]>> {
  const reads = new SqliteReadStore(file, READ_MODEL_VERSION);
  try {
    const out: Record<string, unknown[]> = {};
    for (const name of reads.collectionNames()) {
      const docs = await reads.collection(name).find();
      // A collection a request only read (its table made on first use) holds nothing to compare.
      if (docs.length > 0) out[name] = docs;
    }
    return out;
  } finally {
    await reads.close();
  }
}

const small = (reference: string) => ({
  reference,
  vehicles: [{ vehicle_id: 'van-3-5t' }],
  items: [{ id: 'box', length: 40, width: 30, height: 30, weight: 5, quantity: 6 }],
  options: { time_limit: 20 },
});

t.test('restart resumes from the checkpoint; a rebuild from the whole log gives the same read models', async (t) => {
  const first = capture();
  let service = await start(first.log);
  t.equal(caughtUp(first.lines)['resumedFrom'], 0, 'a new data dir is built from the whole log');
  const { key } = await orgWithKey(service);
  for (const ref of ['one', 'two', 'three'])
    t.equal((await call(service.url, key, 'POST', '/v1/pack?wait=60', small(ref))).body.status, 'succeeded');
  const vehicle = await call(service.url, key, 'POST', '/v1/vehicles', {
    name: 'Dock van',
    type: 'truck',
    length: 400,
    width: 200,
    height: 200,
    max_weight: 1500,
  });
  t.equal(vehicle.status, 201, JSON.stringify(vehicle.body));
  const jobsBefore = (await call(service.url, key, 'GET', '/v1/jobs?limit=10')).body.data as {
    id: string;
    status: string;
  }[];
  const balanceBefore = (await call(service.url, key, 'GET', '/v1/balance')).body;
  // Settlements follow the jobs' ends: wait until the read models hold the whole log.
  t.ok(await service.services.projections.waitFor(await service.services.store.headPosition(), 10_000));
  const applied = service.services.projections.position;
  await service.close();

  const second = capture();
  service = await start(second.log);
  const resumed = caughtUp(second.lines);
  t.ok(
    (resumed['resumedFrom'] as number) >= applied,
    `resumed from ${resumed['resumedFrom']}, at least ${applied}: the log is not replayed`,
  );
  t.ok((resumed['replayed'] as number) <= 5, `replayed ${resumed['replayed']} events`);
  t.same(
    (await call(service.url, key, 'GET', '/v1/jobs?limit=10')).body.data,
    jobsBefore,
    'the same jobs after the restart',
  );
  t.same((await call(service.url, key, 'GET', '/v1/balance')).body, balanceBefore, 'the same balance');
  t.equal(jobsBefore.length, 3);

  await t.rejects(
    () => rebuildReadModels(service.services.store, dir),
    DataDirBusy,
    'no rebuild under a running service',
  );
  await service.close();

  const persisted = await dump(join(dir, READ_MODELS_FILE));
  t.ok(Object.keys(persisted).length >= 5, `collections: ${Object.keys(persisted).join(', ')}`);
  const store = new SqliteEventStore(join(dir, 'events.db'));
  const report = await rebuildReadModels(store, dir);
  await store.close();
  t.ok(report.position >= applied, `the rebuild read the whole log (to ${report.position})`);
  t.same(await dump(join(dir, READ_MODELS_FILE)), persisted, 'rebuilt from zero = persisted, document for document');

  const third = capture();
  service = await start(third.log);
  t.same(
    (await call(service.url, key, 'GET', '/v1/jobs?limit=10')).body.data,
    jobsBefore,
    'the rebuilt read models serve the same jobs',
  );
  await service.close();
});

t.test('a read-model version change empties the file, and the start rebuilds it from the log', async (t) => {
  const file = join(dir, 'versioned.db');
  const a = new SqliteReadStore(file, 'v1');
  await a.collection<{ id: string; n: number }>('things').put({ id: 'x', n: 1 });
  await a.setCheckpoint('things', 42);
  await a.close();
  const same = new SqliteReadStore(file, 'v1');
  t.equal(same.reset, false);
  t.same(await same.collection('things').get('x'), { id: 'x', n: 1 });
  await same.close();
  const next = new SqliteReadStore(file, 'v2');
  t.equal(next.reset, true, 'another version: dropped');
  t.equal(await next.collection('things').get('x'), undefined);
  t.equal(await next.checkpoint('things'), 0, 'checkpoints start again at 0');
  t.same(next.collectionNames(), ['things']);
  await next.close();
});
