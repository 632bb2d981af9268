/**
 * How a test starts a Node child process (the service, a script): the command line with tap's
 * process-info preload left out (the service's entry point: test/helpers/compiled-service.ts).
 *
 * tap adds its process-info preload (`@tapjs/processinfo`) to the NODE_OPTIONS of every process
 * a test starts, whatever environment the test passes. It records the files each process loads,
 * for coverage, which npm test does not collect (package.json `tap`); its module hooks doubled
 * the start-up CPU of a service (2.6 → 4.5 CPU-s measured). `env` (coreutils) starts the child
 * with NODE_OPTIONS as the test had it, without that preload; it execs Node in its place, so the
 * child's pid and signals are Node's.
 */

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
