/**
 * The solver threads' Node options (solver/thread-exec-argv.ts): compiled threads lose the tsx
 * loader; otherwise threads inherit the process's options, V8's included.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadExecArgv, withoutTsxLoader } from '../../solver/thread-exec-argv.js';
import { exampleSolveScript } from '../helpers/solve-script.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

t.test('both forms of a tsx preload are dropped, other options kept in order', async (t) => {
  t.same(withoutTsxLoader(['--import', 'tsx', '--enable-source-maps']), ['--enable-source-maps']);
  t.same(withoutTsxLoader(['--enable-source-maps', '--import=tsx']), ['--enable-source-maps']);
  t.same(withoutTsxLoader(['--loader', 'tsx/esm', '--max-old-space-size=512']), ['--max-old-space-size=512']);
  t.same(withoutTsxLoader(['--require', '/srv/node_modules/tsx/dist/cjs/index.cjs']), []);
});

t.test('other preloads and options that only mention tsx elsewhere are kept', async (t) => {
  const argv = ['--import', './otel.js', '--import=tsx-free-hooks', '--title=tsx', '--stack-size=984'];
  t.same(withoutTsxLoader(argv), argv);
});

t.test('a trailing --import without a value is kept as it is', async (t) => {
  t.same(withoutTsxLoader(['--import']), ['--import']);
});

t.test('threads inherit the options Node passes on, unless compiled threads must lose tsx', async (t) => {
  const production = ['--enable-source-maps', '--max-old-space-size=4096', '--import', './otel.js'];
  t.equal(threadExecArgv(production, true), undefined, 'npm start and plain node: inherited, V8 flags too');
  t.equal(threadExecArgv(['--import', 'tsx', '--stack-size=984'], false), undefined, 'TypeScript threads keep tsx');
  t.same(
    threadExecArgv(
      ['--import=tsx', '--max-old-space-size=512', '--cpu-prof', '--cpu-prof-dir', '/tmp/p', '--title=x', '-C', 'dev'],
      true,
    ),
    ['--cpu-prof', '--cpu-prof-dir', '/tmp/p', '-C', 'dev'],
    'without tsx, only options a worker accepts, with their values',
  );
  t.same(threadExecArgv(['--import', 'tsx', '--enable-source-maps=true'], true), ['--enable-source-maps=true']);
});

t.test('a solver solves in a process given a V8 heap flag', { timeout: 120_000 }, async (t) => {
  // The TypeScript solver's threads inherit --max-old-space-size with the loader (the compiled
  // service's case is checked in test/e2e/npm-start-compiled.test.ts).
  const script = exampleSolveScript(ROOT, 'ts');
  // A module file, not `-e`: the threads would inherit `--input-type` too.
  const dir = mkdtempSync(join(tmpdir(), 'packing-thread-argv-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'solve.mjs');
  writeFileSync(file, script);
  const r = spawnSync(process.execPath, ['--max-old-space-size=512', '--import', 'tsx', file], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 100_000,
  });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^solved [1-9]\d*$/m, 'placed units');
});
