/**
 * The test run's own timing records (scripts/test-times.ts, scripts/test-prepare.ts): the slowest
 * files from tap's process records, each file once at its longer time, the processes a test
 * started left out; the costliest files from the CPU records (scripts/test-cpu-record.mjs); and
 * the plugins tap's test class was built with, read from `tap versions`.
 */
import t from 'tap';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuOfStat, cpuTimes, fileTimes } from '../../scripts/test-times.js';
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

t.test(
  'cpuOfStat reads own and children CPU from a /proc stat line, a command name with spaces included',
  async (t) => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
    const stat = '4242 (node main) S 1 4242 4242 0 -1 4194304 100 200 0 0 250 50 1200 300 20 0 12 0';
    t.same(cpuOfStat(stat), { self: 3, children: 15 });
  },
);

t.test('cpuTimes: costliest first, each file once at its latest record', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'packing-cpu-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, record: object, at: number) => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(record));
    utimesSync(path, at, at);
  };
  // utime stime cutime cstime are the 14th to 17th fields, in ticks of 1/100 s.
  const stat = (self: number, children: number) =>
    `1 (node) S 1 1 1 0 -1 0 0 0 0 0 ${self * 100} 0 ${children * 100} 0`;
  write('1', { file: 'test/a.test.ts', stat: stat(2, 0) }, 1000);
  write('2', { file: 'test/b.test.ts', stat: stat(1, 9) }, 1000);
  write('3', { file: 'test/a.test.ts', stat: stat(4, 1) }, 2000);
  t.same(
    cpuTimes(dir).map((r) => [r.file, r.selfSeconds + r.childrenSeconds]),
    [
      ['test/b.test.ts', 10],
      ['test/a.test.ts', 5],
    ],
  );
  t.same(cpuTimes(join(dir, 'missing')), []);
});
