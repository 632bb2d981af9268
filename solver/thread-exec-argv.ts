/**
 * The Node options of the solver's worker threads (solve.ts). Threads inherit the process's
 * options as Node passes them on (V8's heap and GC flags included), so the service starts under
 * any options plain `node` accepts. Compiled threads (`dist/`) run without the tsx loader, as
 * under `npm start`, even when the process that starts them runs TypeScript through it (tests,
 * `npm run bench`); they then get only the few options in KEPT (other preloads are dropped too).
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

/**
 * Node options a compiled thread keeps when the tsx loader has to be taken out: an explicit
 * worker `execArgv` may not name V8's options (`--max-old-space-size=…`) or process-wide ones
 * (`--title=…`), which Node refuses with ERR_WORKER_INVALID_EXEC_ARGV, so only these are passed on:
 * source maps, CPU and heap profiles, export conditions and warnings. A flag in VALUED takes
 * the next argument as its value unless written `--flag=value`.
 */
const KEPT =
  /^(?:--enable-source-maps|--cpu-prof[a-z-]*|--heap-prof[a-z-]*|--conditions|-C|--no-warnings|--trace-warnings)(?:=|$)/;
const VALUED = /^(?:--cpu-prof-(?:dir|name|interval)|--heap-prof-(?:dir|name|interval)|--conditions|-C)$/;

/**
 * The `execArgv` of the solver's pool (piscina passes it to each Worker) for a process started
 * with `argv` (process.execArgv): undefined, so the threads inherit the process's options, unless
 * `compiled` threads would inherit a tsx preload; then `argv` without it and with only the
 * options in KEPT (tests and benches run so; `npm start` has no tsx).
 */
export function threadExecArgv(argv: readonly string[], compiled: boolean): string[] | undefined {
  const free = withoutTsxLoader(argv);
  if (!compiled || free.length === argv.length) return undefined;
  const kept: string[] = [];
  for (let i = 0; i < free.length; i++) {
    const arg = free[i]!;
    if (!KEPT.test(arg)) continue;
    kept.push(arg);
    if (VALUED.test(arg) && i + 1 < free.length) kept.push(free[++i]!);
  }
  return kept;
}
