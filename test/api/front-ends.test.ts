/**
 * The built front ends as the service knows them (api/http/front-ends.ts): the folders of the
 * web app and the 3D viewer inside their workspaces, and a page read once from its build, whose
 * absence answers `503 api_disabled` naming `npm run build` (not a 500) until the build appears.
 */
import t from 'tap';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DomainError } from '../../domain/errors.js';
import { ERROR_STATUS } from '../../api/http/error-status.js';
import {
  VIEWER_BUILD,
  WEB_APP_BUILD,
  assetsOf,
  isBuilt,
  pageReader,
  type BuiltFrontEnd,
} from '../../api/http/front-ends.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

t.test('the builds are the dist folders of the webapp and viewer workspaces', async (t) => {
  t.same(
    [relative(ROOT, WEB_APP_BUILD.dist), relative(ROOT, VIEWER_BUILD.dist)],
    [join('webapp', 'dist'), join('viewer', 'dist')],
  );
  t.equal(relative(ROOT, assetsOf(VIEWER_BUILD)), join('viewer', 'dist', 'assets'));
});

t.test('a missing build answers 503 api_disabled until it is built; then its page is read once', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'front-ends-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const build: BuiltFrontEnd = { name: 'test page', dist: join(folder, 'dist') };
  const page = pageReader(build);

  t.equal(isBuilt(build), false, 'no dist/index.html: not built');
  const refused = (() => {
    try {
      page();
      return null;
    } catch (err) {
      return err;
    }
  })();
  t.ok(refused instanceof DomainError, 'an error of the envelope vocabulary');
  const { code, message } = refused as DomainError;
  t.same([code, ERROR_STATUS[code]], ['api_disabled', 503]);
  t.equal(message, 'the test page is not built: run `npm run build`');

  mkdirSync(build.dist);
  writeFileSync(join(build.dist, 'index.html'), '<!DOCTYPE html><title>one</title>\n');
  t.equal(isBuilt(build), true, 'built once dist/index.html exists');
  t.equal(page(), '<!DOCTYPE html><title>one</title>\n', 'the page, once built (no restart)');
  writeFileSync(join(build.dist, 'index.html'), '<!DOCTYPE html><title>two</title>\n');
  t.equal(page(), '<!DOCTYPE html><title>one</title>\n', 'read once: the build does not change while the service runs');
});
