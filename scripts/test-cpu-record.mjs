// A preload of every tap test process (package.json `tap.node-arg`): when the test file's
// process exits, its `/proc/self/stat` line (Linux; elsewhere nothing) is written to
// `.tap/cpu/<pid>.json` with the test file's path, for `npm run test:times`, which reads the
// CPU time of the process and of the children it waited for (a started service, nats-server,
// Chromium) from it (scripts/test-times.ts cpuOfStat). Plain JavaScript: the solver's worker
// threads inherit the process's preloads, and a thread without the tsx loader cannot load
// TypeScript. Only the main thread records, and only a bundle's process: the launcher tap starts
// it from (`.tap/bundles/launch/…`, scripts/test-launch.mjs, about 0.3 CPU-s) is not counted.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import process from 'node:process';
import { isMainThread } from 'node:worker_threads';

const root = process.cwd();
/** Where npm test runs a test file's bundle from: `.tap/bundles/test/a.test.mjs` for `test/a.test.ts` (scripts/test-bundles.ts). */
const BUNDLES = '.tap/bundles/';
const run = process.argv[1] ? relative(root, process.argv[1]).split(sep).join('/') : '';
const file = run.startsWith(BUNDLES) ? run.slice(BUNDLES.length).replace(/\.mjs$/, '.ts') : run;
if (isMainThread && file.startsWith('test/') && /\.test\.[cm]?[jt]s$/.test(file)) {
  process.once('exit', () => {
    try {
      const stat = readFileSync('/proc/self/stat', 'utf8');
      const dir = join(root, '.tap', 'cpu'); // scripts/test-phases.ts CPU_DIR (this file cannot import TypeScript)
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify({ file, stat }));
    } catch {
      // No /proc (not Linux), or the folder cannot be written: no record; the test's result stands.
    }
  });
}
