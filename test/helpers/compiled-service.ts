/**
 * The service's code in its compiled form for tests, as `npm start` runs it: `dist/` (built by
 * scripts/build-server.ts; npm test builds it first, scripts/test-prepare.ts) when it is fresh
 * for this checkout's sources, checked once per test process; else the TypeScript sources under
 * tsx, as a single test file run after an edit finds them. Measured on this 2-core machine: a
 * started service reached "listening" on 2.7 CPU-s compiled against 10.4 under tsx (two solver
 * threads each); one solver thread started on 0.3 CPU-s compiled against 1.0.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { serverBuildState, SERVER_DIST, SERVER_MAIN } from '../../scripts/build-server.js';
import { bundleOf } from '../../scripts/test-bundles.js';
import { withoutTsxLoader } from '../../solver/thread-exec-argv.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let fresh: boolean | undefined;
/** True when `dist/` was built from this checkout's sources as they are now. */
export const compiledFresh = (): boolean => (fresh ??= serverBuildState() === 'fresh');

/**
 * The Node arguments that start the service of checkout `root`: `dist/service/main.js` when
 * `root` is this checkout and its `dist/` is fresh, else `--import tsx service/main.ts` (run in
 * `root`).
 */
export function serviceMainArgs(root = ROOT): string[] {
  return root === ROOT && compiledFresh() ? [SERVER_MAIN] : ['--import', 'tsx', 'service/main.ts'];
}

/** The search threads' module for an in-process service: `dist/solver/thread.js` when fresh, else undefined (the default beside the solver). */
export function solverThreadModule(): URL | undefined {
  return compiledFresh() ? pathToFileURL(join(SERVER_DIST, 'solver', 'thread.js')) : undefined;
}

/** True when this process loads TypeScript (tsx among its Node options): not so in npm test's bundles. */
const loadsTypeScript = (): boolean => withoutTsxLoader(process.execArgv).length !== process.execArgv.length;

/**
 * A worker thread's module given as its TypeScript source (relative to the repository, one of
 * scripts/test-bundles.ts THREAD_ENTRIES): the source when this process loads TypeScript (its
 * threads inherit tsx), else the bundle npm test's `prepare` made of it (a bundled test runs
 * without tsx, and so would its threads).
 */
export function threadModuleOf(source: string): URL {
  return pathToFileURL(loadsTypeScript() ? join(ROOT, source) : bundleOf(source));
}
