/**
 * `npm run build` (server part) and `npm start`'s pre-step (`--if-stale`): compiles the service
 * with `tsc -p tsconfig.build.json` into `dist/` (git-ignored), a mirror of the source tree
 * (`service/main.ts` → `dist/service/main.js`, the solver's worker thread `solver/thread.ts` →
 * `dist/solver/thread.js`), so production runs JavaScript and not TypeScript through a loader.
 * The files the server reads beside its modules at run time (RUN_TIME_FILES) are copied to the
 * same place under `dist/`. After a build, `dist/sources.json` records a SHA-256 of every source
 * the build was made from; `--if-stale` compiles only when one of them changed (or an output is
 * missing), so a fresh build costs a few milliseconds and does not need TypeScript installed
 * (a production install runs a `dist/` built elsewhere). tsc itself is incremental
 * (`dist/.tsbuildinfo`): a stale build recompiles what changed. Exit 1 when the build fails or
 * is needed without TypeScript installed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { processAlive } from '../service/service-address.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The compiled server (tsconfig.build.json `outDir`). */
export const SERVER_DIST = join(ROOT, 'dist');
/** The compiled entry point `npm start` runs. */
export const SERVER_MAIN = join(SERVER_DIST, 'service', 'main.js');
const CONFIG = 'tsconfig.build.json';
/** The configuration the build depends on besides the sources. */
const CONFIG_FILES = ['tsconfig.json', CONFIG];
/**
 * Files the server reads at run time relative to its own module (`new URL(…, import.meta.url)`),
 * repository paths: copied into `dist/` at the same path, so the compiled module finds them.
 * The OpenAPI examples (api/http/openapi/examples.ts) and the package manifest (its version in
 * the OpenAPI document, api/http/openapi/document.ts; in `dist/` it also marks the folder ESM).
 */
export const RUN_TIME_FILES = ['api/http/openapi/examples.json', 'package.json'];
const STAMP = join(SERVER_DIST, 'sources.json');
const BUILD_INFO = join(SERVER_DIST, '.tsbuildinfo');

/** `missing`: no compiled entry point; `stale`: a source changed or an output is gone; `fresh`. */
export type ServerBuildState = 'missing' | 'stale' | 'fresh';

const hashOf = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
const toPosix = (path: string): string => path.split(sep).join('/');

/** The state of `dist/` against the sources its last build recorded. */
export function serverBuildState(): ServerBuildState {
  if (!existsSync(SERVER_MAIN)) return 'missing';
  if (!existsSync(STAMP)) return 'stale';
  const recorded = JSON.parse(readFileSync(STAMP, 'utf8')) as { files?: Record<string, string> };
  for (const [file, hash] of Object.entries(recorded.files ?? {})) {
    const source = join(ROOT, file);
    if (!existsSync(source) || hashOf(source) !== hash) return 'stale';
    if (!existsSync(join(SERVER_DIST, outputOf(file)))) return 'stale';
  }
  return 'fresh';
}

/** The output in `dist/` of a recorded file: `a/b.ts` → `a/b.js`; a copied file keeps its name. */
function outputOf(file: string): string {
  if (CONFIG_FILES.includes(file)) return 'sources.json';
  return file.endsWith('.ts') ? `${file.slice(0, -3)}.js` : file;
}

function* compiledFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* compiledFiles(path);
    else if (entry.name.endsWith('.js')) yield path;
  }
}

/**
 * Compiles the server into `dist/`, copies RUN_TIME_FILES, removes the outputs of deleted
 * sources and records the sources. Resolves with the build time, ms. Throws when TypeScript
 * is not installed or tsc reports an error (its diagnostics go to stderr).
 */
export function buildServer(): number {
  const started = performance.now();
  let tsc: string;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    throw new Error(
      'TypeScript is not installed (production install): build dist/ where dev dependencies are (`npm run build`)',
    );
  }
  // An output deleted by hand is not re-emitted while tsc's incremental record says it is there.
  if (serverBuildState() !== 'fresh') rmSync(STAMP, { force: true });
  if (!existsSync(SERVER_MAIN)) rmSync(BUILD_INFO, { force: true });
  const run = spawnSync(process.execPath, [tsc, '-p', CONFIG], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`tsc -p ${CONFIG} failed (exit ${run.status ?? run.signal})`);
  for (const file of RUN_TIME_FILES) {
    mkdirSync(dirname(join(SERVER_DIST, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(SERVER_DIST, file));
  }
  const files: Record<string, string> = {};
  for (const output of compiledFiles(SERVER_DIST)) {
    const name = toPosix(relative(SERVER_DIST, output));
    const source = `${name.slice(0, -3)}.ts`;
    if (existsSync(join(ROOT, source))) {
      files[source] = hashOf(join(ROOT, source));
    } else {
      // The source was deleted or moved since an earlier build: its module goes too.
      rmSync(output, { force: true });
      rmSync(`${output}.map`, { force: true });
    }
  }
  for (const file of [...CONFIG_FILES, ...RUN_TIME_FILES]) files[file] = hashOf(join(ROOT, file));
  const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(STAMP, `${JSON.stringify({ files: sorted }, null, 1)}\n`);
  return performance.now() - started;
}

const LOCK = join(ROOT, 'dist.build-lock');

/**
 * Runs `fn` holding the build lock (a file with the holder's pid beside `dist/`), so two
 * `npm start`s at once (test files run in parallel) do not write one `dist/` together: waits
 * while a live process holds it (checking every 100 ms, at most 5 minutes), takes over the lock
 * of a process that is gone.
 */
function withBuildLock<T>(fn: () => T): T {
  const waitUntil = Date.now() + 300_000;
  for (;;) {
    try {
      writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(LOCK, 'utf8'));
      if (holder > 0 && !processAlive(holder)) rmSync(LOCK, { force: true });
      else if (Date.now() > waitUntil) throw new Error(`another build (pid ${holder}) holds ${LOCK}`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

/** `--if-stale`: builds only when not fresh, and says so on stderr; otherwise always builds. */
function main(argv: readonly string[]): void {
  const ifStale = argv.includes('--if-stale');
  if (ifStale && serverBuildState() === 'fresh') return;
  withBuildLock(() => {
    // Another process may have built it while this one waited for the lock.
    const state = serverBuildState();
    if (ifStale && state === 'fresh') return;
    const ms = buildServer();
    process.stderr.write(`built the server into dist in ${(ms / 1000).toFixed(1)} s (it was ${state})\n`);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
