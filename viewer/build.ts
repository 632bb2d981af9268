/**
 * The builds of the service's two front ends: the 3D viewer (`viewer/`) and the web app
 * (`webapp/`). One module for both, parametrised by the front end's root: where the
 * service finds a build (`<root>/dist/`), whether it is missing or older than its sources, and
 * the Vite build that makes it. After a build, `dist/sources.json` records a SHA-256 of every
 * source file the bundle was made from (the modules Vite reports, without node_modules, plus
 * index.html and vite.config.ts), so a changed source makes the build stale. Vite is a dev
 * dependency: it is imported only when building. A build is written to a folder of its own and
 * then moved into place, so two builds at once (test files run in parallel) do not write into one folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository: this module is `viewer/build.ts`, or `dist/viewer/build.js` in the compiled server (scripts/build-server.ts). */
const REPO_ROOT = fileURLToPath(
  new URL(new URL(import.meta.url).pathname.endsWith('.ts') ? '..' : '../..', import.meta.url),
);
const STAMP_NAME = 'sources.json';

/** A front end: its name (for messages), source folder (with index.html and vite.config.ts) and build output. */
export interface FrontEnd {
  name: string;
  root: string;
  dist: string;
}

const frontEnd = (name: string, folder: string): FrontEnd => ({
  name,
  root: join(REPO_ROOT, folder),
  dist: join(REPO_ROOT, folder, 'dist'),
});

/** The 3D viewer (served at /viewer/). */
export const VIEWER: FrontEnd = frontEnd('3D viewer', 'viewer');
/** The web app (served at /app/). */
export const WEBAPP: FrontEnd = frontEnd('web app', 'webapp');
/** Every front end `npm run build` builds. */
export const FRONT_ENDS: readonly FrontEnd[] = [VIEWER, WEBAPP];

/** The viewer's source folder. */
export const VIEWER_ROOT = VIEWER.root;
/** The viewer's build output the service serves (git- and docker-ignored). */
export const VIEWER_DIST = VIEWER.dist;

/** `missing`: no dist/index.html; `stale`: a source changed since the build; `fresh`. */
export type BuildState = 'missing' | 'stale' | 'fresh';
/** The viewer's build state (BuildState). */
export type ViewerBuildState = BuildState;

const hashOf = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The state of the build in `<root>/dist/` against the sources it recorded. */
export function buildState(fe: FrontEnd): BuildState {
  if (!existsSync(join(fe.dist, 'index.html'))) return 'missing';
  const stamp = join(fe.dist, STAMP_NAME);
  if (!existsSync(stamp)) return 'stale';
  const recorded = JSON.parse(readFileSync(stamp, 'utf8')) as { files?: Record<string, string> };
  for (const [file, hash] of Object.entries(recorded.files ?? {})) {
    const path = join(REPO_ROOT, file);
    if (!existsSync(path) || hashOf(path) !== hash) return 'stale';
  }
  return 'fresh';
}

/**
 * Builds a front end with Vite into `<root>/dist/` and records its sources. Resolves with the
 * build time, ms. Throws when Vite is not installed (a production install) or the build fails.
 */
export async function buildFrontEnd(fe: FrontEnd): Promise<number> {
  const started = performance.now();
  const { build } = await import('vite');
  const outDir = join(fe.root, `dist.building-${process.pid}-${Date.now()}`);
  try {
    const output = await build({
      configFile: join(fe.root, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    const outputs = Array.isArray(output) ? output : [output];
    const sources = new Set<string>([join(fe.root, 'index.html'), join(fe.root, 'vite.config.ts')]);
    for (const o of outputs) {
      if (!('output' in o)) continue;
      for (const chunk of o.output) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds) {
          const file = id.split('?')[0]!;
          if (!file.includes(`${sep}node_modules${sep}`) && file.startsWith(REPO_ROOT) && existsSync(file))
            sources.add(file);
        }
      }
    }
    const files: Record<string, string> = {};
    for (const file of [...sources].sort()) files[relative(REPO_ROOT, file).split(sep).join('/')] = hashOf(file);
    writeFileSync(join(outDir, STAMP_NAME), `${JSON.stringify({ files }, null, 1)}\n`);
    // Another build may move its folder in between: replace again until ours is in place.
    for (let attempt = 0; ; attempt++) {
      rmSync(fe.dist, { recursive: true, force: true });
      try {
        renameSync(outDir, fe.dist);
        break;
      } catch (err) {
        if (attempt >= 5) throw err;
      }
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  return performance.now() - started;
}

/**
 * Builds a front end when its build is missing (`when: 'missing'`) or also when stale
 * (`'stale'`). Without Vite installed, says why on stderr and leaves the build as it is.
 * Resolves with the state after.
 */
export async function ensureBuild(fe: FrontEnd, when: 'missing' | 'stale'): Promise<BuildState> {
  const state = buildState(fe);
  if (state === 'fresh' || (state === 'stale' && when === 'missing')) return state;
  try {
    await import('vite');
  } catch {
    process.stderr.write(
      `the ${fe.name} build is ${state} and vite is not installed (production install): run \`npm ci && npm run build\`\n`,
    );
    return state;
  }
  const ms = await buildFrontEnd(fe);
  process.stderr.write(
    `built the ${fe.name} into ${relative(REPO_ROOT, fe.dist)} in ${(ms / 1000).toFixed(1)} s (it was ${state})\n`,
  );
  return buildState(fe);
}

/** The viewer's build state (buildState of VIEWER). */
export const viewerBuildState = (): BuildState => buildState(VIEWER);
/** Builds the viewer (buildFrontEnd of VIEWER). */
export const buildViewer = (): Promise<number> => buildFrontEnd(VIEWER);
/** ensureBuild of VIEWER. */
export const ensureViewerBuild = (when: 'missing' | 'stale'): Promise<BuildState> => ensureBuild(VIEWER, when);
