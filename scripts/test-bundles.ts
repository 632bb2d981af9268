/**
 * The test files as npm test runs them: each `test/**\/*.test.ts` bundled by esbuild into
 * `.tap/bundles/test/**\/*.test.mjs` (the repository's own modules inlined, shared ones split into
 * chunks, packages left to Node), so tap's processes load a few JavaScript files without the tsx
 * loader instead of hundreds of TypeScript modules through it. Built in `prepare`
 * (scripts/test-prepare.ts); tap reads BUNDLE_TAP_RC, package.json's `tap` block with the bundles
 * in place of the sources and without tsx (scripts/test-suite.ts). `npx tap test/a.test.ts` still
 * runs a source file under tsx.
 *
 * A module keeps the `import.meta.url` of its source file (and `import.meta.dirname`,
 * `import.meta.filename`): what it reads or starts beside itself (fixtures, `dist/`, a script
 * run under tsx) is found as from the source. Names are kept (`keepNames`: a class's `name`, as
 * errors print it), and source maps link stack traces and tap's failure excerpts to the TypeScript.
 */
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { REPO_ROOT, TAP_DIR } from './test-phases.js';
import { withoutTsxLoader } from '../solver/thread-exec-argv.js';

/** Where the bundles go (git-ignored with `.tap/`). */
export const BUNDLE_DIR = join(TAP_DIR, 'bundles');
/** The bundles of the test files, the folder npm test hands tap. */
export const BUNDLE_TEST_DIR = join(BUNDLE_DIR, 'test');
/** The tap configuration of a run of the bundles (JSON, which tap reads as YAML), for `TAP_RCFILE`. */
export const BUNDLE_TAP_RC = join(BUNDLE_DIR, 'taprc.json');
/**
 * The launchers of the bundles, the folder npm test hands tap: `launch/test/a.test.mjs` runs
 * `test/a.test.mjs` without tap's processinfo preload (scripts/test-launch.mjs).
 */
export const LAUNCH_DIR = join(BUNDLE_DIR, 'launch');
/** The module every launcher imports. */
const LAUNCHER = join(REPO_ROOT, 'scripts', 'test-launch.mjs');

/** A bundle's path as tap names it, relative to the repository: `.tap/bundles/test/a.test.mjs`. */
const BUNDLE_PREFIX = `${relative(REPO_ROOT, BUNDLE_DIR).split(sep).join('/')}/`;

/**
 * The source test file of a bundle's or its launcher's path (relative to the repository,
 * `/`-separated): `.tap/bundles/test/a.test.mjs` and `.tap/bundles/launch/test/a.test.mjs` →
 * `test/a.test.ts`; any other path as it is. (scripts/test-cpu-record.mjs, plain JavaScript,
 * repeats the bundles' rule.)
 */
export function sourceOfBundle(file: string): string {
  if (!file.startsWith(BUNDLE_PREFIX)) return file;
  const inBundles = file.slice(BUNDLE_PREFIX.length);
  return (inBundles.startsWith('launch/') ? inBundles.slice('launch/'.length) : inBundles).replace(/\.mjs$/, '.ts');
}

/**
 * package.json's `tap` block for a run of the bundles: the same plugins (tap's built test class
 * stays valid), jobs and environment, the Node options without tsx, the bundles' launchers as
 * the test files.
 */
export function bundleTapConfig(tap: Record<string, unknown>): Record<string, unknown> {
  const nodeArgs = Array.isArray(tap['node-arg']) ? (tap['node-arg'] as string[]) : [];
  return {
    ...tap,
    'node-arg': withoutTsxLoader(nodeArgs),
    include: [`${BUNDLE_PREFIX}launch/test/**/*.test.mjs`],
  };
}

/** Every `*.test.ts` under `dir`, relative to the repository, sorted. */
function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith('.test.ts')) found.push(relative(REPO_ROOT, path));
  }
  return found.sort();
}

