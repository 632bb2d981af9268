/**
 * The compiled server finds the files it reads beside its modules: every
 * `new URL('<file>', import.meta.url)` of the server's sources that names a data file (not a
 * module) is in scripts/build-server.ts RUN_TIME_FILES, which the build copies into `dist/` at
 * the same path; a module that reads a new file and is not listed fails here, not in production.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_TIME_FILES } from '../../scripts/build-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The folders the server is compiled from (tsconfig.build.json follows service/main.ts into them). */
const SERVER_FOLDERS = [
  'service',
  'api',
  'application',
  'domain',
  'projections',
  'adapters',
  'solver',
  'pdf',
  'display',
];

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** Repository paths of the data files the server's modules read relative to themselves. */
function filesReadBesideModules(): string[] {
  const found = new Set<string>();
  for (const folder of SERVER_FOLDERS) {
    for (const file of sources(join(ROOT, folder))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/new URL\(\s*'([^']+)'\s*,\s*import\.meta\.url\s*\)/g)) {
        const target = m[1]!;
        if (/\.(ts|js)$/.test(target) || target.endsWith('/') || target === '.' || target === '..') continue;
        found.add(
          relative(ROOT, join(dirname(file), target))
            .split(sep)
            .join('/'),
        );
      }
    }
  }
  return [...found].sort();
}

t.test('every file the server reads beside a module is copied into dist/', async (t) => {
  const read = filesReadBesideModules();
  t.ok(read.includes('api/http/openapi/examples.json'), 'the scan finds the OpenAPI examples');
  t.same(
    read.filter((f) => !RUN_TIME_FILES.includes(f)),
    [],
    'each is in RUN_TIME_FILES',
  );
});
