/**
 * How a test starts a Node child process (the service, a script): the command line with tap's
 * process-info preload left out, and the service's entry point in its cheapest faithful form.
 *
 * - tap adds its process-info preload (`@tapjs/processinfo`) to the NODE_OPTIONS of every
 *   process a test starts, whatever environment the test passes. It records the files each
 *   process loads, for coverage, which npm test does not collect (package.json `tap`); its
 *   module hooks doubled the start-up CPU of a service (2.6 → 4.5 CPU-s measured). `env`
 *   (coreutils) starts the child with NODE_OPTIONS as the test had it, without that preload; it
 *   execs Node in its place, so the child's pid and signals are Node's.
 * - The service runs as `npm start` runs it, from the compiled `dist/service/main.js`, when
 *   `dist/` is fresh for this checkout's sources (npm test builds it first,
 *   scripts/test-prepare.ts); else from `service/main.ts` under tsx, as a single test file run
 *   after an edit finds it. The compiled service started on 2.7 CPU-s, the tsx one on 10.4
 *   (both with two solver threads, to the "listening" line).
 */
import { fileURLToPath } from 'node:url';
import { serverBuildState, SERVER_MAIN } from '../../scripts/build-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The preload tap adds to every child process (see above). */
const TAP_PRELOAD = /@tapjs[\\/]processinfo/;

/** A command line: the program and its arguments, to spread into `spawn` and its kin. */
export type CommandLine = [command: string, args: string[]];

/** The NODE_OPTIONS `nodeOptions` without tap's process-info preload (the whole `--import=…` or `--import …`). */
export function withoutTapPreload(nodeOptions: string): string {
  const words = nodeOptions.split(/\s+/).filter(Boolean);
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    const next = words[i + 1] ?? '';
    if (TAP_PRELOAD.test(word)) continue;
    if (
      (word === '--import' || word === '--loader' || word === '--require' || word === '-r') &&
      TAP_PRELOAD.test(next)
    ) {
      i++;
      continue;
    }
    kept.push(word);
  }
  return kept.join(' ');
}

/**
 * `node <args>` as a child of a test, without tap's preload: `env` with this process's
 * NODE_OPTIONS less that preload (unset when nothing is left).
 */
export function nodeChild(args: readonly string[], nodeOptions = process.env['NODE_OPTIONS'] ?? ''): CommandLine {
  const kept = withoutTapPreload(nodeOptions);
  return ['env', [...(kept ? [`NODE_OPTIONS=${kept}`] : ['-u', 'NODE_OPTIONS']), process.execPath, ...args]];
}

let compiledFresh: boolean | undefined;

/**
 * The Node arguments that start the service of this checkout: `dist/service/main.js` when
 * `dist/` is fresh (checked once per test process), else `--import tsx service/main.ts`.
 * `root` other than this checkout always gets the tsx form (its `dist/` is not checked).
 */
export function serviceMainArgs(root = ROOT): string[] {
  if (root === ROOT) {
    compiledFresh ??= serverBuildState() === 'fresh';
    if (compiledFresh) return [SERVER_MAIN];
  }
  return ['--import', 'tsx', 'service/main.ts'];
}
