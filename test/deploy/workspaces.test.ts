/**
 * The front ends as npm workspaces: `webapp/`, `viewer/` and `clients/typescript` declare the
 * packages their sources import; the server package (the root) declares none of the front ends'
 * libraries (React, react-router, three.js, the Vite React plugin and their types), and its
 * sources import neither them, nor Vite, nor the front ends' sources; the image's server stage
 * installs the root's production dependencies without the workspaces.
 */
import t from 'tap';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Manifest {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const manifest = (folder: string): Manifest =>
  JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as Manifest;
const declared = (m: Manifest): Set<string> =>
  new Set([...Object.keys(m.dependencies ?? {}), ...Object.keys(m.devDependencies ?? {})]);

/** Every .ts/.tsx file under `folder` (relative to the root), without node_modules and dist. */
function sources(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, folder))) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('dist.building-')) continue;
    const path = join(folder, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sources(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** The specifiers `file` imports (static imports, re-exports and `import()` with a literal). */
function specifiers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)'([^']+)'/gm)].map((m) => m[1]!);
}

/** The package a bare specifier names (`@scope/name` or `name`), or null for a relative or node: one. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

const FRONT_END_LIBRARIES = [
  'react',
  'react-dom',
  'react-router',
  'three',
  '@vitejs/plugin-react',
  '@types/react',
  '@types/react-dom',
  '@types/three',
];

t.test('the root declares the three front-end workspaces and none of their libraries', async (t) => {
  const root = manifest('.');
  t.same(root.workspaces, ['clients/typescript', 'viewer', 'webapp']);
  t.same(
    FRONT_END_LIBRARIES.filter((name) => declared(root).has(name)),
    [],
    'no front-end library in the server package',
  );
  t.same(
    ['clients/typescript', 'viewer', 'webapp'].map((folder) => manifest(folder).name),
    ['@packing/client', '@packing/viewer', '@packing/webapp'],
  );
});

t.test('each workspace declares every package its sources import', async (t) => {
  for (const [folder, under] of [
    ['webapp', ['webapp/src', 'webapp/vite.config.ts']],
    ['viewer', ['viewer/src', 'viewer/vite.config.ts']],
    ['clients/typescript', ['clients/typescript/src', 'clients/typescript/scripts']],
  ] as const) {
    const own = declared(manifest(folder));
    const files = under.flatMap((path) => (/\.tsx?$/.test(path) ? [path] : sources(path)));
    t.ok(files.length > 0, `${folder} has sources`);
    const missing = new Set<string>();
    for (const file of files)
      for (const specifier of specifiers(file)) {
        const pkg = packageOf(specifier);
        if (pkg !== null && !own.has(pkg)) missing.add(`${file}: ${pkg}`);
      }
    t.same([...missing], [], `${folder}: imports declared in ${folder}/package.json`);
  }
});

t.test('the server sources import no front-end library, no Vite and no front-end source', async (t) => {
  const found: string[] = [];
  for (const folder of [
    'api',
    'application',
    'domain',
    'service',
    'adapters',
    'projections',
    'solver',
    'pdf',
    'display',
  ])
    for (const file of sources(folder))
      for (const specifier of specifiers(file)) {
        const pkg = packageOf(specifier);
        if (
          (pkg !== null && (FRONT_END_LIBRARIES.includes(pkg) || pkg === 'vite')) ||
          /(^|\/)(webapp|viewer)\//.test(specifier) ||
          specifier.includes('scripts/')
        )
          found.push(`${file}: ${specifier}`);
      }
  t.same(found, []);
});

t.test("the image's server stage installs the root's production dependencies only", async (t) => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  t.match(dockerfile, /^RUN npm ci --omit=dev --workspaces=false\b/m, 'no workspace in the run stage');
  t.match(dockerfile, /^COPY --from=front-ends \/app\/webapp\/dist \.\/webapp\/dist$/m);
  t.match(dockerfile, /^COPY --from=front-ends \/app\/viewer\/dist \.\/viewer\/dist$/m);
});
