/**
 * Where to go after sign-in (webapp/src/ui/next-path.ts), as properties over generated `?next=`
 * values built from the pieces of known open-redirect tricks (repeated slashes, backslashes,
 * dot segments raw and encoded, schemes, control characters, the /app base): the answer is
 * always a same-origin router path that, under the router's basename, stays under /app/; known
 * good paths pass unchanged.
 */
import t from 'tap';
import fc from 'fast-check';
import { APP_BASE, DEFAULT_NEXT_PATH, safeNextPath } from '../../webapp/src/ui/next-path.js';

const ORIGIN = 'https://svc.example';

/** Pieces an attacker strings together. */
const PIECES = [
  '/',
  '//',
  '\\',
  '/\\',
  '.',
  '..',
  '%2e',
  '%2E%2e',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '%00',
  '%0a',
  '%09',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u007f',
  'app',
  '/app',
  '/app/',
  'evil.example',
  '@evil.example',
  ':',
  'https:',
  'http://evil.example',
  'javascript:alert(1)',
  'data:',
  '?',
  '#',
  '&',
  '=',
  'jobs',
  'job_1',
  'sign-in',
  'invitations',
  'api',
  'assets',
  ' ',
  '%20',
  '%',
  '%%',
  '\u2028',
  'é',
  '%E2%80%A8',
  'xn--',
  '[::1]',
  ';',
];

const tricky = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 10 }).map((parts) => parts.join(''));
const nextValues = fc.oneof(
  tricky,
  tricky.map((s) => `/${s}`),
  tricky.map((s) => `/app/${s}`),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webPath().map((p) => `/app${p}`),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

t.test('the answer always stays a page of the app on this origin', async (t) => {
  fc.assert(
    fc.property(nextValues, (next) => {
      const result = safeNextPath(next);
      if (!result.startsWith('/') || result.startsWith('//') || result.includes('\\')) return false;
      // A router path: same origin wherever it is resolved…
      const resolved = new URL(result, `${ORIGIN}${APP_BASE}/`);
      if (resolved.origin !== ORIGIN) return false;
      // …and under the router's basename it is a page under /app/.
      const page = new URL(APP_BASE + result, `${ORIGIN}${APP_BASE}/`);
      if (page.origin !== ORIGIN || !page.pathname.startsWith(`${APP_BASE}/`)) return false;
      // The router joins basename and path as text: the joined text must be what the URL parser sees.
      if (page.pathname + page.search + page.hash !== APP_BASE + result) return false;
      // Stable: the page it leads to, given again as `next`, leads to the same page.
      return safeNextPath(APP_BASE + result) === result;
    }),
    { numRuns: 5000 },
  );
  t.pass('5000 generated values');
});

t.test('known-good paths pass unchanged; the /app base is dropped', async (t) => {
  fc.assert(
    fc.property(
      fc.array(fc.stringMatching(/^[a-z0-9_-]{1,12}$/), { minLength: 1, maxLength: 4 }),
      fc.option(fc.stringMatching(/^[a-z]{1,6}=[a-z0-9]{0,6}$/), { nil: undefined }),
      (segments, query) => {
        const path = `/${segments.join('/')}${query ? `?${query}` : ''}`;
        if (/^\/(?:sign-in|invitations|api|assets|app)(?:\/|\?|$)/.test(path)) return true;
        return safeNextPath(path) === path && safeNextPath(APP_BASE + path) === path;
      },
    ),
  );
  for (const good of ['/playground', '/jobs/job_1?x=1', '/vehicles', '/account#keys', '/jobs?status=failed&limit=20'])
    t.equal(safeNextPath(good), good, good);
  t.equal(safeNextPath('/app/vehicles'), '/vehicles');
  t.equal(safeNextPath('/app'), '/');
  t.equal(safeNextPath('/jobs/./job_1'), '/jobs/job_1', 'dot segments are resolved');
  t.equal(safeNextPath('/app/jobs/../vehicles'), '/vehicles');
});

t.test('known tricks fall back to the playground', async (t) => {
  for (const bad of [
    '/app//evil.example',
    '/app//evil.example/x',
    '//evil.example',
    '/\\evil.example',
    '/app/\\evil.example',
    '/app/%2f%2fevil.example',
    '/app/%5c%5cevil.example',
    '/app/..//evil.example',
    '/app/%2e%2e//evil.example',
    '/app/.%2e/%2fevil.example',
    'https://evil.example/app/x',
    'javascript:alert(1)',
    '/app/\t/evil.example',
    '/\t/evil.example',
    '/app/%09/evil.example',
    '/app/x%00',
    '/sign-in',
    '/app/sign-in?next=/x',
    '/invitations/abc',
    '/app/api/session',
    '/app/assets/x.js',
    '',
    null,
    undefined,
  ]) {
    t.equal(safeNextPath(bad), DEFAULT_NEXT_PATH, JSON.stringify(bad));
  }
});