/** What a module reads for `import.meta.url`, `.dirname` and `.filename` (esbuild `define`). */
const SOURCE_META = {
  'import.meta.url': '__sourceImportMetaUrl',
  'import.meta.dirname': '__sourceImportMetaDirname',
  'import.meta.filename': '__sourceImportMetaFilename',
} as const;

/**
 * The repository's TypeScript with its source file's `import.meta` values declared on its first
 * line (so no line moves), to which SOURCE_META points each module's own `import.meta` fields.
 */
const sourceImportMeta: Plugin = {
  name: 'source-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.split(sep).includes('node_modules')) return undefined;
      const values = [pathToFileURL(args.path).href, dirname(args.path), args.path];
      const names = Object.values(SOURCE_META);
      const declared = `var ${names.map((n, i) => `${n} = ${JSON.stringify(values[i])}`).join(', ')}; `;
      return {
        contents: declared + (await readFile(args.path, 'utf8')),
        loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
      };
    });
  },
};

/**
 * Bundles `entryPoints` (paths relative to the repository) into `outdir`, each at its path
 * below the repository's root with `.mjs` for `.ts`, their shared modules in `outdir/chunks/`.
 * Throws with esbuild's messages when a file does not bundle.
 */
export async function bundleTests(entryPoints: readonly string[], outdir: string): Promise<void> {
  // Loaded here: test:times and test:failures read only the names above.
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [...entryPoints],
    outdir,
    outbase: REPO_ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    keepNames: true,
    sourcemap: 'linked',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    define: SOURCE_META,
    plugins: [sourceImportMeta],
    logLevel: 'error',
  });
}

/**
 * TypeScript modules the tests start worker threads on: bundled beside the tests
 * (`.tap/bundles/scripts/core-kernels.mjs`), as a bundled test's threads, without tsx, cannot load
 * the source (test/helpers/compiled-service.ts threadModuleOf). The solver's threads run `dist/`.
 */
export const THREAD_ENTRIES: readonly string[] = ['scripts/core-kernels.ts'];

/** The bundle of THREAD_ENTRIES' `source` (relative to the repository). */
export const bundleOf = (source: string): string => join(BUNDLE_DIR, source.replace(/\.ts$/, '.mjs'));

/**
 * The launcher of the bundle of `source` (`test/a.test.ts`, relative to the repository): a module
 * at `.tap/bundles/launch/test/a.test.mjs` that runs `.tap/bundles/test/a.test.mjs` through
 * scripts/test-launch.mjs. Returns its path and text.
 */
export function launcherOf(source: string): { path: string; text: string } {
  const bundle = join(BUNDLE_DIR, source.replace(/\.ts$/, '.mjs'));
  const path = join(LAUNCH_DIR, source.replace(/\.ts$/, '.mjs'));
  const from = (target: string): string => JSON.stringify(relative(dirname(path), target).split(sep).join('/'));
  const text =
    `import { launch } from ${from(LAUNCHER)};\n` + `await launch(new URL(${from(bundle)}, import.meta.url));\n`;
  return { path, text };
}

/**
 * Bundles every test file into BUNDLE_TEST_DIR (the folder emptied first: a deleted test leaves
 * no bundle), writes each one's launcher into LAUNCH_DIR and BUNDLE_TAP_RC. Resolves with the
 * number of files and the time, ms.
 * Throws with esbuild's messages when a file does not bundle.
 */
export async function buildTestBundles(): Promise<{ files: number; ms: number }> {
  const t0 = performance.now();
  const entryPoints = testFiles(join(REPO_ROOT, 'test'));
  await rm(BUNDLE_DIR, { recursive: true, force: true });
  await bundleTests([...entryPoints, ...THREAD_ENTRIES], BUNDLE_DIR);
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { tap?: Record<string, unknown> };
  await Promise.all(
    entryPoints.map(async (source) => {
      const { path, text } = launcherOf(source);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
    }),
  );
  await writeFile(BUNDLE_TAP_RC, `${JSON.stringify(bundleTapConfig(pkg.tap ?? {}), null, 1)}\n`);
  return { files: entryPoints.length, ms: performance.now() - t0 };
}
