/**
 * The `prepare` phase of `npm test` (scripts/test-suite.ts), also on its own:
 * `node --import tsx scripts/test-prepare.ts`. Makes what every test file would otherwise make
 * for itself, once, before tap starts:
 *
 * - tap's test class, built for package.json's plugin list when it was built for another one.
 *   tap rebuilds it itself when the lists differ, but only for the next run: the run that rebuilt
 *   it still hands its test processes the old class's loaders. After `npm ci` that is tap's
 *   default set, whose TypeScript plugin loads ts-node into every test process beside tsx
 *   (about 1 s and 1.5 CPU-s a file on this machine).
 * - the 3D viewer and the web app (scripts/front-end-builds.ts), built when missing or stale;
 * - the compiled server `dist/` (scripts/build-server.ts), built when missing or stale;
 * - the test files' bundles, which tap runs (scripts/test-bundles.ts), built every time (about
 *   1.5 s for all of them).
 *
 * Exit 1 when a build fails.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { FRONT_ENDS, ensureBuild } from './front-end-builds.js';
import { REPO_ROOT } from './test-phases.js';
import { buildTestBundles } from './test-bundles.js';

const run = promisify(execFile);
const TAP = join(REPO_ROOT, 'node_modules', '.bin', 'tap');

/** The plugins of `tap plugin list` (what package.json asks for), sorted. */
async function configuredPlugins(): Promise<string[]> {
  const { stdout } = await run(TAP, ['plugin', 'list'], { cwd: REPO_ROOT });
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .sort();
}

/**
 * The plugins of the `plugins:` block of `tap versions`' output (YAML: `  "@tapjs/after": 3.3.12`),
 * sorted: those tap's test class was built with. None when the block is missing.
 */
export function pluginsOfVersions(versions: string): string[] {
  const block = versions.split('\nplugins:\n')[1] ?? '';
  const plugins: string[] = [];
  for (const line of block.split('\n')) {
    const m = /^\s+"?([^":\s]+)"?:/.exec(line);
    if (!m) break;
    plugins.push(m[1]!);
  }
  return plugins.sort();
}

/** The plugins tap's test class was built with, sorted. */
async function builtPlugins(): Promise<string[]> {
  const { stdout } = await run(TAP, ['versions'], { cwd: REPO_ROOT });
  return pluginsOfVersions(stdout);
}

/** Builds tap's test class when it was built for other plugins than package.json's; true when it built. */
export async function ensureTapBuild(): Promise<boolean> {
  const [configured, built] = await Promise.all([configuredPlugins(), builtPlugins()]);
  if (configured.join('\n') === built.join('\n')) return false;
  await run(TAP, ['build'], { cwd: REPO_ROOT });
  return true;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const [rebuilt, , , bundles] = await Promise.all([
    ensureTapBuild(),
    (async () => {
      for (const fe of FRONT_ENDS) {
        if ((await ensureBuild(fe, 'stale')) !== 'fresh') throw new Error(`the ${fe.name} build failed`);
      }
    })(),
    run(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'build-server.ts'), '--if-stale'], {
      cwd: REPO_ROOT,
    }).then(({ stderr }) => process.stderr.write(stderr)),
    buildTestBundles(),
  ]);
  process.stdout.write(
    `tap's test class ${rebuilt ? "rebuilt for package.json's plugins" : "already built for package.json's plugins"}; ` +
      `front ends and dist/ fresh; ${bundles.files} test files bundled in ${(bundles.ms / 1000).toFixed(1)} s ` +
      `(${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
