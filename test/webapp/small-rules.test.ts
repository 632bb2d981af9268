/**
 * Small rules of the web app: where to go after sign-in (ui/next-path.ts), the new-password check
 * of the invitation (ui/password-check.ts), the saved-list URL (ui/list-query.ts) and the bar
 * chart geometry of the account page (console/bar-chart.ts).
 */
import t from 'tap';
import { layoutBars } from '../../webapp/src/console/bar-chart.js';
import { listUrl } from '../../webapp/src/ui/list-query.js';
import { safeNextPath } from '../../webapp/src/ui/next-path.js';
import { passwordProblems } from '../../webapp/src/ui/password-check.js';

t.test('after sign-in: a page of the app, never another site', async (t) => {
  t.equal(safeNextPath('/jobs/job_1?x=1'), '/jobs/job_1?x=1');
  t.equal(safeNextPath('/app/vehicles'), '/vehicles', 'the /app base is dropped (the router adds it)');
  t.equal(safeNextPath(null), '/playground');
  t.equal(safeNextPath('//evil.example/x'), '/playground');
  t.equal(safeNextPath('https://evil.example/'), '/playground');
  t.equal(safeNextPath('/sign-in'), '/playground');
});

t.test('new passwords: long enough and typed twice alike', async (t) => {
  t.same(passwordProblems('correct horse battery', 'correct horse battery'), []);
  t.same(passwordProblems('short', 'short'), ['the password needs at least 10 characters']);
  t.same(passwordProblems('correct horse battery', 'correct horse batterY'), ['the two passwords differ']);
});

t.test('saved-list URLs carry limit, cursor and the trimmed search', async (t) => {
  t.equal(listUrl('/v1/vehicles', { limit: 20, cursor: null, q: '' }), '/v1/vehicles?limit=20');
  t.equal(
    listUrl('/v1/templates', { limit: 5, cursor: 'abc', q: ' euro pallet ' }),
    '/v1/templates?limit=5&cursor=abc&q=euro+pallet',
  );
});

t.test('bars are proportional to their values on a shared baseline', async (t) => {
  const { bars, max, baseline } = layoutBars(
    [
      { label: 'a', value: 2 },
      { label: 'b', value: 4 },
      { label: 'c', value: -1 },
    ],
    300,
    100,
    10,
    5,
  );
  t.equal(max, 4);
  t.equal(baseline, 105);
  t.same(
    bars.map((b) => [b.x, b.y, b.width, b.height]),
    [
      [20, 55, 80, 50],
      [120, 5, 80, 100],
      [220, 105, 80, 0],
    ],
  );
  t.equal(layoutBars([{ label: 'z', value: 0 }], 100, 50).max, 1, 'all zeros draw flat');
});
