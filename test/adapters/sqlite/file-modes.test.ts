/**
 * Data dir 0700 and its files 0600, under the common umask 022 that would
 * otherwise make them 0755 / 0644: the helpers, the SQLite databases with their side files, and
 * a whole service start.
 */
import t from 'tap';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { makeDataDir } from '../../../adapters/sqlite/data-dir.js';
import { makePrivate, openPrivateDatabase } from '../../../adapters/sqlite/private-file.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { sqliteCounters } from '../../../api/http/auth/rate-counters.js';
import { startService } from '../../../service/server.js';
import { solverThreadModule } from '../../helpers/compiled-service.js';

process.umask(0o022);
const base = mkdtempSync(join(tmpdir(), 'packing-modes-'));
t.teardown(() => rmSync(base, { recursive: true, force: true }));
const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

t.test('makeDataDir creates 0700 dirs, and warns about an existing dir others can read', async (t) => {
  const fresh = makeDataDir(join(base, 'a', 'data'));
  t.same(
    { created: fresh.created, mode: fresh.mode.toString(8), warning: fresh.warning },
    { created: true, mode: '700', warning: undefined },
  );
  t.equal(modeOf(join(base, 'a')), '700', 'missing parents are 0700 too');
  t.same(makeDataDir(join(base, 'a', 'data')).created, false, 'an existing dir is taken as it is');
  const open = join(base, 'open');
  mkdirSync(open);
  chmodSync(open, 0o755);
  const state = makeDataDir(open);
  t.equal(modeOf(open), '755', 'the mode of an existing dir is left alone');
  t.match(state.warning, /has mode 755: other users .*chmod 700/);
});

t.test('makePrivate creates 0600 files and fixes the mode of existing ones', async (t) => {
  const file = join(base, 'secret');
  makePrivate(file);
  t.equal(modeOf(file), '600');
  const old = join(base, 'old-secret');
  writeFileSync(old, 'x', { mode: 0o644 });
  makePrivate(old);
  t.equal(modeOf(old), '600');
});

t.test('SQLite databases and their -wal/-shm are 0600, also when made 0644 by an older version', async (t) => {
  const dir = join(base, 'sqlite');
  mkdirSync(dir);
  const store = new SqliteEventStore(join(dir, 'events.db'));
  await store.append('s-1', [{ id: 'e1', type: 'T', data: {}, metadata: {} }], 'no_stream');
  const counters = sqliteCounters(join(dir, 'rate-limits.db'));
  // The counters' tables are made asynchronously by the library: a write of our own makes the side files.
  const writer = openPrivateDatabase(join(dir, 'rate-limits.db'));
  writer.exec('CREATE TABLE probe (x INTEGER)');
  const files = readdirSync(dir).sort();
  t.same(files, [
    'events.db',
    'events.db-shm',
    'events.db-wal',
    'rate-limits.db',
    'rate-limits.db-shm',
    'rate-limits.db-wal',
  ]);
  for (const f of files) t.equal(modeOf(join(dir, f)), '600', f);
  await store.close();
  writer.close();
  counters.close();
  const legacy = join(dir, 'legacy.db');
  const first = openPrivateDatabase(legacy);
  first.pragma('journal_mode = WAL');
  first.exec('CREATE TABLE probe (x INTEGER)');
  for (const f of [legacy, `${legacy}-wal`, `${legacy}-shm`]) chmodSync(f, 0o644);
  const reopened = openPrivateDatabase(legacy);
  for (const f of [legacy, `${legacy}-wal`, `${legacy}-shm`]) t.equal(modeOf(f), '600', `${f} fixed on open`);
  reopened.close();
  first.close();
});

t.test('after a start every file in the data dir is 0600', async (t) => {
  const dataDir = join(base, 'service');
  const service = await startService({
    solverThreadModule: solverThreadModule(),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    solverThreads: 1,
    log: pino({ level: 'silent' }),
  });
  t.teardown(() => service.close());
  const files = readdirSync(dataDir).sort();
  for (const f of [
    'demo-api-key',
    'events.db',
    'events.db-wal',
    'events.db-shm',
    'instance.lock',
    'read-models.db',
    'read-models.db-wal',
    'read-models.db-shm',
    'signing-key',
  ])
    t.ok(files.includes(f), `${f} exists`);
  for (const f of files) t.equal(modeOf(join(dataDir, f)), '600', f);
  t.equal(modeOf(dataDir), '700', 'the data dir the start made is 0700');
});
