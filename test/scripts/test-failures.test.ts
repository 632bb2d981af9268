/**
 * The failed-tests report of a run (scripts/test-failures.ts), read from tap's per-file TAP
 * records: nested failures with their depth and first diagnostic line; TODO and SKIP points and
 * passing files left out.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failedFiles, failedPoints, failureReport } from '../../scripts/test-failures.js';

const FAILING = [
  'TAP version 14',
  '# Subtest: a group',
  '    ok 1 - fine',
  '    not ok 2 - the totals agree',
  '      ---',
  '      found: 3',
  '      wanted: 4',
  '      stack: >',
  '        Test.<anonymous> (test/x.test.ts:9:5)',
  '      ...',
  '    not ok 3 - later # TODO not built yet',
  '    1..3',
  'not ok 1 - a group # time=12.5ms',
  '  ---',
  '  at:',
  '    fileName: test/x.test.ts',
  '  ...',
  'not ok 2 - thrown',
  '  ---',
  '  message: >-',
  '    the service did not start',
  '  ...',
  'ok 3 - skipped # SKIP no nats-server',
  '1..3',
].join('\n');

t.test('failedPoints: each not ok with its depth and why; TODO and SKIP are not failures', async (t) => {
  t.same(failedPoints(FAILING), [
    { depth: 1, name: 'the totals agree', reason: 'found: 3, wanted: 4' },
    { depth: 0, name: 'a group', reason: '' },
    { depth: 0, name: 'thrown', reason: 'message: the service did not start' },
  ]);
  t.same(failedPoints('TAP version 14\nok 1 - fine\n1..1\n'), [], 'a passing file has none');
});

t.test('failedFiles: only files with failures, named by their test path', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'packing-test-results-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'test', 'api'), { recursive: true });
  writeFileSync(join(dir, 'test', 'api', 'x.test.ts.tap'), FAILING);
  writeFileSync(join(dir, 'test', 'api', 'y.test.ts.tap'), 'TAP version 14\nok 1 - fine\n1..1\n');
  const files = failedFiles(dir);
  t.same(
    files.map((f) => [f.file, f.points.length]),
    [['test/api/x.test.ts', 3]],
  );
  t.same(failedFiles(join(dir, 'missing')), [], 'no folder, no files');
  // npm test's bundles (scripts/test-bundles.ts): results under `.tap/bundles/…`, a folder whose
  // name ends in `.tap`, named by the source file.
  mkdirSync(join(dir, '.tap', 'bundles', 'test', 'e2e'), { recursive: true });
  writeFileSync(join(dir, '.tap', 'bundles', 'test', 'e2e', 'z.test.mjs.tap'), FAILING);
  t.same(
    failedFiles(dir).map((f) => f.file),
    ['test/e2e/z.test.ts', 'test/api/x.test.ts'],
    "a bundle's failures under its source file's name; the `.tap` folder is not a result",
  );
  rmSync(join(dir, '.tap'), { recursive: true });
  const report = failureReport(files, 2);
  t.equal(report[0], 'failed tests (1 file):');
  t.equal(report[1], '  test/api/x.test.ts');
  t.equal(report[2], '      not ok the totals agree (found: 3, wanted: 4)');
  t.equal(report.at(-1), '      … and 1 more', 'points past the limit are counted');
  t.same(failureReport([]), ['no failed tests']);
});
