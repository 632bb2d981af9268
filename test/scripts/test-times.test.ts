/**
 * The test run's own timing records (scripts/test-times.ts, scripts/test-prepare.ts): the slowest
 * files from tap's process records, each file once at its longer time, the processes a test
 * started left out; and the plugins tap's test class was built with, read from `tap versions`.
 */
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileTimes } from '../../scripts/test-times.js';
import { pluginsOfVersions } from '../../scripts/test-prepare.js';

t.test('fileTimes: one row per test file, slowest first, seconds; started processes are not files', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'packing-processinfo-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, info: object) => writeFileSync(join(dir, `${name}.json`), JSON.stringify(info));
  write('a', { externalID: 'test/a.test.ts', runtime: 1500 });
  write('b', { externalID: 'test/b.test.ts', runtime: 12_250 });
  write('b-again', { externalID: 'test/b.test.ts', runtime: 900 });
  write('service', { parent: 'b', runtime: 99_000 });
  writeFileSync(join(dir, 'notes.txt'), 'not a record');
  t.same(fileTimes(dir), [
    { file: 'test/b.test.ts', seconds: 12.25 },
    { file: 'test/a.test.ts', seconds: 1.5 },
  ]);
  t.same(fileTimes(join(dir, 'missing')), [], 'no folder, no rows');
});

t.test('pluginsOfVersions reads the plugins block of tap versions, sorted', async (t) => {
  const out = [
    'tap: 21.8.0',
    '"@tapjs/test": 4.4.10',
    'plugins:',
    '  "@tapjs/worker": 4.3.12',
    '  "@tapjs/after": 3.3.12',
    '  "@tapjs/typescript": 3.5.12',
    '',
  ].join('\n');
  t.same(pluginsOfVersions(out), ['@tapjs/after', '@tapjs/typescript', '@tapjs/worker']);
  t.same(pluginsOfVersions('tap: 21.8.0\n'), [], 'no plugins block');
});
