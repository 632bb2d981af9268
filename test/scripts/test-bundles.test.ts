/**
 * The test files' bundles npm test runs (scripts/test-bundles.ts): a bundle's path names its
 * source file; tap's configuration for the bundles is package.json's without tsx; and a bundle,
 * run by plain Node (no tsx), sees each module's own source `import.meta` and keeps the names of
 * two same-named classes of two modules, with stack traces that point at the TypeScript.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleTapConfig, bundleTests, launcherOf, sourceOfBundle } from '../../scripts/test-bundles.js';
import { REPO_ROOT } from '../../scripts/test-phases.js';

t.test('sourceOfBundle: a bundle is named by its source test file; other paths stay', async (t) => {
  t.equal(sourceOfBundle('.tap/bundles/test/api/jobs.test.mjs'), 'test/api/jobs.test.ts');
  t.equal(sourceOfBundle('.tap/bundles/test/e2e/a.b.test.mjs'), 'test/e2e/a.b.test.ts');
  t.equal(sourceOfBundle('.tap/bundles/launch/test/api/jobs.test.mjs'), 'test/api/jobs.test.ts', 'and its launcher');
  t.equal(sourceOfBundle('test/api/jobs.test.ts'), 'test/api/jobs.test.ts', 'a source path as it is');
  t.equal(sourceOfBundle('other/.tap/bundles/x.mjs'), 'other/.tap/bundles/x.mjs', 'only the prefix counts');
});

t.test("bundleTapConfig: package.json's tap block with the bundles and without tsx", async (t) => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { tap: Record<string, unknown> };
  const config = bundleTapConfig(pkg.tap);
  t.same(config['plugin'], pkg.tap['plugin'], "the same plugins: tap's built test class serves both");
  t.same(config['jobs'], pkg.tap['jobs']);
  t.same(config['test-env'], pkg.tap['test-env']);
  t.ok((pkg.tap['node-arg'] as string[]).includes('--import=tsx'), 'package.json runs the sources under tsx');
  t.same(
    config['node-arg'],
    (pkg.tap['node-arg'] as string[]).filter((a) => a !== '--import=tsx'),
    'the bundles run without it, every other option kept',
  );
  t.same(config['include'], ['.tap/bundles/launch/test/**/*.test.mjs'], "tap runs the bundles' launchers");
});

t.test("launcherOf: a launcher beside the bundles runs its file's bundle through test-launch.mjs", async (t) => {
  const { path, text } = launcherOf('test/api/jobs.test.ts');
  t.equal(relative(REPO_ROOT, path), join('.tap', 'bundles', 'launch', 'test', 'api', 'jobs.test.mjs'));
  t.equal(
    text,
    'import { launch } from "../../../../../scripts/test-launch.mjs";\n' +
      'await launch(new URL("../../../test/api/jobs.test.mjs", import.meta.url));\n',
  );
  const launcher = new URL(text.match(/from "([^"]+)"/)![1]!, pathToFileURL(path));
  const bundle = new URL(text.match(/new URL\("([^"]+)"/)![1]!, pathToFileURL(path));
  t.equal(launcher.href, pathToFileURL(join(REPO_ROOT, 'scripts', 'test-launch.mjs')).href, 'the import resolves');
  t.equal(bundle.href, pathToFileURL(join(REPO_ROOT, '.tap', 'bundles', 'test', 'api', 'jobs.test.mjs')).href);
});

t.test('a bundle run by plain Node: source import.meta, kept class names, TypeScript in stacks', async (t) => {
  // The modules live in the repository (the bundler rewrites only the repository's own files).
  const dir = mkdtempSync(join(REPO_ROOT, '.tap', 'bundle-probe-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'ledger-a.ts'),
    'export class Ledger { readonly kind: string = "a"; }\nexport const aUrl: string = import.meta.url;\n',
  );
  writeFileSync(join(dir, 'ledger-b.ts'), 'export class Ledger {}\nexport const bDir: string = import.meta.dirname;\n');
  writeFileSync(
    join(dir, 'probe.test.ts'),
    [
      "import { Ledger as A, aUrl } from './ledger-a.js';",
      "import { Ledger as B, bDir } from './ledger-b.js';",
      'const stack: string = new Error("where").stack ?? "";',
      'console.log(JSON.stringify({ url: import.meta.url, file: import.meta.filename, aUrl, bDir,',
      '  names: [A.name, B.name, new A().constructor.name], stack }));',
      '',
    ].join('\n'),
  );
  const out = join(dir, 'out');
  const entry = relative(REPO_ROOT, join(dir, 'probe.test.ts'));
  await bundleTests([entry], out);
  const bundle = join(out, entry.replace(/\.ts$/, '.mjs'));
  const seen = JSON.parse(
    execFileSync(process.execPath, ['--enable-source-maps', bundle], { encoding: 'utf8', env: { PATH: '' } }),
  ) as { url: string; file: string; aUrl: string; bDir: string; names: string[]; stack: string };
  t.equal(seen.url, pathToFileURL(join(dir, 'probe.test.ts')).href, "the entry's import.meta.url is its source's");
  t.equal(seen.file, join(dir, 'probe.test.ts'), 'and import.meta.filename');
  t.equal(seen.aUrl, pathToFileURL(join(dir, 'ledger-a.ts')).href, "an inlined module's is its own source's");
  t.equal(seen.bDir, dir, 'and import.meta.dirname');
  t.same(seen.names, ['Ledger', 'Ledger', 'Ledger'], 'two classes of one name keep it in one bundle');
  t.match(seen.stack, /probe\.test\.ts:3:\d+/, 'a stack trace names the TypeScript line');
});
