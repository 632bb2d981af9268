/**
 * The web app's pages: /app and every page path answer the built index.html, the
 * hashed assets are served under /app/assets, and unknown /app/api paths get the 404 envelope.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBAPP, ensureBuild } from '../../scripts/front-end-builds.js';
import { inProcessService } from '../helpers/in-process-service.js';

const run = inProcessService(t, 'web-pages');

t.before(async () => {
  await ensureBuild(WEBAPP, 'stale');
});

t.test('page paths answer index.html; assets are served; /app/api is never a page', async (t) => {
  const index = readFileSync(join(WEBAPP.dist, 'index.html'), 'utf8');
  for (const path of ['/app', '/app/', '/app/sign-in', '/app/jobs/job_abc', '/app/invitations/xyz']) {
    const res = await fetch(run.service.url + path);
    t.equal(res.status, 200, path);
    t.match(res.headers.get('content-type'), /^text\/html/);
    t.match(res.headers.get('content-security-policy'), /default-src 'self'/);
    t.equal(await res.text(), index, `${path}: the built page`);
  }
  const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(index)?.[1];
  t.ok(script, 'the page loads a hashed script');
  const asset = await fetch(run.service.url + script!);
  t.equal(asset.status, 200);
  t.match(asset.headers.get('cache-control'), /immutable/);
  const missing = await fetch(`${run.service.url}/app/api/nothing`);
  t.equal(missing.status, 404);
  t.equal(((await missing.json()) as { error: { code: string } }).error.code, 'not_found');
  t.equal((await fetch(`${run.service.url}/app/assets/none.js`)).status, 404, 'an unknown asset is no page');
});
