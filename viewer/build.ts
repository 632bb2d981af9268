/**
 * The built 3D viewer (issue 9): where the service finds it (`viewer/dist/`), whether it is
 * missing or older than its sources, and the Vite build that makes it. After a build,
 * `dist/sources.json` records a SHA-256 of every source file the bundle was made from (the
 * modules Vite reports, without node_modules, plus index.html and vite.config.ts), so a changed
 * source makes the build stale. Vite is a dev dependency: it is imported only when building.
 * A build is written to a folder of its own and then moved into place, so two builds at once
 * (test files run in parallel) do not write into one folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The viewer's source folder. */
export const VIEWER_ROOT = fileURLToPath(new URL('.', import.meta.url));
/** The build output the service serves (git- and docker-ignored). */
export const VIEWER_DIST = join(VIEWER_ROOT, 'dist');
const REPO_ROOT = join(VIEWER_ROOT, '..');
const STAMP_NAME = 'sources.json';
const STAMP = join(VIEWER_DIST, STAMP_NAME);

/** `missing`: no dist/index.html; `stale`: a source changed since the build; `fresh`. */
export type ViewerBuildState = 'missing' | 'stale' | 'fresh';

const hashOf = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The state of the build in `viewer/dist/` against the sources it recorded. */
export function viewerBuildState(): ViewerBuildState {
  if (!existsSync(join(VIEWER_DIST, 'index.html'))) return 'missing';
  if (!existsSync(STAMP)) return 'stale';
  const recorded = JSON.parse(readFileSync(STAMP, 'utf8')) as { files?: Record<string, string> };
  for (const [file, hash] of Object.entries(recorded.files ?? {})) {
    const path = join(REPO_ROOT, file);
    if (!existsSync(path) || hashOf(path) !== hash) return 'stale';
  }
  return 'fresh';
}

/**
 * Builds the viewer with Vite into `viewer/dist/` and records its sources. Resolves with the
 * build time, ms. Throws when Vite is not installed (a production install) or the build fails.
 */
export async function buildViewer(): Promise<number> {
  const started = performance.now();
  const { build } = await import('vite');
  const outDir = join(VIEWER_ROOT, `dist.building-${process.pid}-${Date.now()}`);
  try {
    const output = await build({ configFile: join(VIEWER_ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    const outputs = Array.isArray(output) ? output : [output];
    const sources = new Set<string>([join(VIEWER_ROOT, 'index.html'), join(VIEWER_ROOT, 'vite.config.ts')]);
    for (const o of outputs) {
      if (!('output' in o)) continue;
      for (const chunk of o.output) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds) {
          const file = id.split('?')[0]!;
          if (!file.includes(`${sep}node_modules${sep}`) && file.startsWith(REPO_ROOT) && existsSync(file)) sources.add(file);
        }
      }
    }
    const files: Record<string, string> = {};
    for (const file of [...sources].sort()) files[relative(REPO_ROOT, file).split(sep).join('/')] = hashOf(file);
    writeFileSync(join(outDir, STAMP_NAME), `${JSON.stringify({ files }, null, 1)}\n`);
    // Another build may move its folder in between: replace again until ours is in place.
    for (let attempt = 0; ; attempt++) {
      rmSync(VIEWER_DIST, { recursive: true, force: true });
      try {
        renameSync(outDir, VIEWER_DIST);
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
 * Builds when the build is missing (`when: 'missing'`) or also when stale (`'stale'`). Without
 * Vite installed, says why on stderr and leaves the build as it is. Resolves with the state after.
 */
export async function ensureViewerBuild(when: 'missing' | 'stale'): Promise<ViewerBuildState> {
  const state = viewerBuildState();
  if (state === 'fresh' || (state === 'stale' && when === 'missing')) return state;
  try {
    await import('vite');
  } catch {
    process.stderr.write(`the 3D viewer build is ${state} and vite is not installed (production install): run \`npm ci && npm run build\`\n`);
    return state;
  }
  const ms = await buildViewer();
  process.stderr.write(`built the 3D viewer into viewer/dist in ${(ms / 1000).toFixed(1)} s (it was ${state})\n`);
  return viewerBuildState();
}
