/**
 * The built front ends the service serves: the web app (`webapp/dist`, at /app) and the 3D viewer
 * (`viewer/dist`, at /viewer). The server knows only these folders, never the front ends' sources
 * or their build tool: `npm run build` (scripts/build-front-ends.ts) writes them, `npm start` builds
 * a missing or stale one first. A page whose build is missing answers `503 api_disabled` naming the
 * command that builds it, not a 500.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError } from './errors.js';

/** A built front end: its name (for messages) and the folder of its build (index.html, assets/). */
export interface BuiltFrontEnd {
  name: string;
  dist: string;
}

/**
 * The folder holding the front ends (`webapp/`, `viewer/`: their sources or only their builds): the
 * nearest one above this module, so the answer is the same when this module runs compiled from
 * `dist/` (which holds no front end). Where none is found, the root of the source layout (two
 * folders up), whose pages then answer that they are not built: the service still starts.
 */
function frontEndsRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const holds = (name: string): boolean =>
      existsSync(join(folder, name, 'package.json')) || existsSync(join(folder, name, 'dist'));
    if (holds('webapp') || holds('viewer')) return folder;
    const parent = dirname(folder);
    if (parent === folder) return fileURLToPath(new URL('../../', import.meta.url));
    folder = parent;
  }
}

const ROOT = frontEndsRoot();

/** The web app's build (served at /app/). */
export const WEB_APP_BUILD: BuiltFrontEnd = { name: 'web app', dist: join(ROOT, 'webapp', 'dist') };
/** The 3D viewer's build (served at /viewer/). */
export const VIEWER_BUILD: BuiltFrontEnd = { name: '3D viewer', dist: join(ROOT, 'viewer', 'dist') };

/** Whether `build` has its page (dist/index.html). */
export function isBuilt(build: BuiltFrontEnd): boolean {
  return existsSync(join(build.dist, 'index.html'));
}

/** The folder of `build`'s hashed scripts and styles (dist/assets). */
export function assetsOf(build: BuiltFrontEnd): string {
  return join(build.dist, 'assets');
}

/**
 * The page of `build` (dist/index.html), read once: a build does not change while the service
 * runs. Throws ApiError `api_disabled` (503) while the build is missing, read again on the next request.
 */
export function pageReader(build: BuiltFrontEnd): () => string {
  let page: string | null = null;
  return () => {
    if (page !== null) return page;
    if (!isBuilt(build)) throw new ApiError('api_disabled', `the ${build.name} is not built: run \`npm run build\``);
    page = readFileSync(join(build.dist, 'index.html'), 'utf8');
    return page;
  };
}
