/**
 * The Node options of the solver's worker threads (solve.ts). Compiled threads (`dist/`) run
 * without the tsx loader, as under `npm start`, even when the process that starts them runs
 * TypeScript through it (tests, `npm run bench`).
 */

/** Node options that take a module to load before the program: `--import tsx`, `--import=tsx`. */
const PRELOAD = /^--(?:import|loader|experimental-loader|require)$/;
const PRELOAD_WITH_VALUE = /^--(?:import|loader|experimental-loader|require)=/;
/** A module specifier of the tsx loader: `tsx`, `tsx/esm`, a path into its package. */
const TSX = /(?:^|[\\/])tsx(?:$|[\\/])/;

/**
 * `argv` (process.execArgv's shape: `['--import', 'tsx', '--enable-source-maps']`) without the
 * options that load tsx, in both the `--import tsx` and the `--import=tsx` form; every other
 * option is kept in order.
 */
export function withoutTsxLoader(argv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (PRELOAD.test(arg) && TSX.test(argv[i + 1] ?? '')) i++;
    else if (!(PRELOAD_WITH_VALUE.test(arg) && TSX.test(arg.slice(arg.indexOf('=') + 1)))) kept.push(arg);
  }
  return kept;
}
