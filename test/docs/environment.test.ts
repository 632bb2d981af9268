/**
 * docs/operations.md documents every environment variable the service reads, and nothing it no
 * longer reads: the names read in service/ (the composition root, where the environment is read)
 * against the variable tables of the guide's "Configuration (environment)" and "Distributed
 * profile" sections.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, markdownSection, readRepoFile } from '../helpers/markdown-docs.js';

/** Every .ts file under a folder of the repository (recursive), as absolute paths. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(REPO_ROOT, folder, f));
}

/**
 * The environment variables a source text names: `env['X']` / `env.X` reads, and quoted
 * upper-case names with an underscore (`'SOLVER_CONCURRENCY'`, passed to the readers that check a
 * value and name it in their error).
 */
function variablesNamed(source: string): Set<string> {
  const names = new Set<string>();
  for (const m of source.matchAll(/\benv(?:\?\.)?(?:\[\s*'([A-Z][A-Z0-9_]*)'\s*\]|\.([A-Z][A-Z0-9_]*)\b)/g))
    names.add((m[1] ?? m[2])!);
  for (const m of source.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)) names.add(m[1]!);
  return names;
}

/** The variables of a guide's tables whose first column is `variable`, in the given sections. */
function documentedVariables(guide: string, sections: string[]): Set<string> {
  const names = new Set<string>();
  for (const heading of sections) {
    const text = markdownSection(guide, heading) ?? '';
    let inTable = false;
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      const separator = /^\|[\s:|-]+\|\s*$/;
      if (separator.test(line)) return;
      if (separator.test(lines[i + 1] ?? '')) inTable = /^\|\s*variable\s*\|/i.test(line);
      else if (!line.startsWith('|')) inTable = false;
      else if (inTable) {
        const first = line.split('|')[1] ?? '';
        for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
      }
    });
  }
  return names;
}

const SECTIONS = ['Configuration (environment)', 'Distributed profile'];

/** Variables read but not documented, and documented but read nowhere in the given sources. */
function environmentProblems(guide: string, serviceSources: string[], allSources: string[]) {
  const documented = documentedVariables(guide, SECTIONS);
  const read = new Set(serviceSources.flatMap((s) => [...variablesNamed(s)]));
  const named = new Set(allSources.flatMap((s) => [...variablesNamed(s)]));
  return {
    read,
    documented,
    undocumented: [...read].filter((v) => !documented.has(v)).sort(),
    stale: [...documented].filter((v) => !named.has(v)).sort(),
  };
}

const guide = readRepoFile('docs/operations.md');
const service = sourceFiles('service').map((f) => readFileSync(f, 'utf8'));
const everywhere = [
  ...service,
  ...['adapters', 'api', 'application', 'projections'].flatMap(sourceFiles).map((f) => readFileSync(f, 'utf8')),
  readRepoFile('scripts/admin.ts'),
];

t.test('docs/operations.md lists every environment variable the service reads, and no other', async (t) => {
  const { read, documented, undocumented, stale } = environmentProblems(guide, service, everywhere);
  t.ok(read.size >= 25, `the service reads ${read.size} variables: ${[...read].sort().join(', ')}`);
  for (const v of ['PORT', 'HOST', 'PACKING_DATA_DIR', 'TRUST_PROXY', 'DEPENDENCY_GRACE_MS'])
    t.ok(read.has(v), `${v} is found among the variables read`);
  t.ok(documented.size >= 25, `${documented.size} variables documented`);
  t.same(undocumented, [], 'read by service/ but in no variable table of docs/operations.md');
  t.same(stale, [], 'documented but read nowhere in the source');
});

t.test('the check finds an undocumented and a stale variable', async (t) => {
  const doc = [
    '## Configuration (environment)',
    '| variable | default | meaning |',
    '|---|---|---|',
    '| `PORT`, `OLD_SETTING` | 8080 | … |',
    '## Distributed profile',
    '| variable | default | meaning | set in docker-compose.yml |',
    '|---|---|---|---|',
    '| `NATS_URL` | unset | … | all |',
    '| service | image |',
    '|---|---|',
    '| `NOT_A_VARIABLE` | x |',
  ].join('\n');
  const source = "const p = env['PORT']; const n = env.NATS_URL; read('NEW_SETTING', env); const c = process.env['X_Y'];";
  const problems = environmentProblems(doc, [source], [source]);
  t.same([...problems.documented].sort(), ['NATS_URL', 'OLD_SETTING', 'PORT']);
  t.same(problems.undocumented, ['NEW_SETTING', 'X_Y']);
  t.same(problems.stale, ['OLD_SETTING']);
});
