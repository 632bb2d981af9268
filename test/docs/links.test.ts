/**
 * The README and the guides in docs/ hold together: every relative link and picture opens an
 * existing file (and its `#anchor` an existing heading), every picture in docs/img is shown by a
 * guide, every source path they name in backticks exists, the README stays a five-minute read
 * (at most 200 lines) and no text cites an "issue N" a reader cannot look up.
 */
import t from 'tap';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import {
  REPO_ROOT,
  guideFiles,
  headingAnchors,
  markdownLinks,
  readRepoFile,
  withoutCodeBlocks,
} from '../helpers/markdown-docs.js';

const guides = guideFiles();

/** Problems of the relative links of one guide (`file:line: …`); empty when every link resolves. */
function linkProblems(file: string, text: string, exists: (path: string) => boolean, read: (path: string) => string) {
  const problems: string[] = [];
  for (const { target, line } of markdownLinks(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const path = pathPart === '' ? file : normalize(join(dirname(file), decodeURIComponent(pathPart)));
    if (path.startsWith('..')) {
      problems.push(`${file}:${line}: ${target} leaves the repository`);
      continue;
    }
    if (!exists(path)) {
      problems.push(`${file}:${line}: ${target} names ${path}, which does not exist`);
      continue;
    }
    if (anchor !== undefined && path.endsWith('.md') && !headingAnchors(read(path)).has(anchor))
      problems.push(`${file}:${line}: ${target}: ${path} has no heading with the anchor #${anchor}`);
  }
  return problems;
}

const existsInRepo = (path: string): boolean => existsSync(join(REPO_ROOT, path));

t.test('every relative link and picture of the README and docs/ opens an existing file and heading', async (t) => {
  t.ok(guides.length >= 8, `the README and the guides (${guides.join(', ')})`);
  const problems = guides.flatMap((f) => linkProblems(f, readRepoFile(f), existsInRepo, readRepoFile));
  t.same(problems, []);
});

t.test('the link check finds a missing file, a missing anchor and a link out of the repository', async (t) => {
  const text = [
    '# Guide',
    '## Some heading',
    'See [a](missing.md), [b](operations.md#no-such-heading), [c](#some-heading), [d](../../etc/passwd)',
    'and ![e](img/none.png); `[not a link](nowhere.md)` and https://example.com are no links.',
    '```',
    '[in code](nowhere-either.md)',
    '```',
  ].join('\n');
  const problems = linkProblems('docs/guide.md', text, (p) => p === 'docs/guide.md' || p === 'docs/operations.md', (p) =>
    p === 'docs/guide.md' ? text : '## Distributed profile\n',
  );
  t.equal(problems.length, 4, problems.join('\n'));
  t.match(problems[0], /docs\/guide.md:3: missing.md names docs\/missing.md/);
  t.match(problems[1], /operations.md#no-such-heading: docs\/operations.md has no heading/);
  t.match(problems[2], /leaves the repository/);
  t.match(problems[3], /docs\/guide.md:4: img\/none.png names docs\/img\/none.png/);
});

t.test('GitHub heading anchors', async (t) => {
  const anchors = headingAnchors(
    [
      '## API: what we chose where the spec is silent',
      "## The web app's own API",
      '## The session on `/v1`',
      '## Item files (CSV or Excel .xlsx)',
      '## Sign-in limits',
      '## Sign-in limits',
    ].join('\n'),
  );
  t.same(
    [...anchors],
    [
      'api-what-we-chose-where-the-spec-is-silent',
      'the-web-apps-own-api',
      'the-session-on-v1',
      'item-files-csv-or-excel-xlsx',
      'sign-in-limits',
      'sign-in-limits-1',
    ],
  );
});

t.test('every picture in docs/img is shown by the README or a guide', async (t) => {
  const shown = new Set(
    guides.flatMap((f) =>
      markdownLinks(readRepoFile(f)).map(({ target }) => normalize(join(dirname(f), target.split('#')[0]!))),
    ),
  );
  const pictures = readdirSync(join(REPO_ROOT, 'docs', 'img')).map((p) => `docs/img/${p}`);
  t.ok(pictures.length >= 10, `${pictures.length} pictures`);
  t.same(
    pictures.filter((p) => !shown.has(p)),
    [],
    'pictures no guide shows',
  );
  for (const p of pictures) t.ok(statSync(join(REPO_ROOT, p)).size <= 150 * 1024, `${p} is at most 150 KB`);
});

/** Top folders of the source tree: a backticked path starting with one of them names a file of the repository. */
const SOURCE_FOLDERS =
  /^(domain|application|api|service|solver|pdf|display|projections|adapters|webapp|viewer|clients|scripts|test|examples|docs|\.ci)\//;

/**
 * The source paths a guide names in backticks (`service/main.ts`, `pdf/`) that do not exist.
 * Built or run-time paths (dist/, test-artifacts/, data dirs) and patterns (`*`, `<file>`) are
 * not paths of the repository and are left out; `.js` import specifiers name their `.ts` file.
 */
function missingSourcePaths(file: string, text: string, exists: (path: string) => boolean): string[] {
  const missing: string[] = [];
  withoutCodeBlocks(text)
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/`([^`\s]+)`/g)) {
        const path = m[1]!.replace(/[.,;:]$/, '');
        if (!SOURCE_FOLDERS.test(path) || /[*<>{}…]|\/dist(\/|$)/.test(path)) continue;
        const candidates = path.endsWith('.js') ? [path, path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.tsx')] : [path];
        if (!candidates.some(exists)) missing.push(`${file}:${i + 1}: ${path}`);
      }
    });
  return missing;
}

t.test('every source path the README and the guides name in backticks exists', async (t) => {
  const missing = guides.flatMap((f) => missingSourcePaths(f, readRepoFile(f), existsInRepo));
  t.same(missing, [], 'paths named but not in the repository (moved? update the guide)');
  t.same(
    missingSourcePaths('x.md', 'The `api/server.ts` and `solver/render/` and `pdf/pdf.js` and `viewer/dist/x.js`', (p) =>
      ['pdf/pdf.ts'].includes(p),
    ),
    ['x.md:1: api/server.ts', 'x.md:1: solver/render/'],
    'the check reports moved files and folders',
  );
});

t.test('the README is a five-minute read and no guide cites an issue number', async (t) => {
  const readme = readRepoFile('README.md');
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
  t.ok(lines <= 200, `README.md has ${lines} lines (at most 200)`);
  const citations = guides.flatMap((f) =>
    readRepoFile(f)
      .split('\n')
      .flatMap((line, i) => (/\bissues? #?[0-9]/i.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );
  t.same(citations, [], 'issue numbers a reader cannot look up');
});
