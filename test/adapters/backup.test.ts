/**
 * The online backup of a data dir (adapters/sqlite/backup.ts): the read models first, then the
 * log, then the signing key; 0600 files in a 0700 directory; a consistent copy while another
 * connection keeps appending; refusals for a missing log and a target that is not empty.
 */
import t from 'tap';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';

/** Copies are opened read-only: checking them must not change them. */
const readOnly = true;
import { BackupRefused, backupDataDir } from '../../adapters/sqlite/backup.js';

const root = mkdtempSync(join(tmpdir(), 'packing-backup-unit-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

const mode = (file: string) => statSync(file).mode & 0o777;

t.test('read-models.db before events.db, then the signing key; modes; contents', async (t) => {
  const from = join(root, 'data');
  mkdirSync(from);
  const store = new SqliteEventStore(join(from, 'events.db'));
  for (let i = 0; i < 20; i++) await store.append(`s-${i}`, [{ id: `e${i}`, type: 'T', data: { i } }], 'no_stream');
  const reads = new Database(join(from, 'read-models.db'));
  reads.exec("CREATE TABLE checkpoint (name TEXT, position INTEGER); INSERT INTO checkpoint VALUES ('all', 20)");
  reads.close();
  writeFileSync(join(from, 'signing-key'), 'ab'.repeat(32), { mode: 0o600 });
  writeFileSync(join(from, 'instance.lock'), '');
  const to = join(root, 'backup-1');
  const report = await backupDataDir(from, to);
  t.same(
    report.files.map((f) => f.name),
    ['read-models.db', 'events.db', 'signing-key'],
    'the order; no lock file',
  );
  t.equal(report.eventsHead, 20);
  t.equal(mode(to), 0o700, 'directory 0700');
  for (const f of report.files) t.equal(mode(join(to, f.name)), 0o600, `${f.name} 0600`);
  t.equal(readFileSync(join(to, 'signing-key'), 'utf8'), 'ab'.repeat(32));
  const copy = new Database(join(to, 'read-models.db'), { readonly: readOnly });
  t.same(copy.prepare('SELECT position FROM checkpoint').get(), { position: 20 });
  copy.close();
  const restored = new SqliteEventStore(join(to, 'events.db'));
  t.same(
    (await restored.readAll(0, 100)).map((e) => e.data),
    Array.from({ length: 20 }, (_, i) => ({ i })),
  );
  await restored.close();
  await store.close();
});

t.test('a consistent copy while appends go on', async (t) => {
  const from = join(root, 'busy');
  mkdirSync(from);
  const store = new SqliteEventStore(join(from, 'events.db'));
  // Enough rows that the copy is many pages.
  for (let i = 0; i < 2000; i++)
    await store.append(`b-${i}`, [{ id: `b${i}`, type: 'T', data: { pad: 'x'.repeat(200) } }], 'no_stream');
  let writing = true;
  let n = 2000;
  const writer = (async () => {
    while (writing) {
      await store.append(`b-${n}`, [{ id: `b${n}`, type: 'T', data: { pad: 'y' } }], 'no_stream');
      n += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const report = await backupDataDir(from, join(root, 'backup-busy'));
  writing = false;
  await writer;
  const copy = new Database(join(root, 'backup-busy', 'events.db'), { readonly: readOnly });
  const { count, max } = copy.prepare('SELECT COUNT(*) AS count, MAX(position) AS max FROM events').get() as {
    count: number;
    max: number;
  };
  copy.close();
  t.ok(report.eventsHead >= 2000 && report.eventsHead <= n, `head ${report.eventsHead} within [2000, ${n}]`);
  t.same([count, max], [report.eventsHead, report.eventsHead], 'no gap: every event up to the head');
  t.equal(copy.open, false);
  await store.close();
});

t.test('refusals: no events.db; a target that is not empty', async (t) => {
  await t.rejects(backupDataDir(join(root, 'nothing-here'), join(root, 'b2')), BackupRefused);
  const to = join(root, 'full');
  mkdirSync(to);
  writeFileSync(join(to, 'events.db'), 'older backup');
  await t.rejects(backupDataDir(join(root, 'data'), to), BackupRefused);
  t.equal(readFileSync(join(to, 'events.db'), 'utf8'), 'older backup', 'an older backup is never overwritten');
});
