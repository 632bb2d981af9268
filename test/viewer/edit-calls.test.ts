/**
 * The service calls of the viewer's edit mode (viewer/src/edit/edit-calls.ts) against a stand-in
 * fetch that records each call: who may edit (session, then the job), the answers of a save
 * (201, 409, 422, others), the latest revision's link, the re-plan's two calls, its reference
 * naming the parent and its price asked first; and when the
 * viewer asks at all (opened from the web app).
 */
import t from 'tap';
import {
  editAccess,
  latestViewerPath,
  openedFromWebApp,
  pathOf,
  priceOf,
  replanRequestOf,
  saveRevision,
  startJob,
  type Fetch,
} from '../../viewer/src/edit/edit-calls.js';
import { smallPlan } from '../solver/verify/plan-fixture.js';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch answering `answers[url]` (status and JSON body) and recording every call. */
function standIn(answers: Record<string, [number, unknown]>): { fetch: Fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: Fetch = (url, init = {}) => {
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers: (init.headers ?? {}) as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    });
    const [status, body] = answers[url] ?? [404, { error: { code: 'not_found', message: 'no such route' } }];
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  };
  return { fetch, calls };
}

const SESSION = { user: { id: 'mem_1', name: 'Olga', role: 'member' }, csrf_token: 'tok' };

t.test('editAccess: a member of the job’s organization; no session, another role or a foreign job: none', async (t) => {
  const ok = standIn({ '/app/api/session': [200, SESSION], '/v1/jobs/job_1': [200, { id: 'job_1' }] });
  t.same(await editAccess(ok.fetch, 'job_1'), { role: 'member', name: 'Olga', csrfToken: 'tok' });
  t.same(
    ok.calls.map((c) => c.url),
    ['/app/api/session', '/v1/jobs/job_1'],
  );
  t.equal(await editAccess(standIn({ '/app/api/session': [401, {}] }).fetch, 'job_1'), null, 'not signed in');
  const foreign = standIn({ '/app/api/session': [200, SESSION] });
  t.equal(await editAccess(foreign.fetch, 'job_1'), null, "another organization's job answers 404");
  const viewer = standIn({
    '/app/api/session': [200, { ...SESSION, user: { ...SESSION.user, role: 'viewer' } }],
    '/v1/jobs/job_1': [200, {}],
  });
  t.equal(await editAccess(viewer.fetch, 'job_1'), null, 'a role other than owner or member');
  t.equal(await editAccess(() => Promise.reject(new Error('offline')), 'job_1'), null, 'offline: read-only');
});

t.test('saveRevision: the body and CSRF header; 201, 409, 422 and other answers', async (t) => {
  const ops = [{ op: 'remove' as const, item_id: 'A', instance: 1 }];
  const saved = standIn({
    '/v1/jobs/job_1/revisions': [
      201,
      {
        revision: 3,
        result: { viewer_url: 'https://packing.example.com/viewer/job_1?revision=3&expires=1&signature=ab' },
      },
    ],
  });
  t.same(await saveRevision(saved.fetch, { csrfToken: 'tok' }, 'job_1', 2, ops), {
    kind: 'saved',
    revision: 3,
    viewerUrl: 'https://packing.example.com/viewer/job_1?revision=3&expires=1&signature=ab',
  });
  t.same(saved.calls[0]!.method, 'POST');
  t.same(saved.calls[0]!.body, { base_revision: 2, operations: ops });
  t.equal(saved.calls[0]!.headers['x-csrf-token'], 'tok');

  const conflict = standIn({
    '/v1/jobs/job_1/revisions': [409, { error: { code: 'conflict', message: 'revision 3 exists' } }],
  });
  t.same(await saveRevision(conflict.fetch, { csrfToken: 'tok' }, 'job_1', 2, ops), {
    kind: 'conflict',
    message: 'revision 3 exists',
  });
  const details = [{ path: 'operations[0]', code: 'overlap', message: 'A#1 and A#2 overlap' }];
  const invalid = standIn({
    '/v1/jobs/job_1/revisions': [
      422,
      { error: { code: 'validation_failed', message: 'the plan breaks 1 rule', details } },
    ],
  });
  t.same(await saveRevision(invalid.fetch, { csrfToken: 'tok' }, 'job_1', 2, ops), {
    kind: 'invalid',
    message: 'the plan breaks 1 rule',
    details,
  });
  const gone = standIn({});
  t.same(await saveRevision(gone.fetch, { csrfToken: 'tok' }, 'job_1', 2, ops), {
    kind: 'failed',
    status: 404,
    code: 'not_found',
    message: 'no such route',
  });
});

t.test('latestViewerPath: the newest revision’s link, the job’s own without revisions', async (t) => {
  const two = standIn({
    '/v1/jobs/job_1/revisions': [200, { data: [{ revision: 2 }, { revision: 1 }], next_cursor: null }],
    '/v1/jobs/job_1/result?revision=2': [200, { viewer_url: 'https://x.example/viewer/job_1?revision=2&s=1' }],
  });
  t.equal(await latestViewerPath(two.fetch, 'job_1'), '/viewer/job_1?revision=2&s=1');
  const none = standIn({
    '/v1/jobs/job_1/revisions': [200, { data: [], next_cursor: null }],
    '/v1/jobs/job_1/result': [200, { viewer_url: 'https://x.example/viewer/job_1?s=0' }],
  });
  t.equal(await latestViewerPath(none.fetch, 'job_1'), '/viewer/job_1?s=0');
  t.equal(await latestViewerPath(standIn({}).fetch, 'job_1'), null);
  t.equal(pathOf('https://a.example:8443/viewer/job_1?x=1'), '/viewer/job_1?x=1');
});

t.test(
  'a re-plan: the job’s request with the first K units pinned (replanRequestOf), posted with an Idempotency-Key (startJob)',
  async (t) => {
    const request = {
      vehicles: [{ id: 'truck', type: 'truck', length: 300, width: 200, height: 200, max_weight: 1000, quantity: 1 }],
      items: [{ id: 'A', length: 100, width: 50, height: 40, weight: 10, quantity: 3 }],
    };
    const s = standIn({
      '/v1/jobs/job_1?include=request': [200, { id: 'job_1', request }],
      '/v1/pack': [202, { id: 'job_2', status: 'queued' }],
    });
    const id = await startJob(
      s.fetch,
      { csrfToken: 'tok' },
      await replanRequestOf(s.fetch, 'job_1', smallPlan(), 0, 2),
      'key-1',
    );
    t.equal(id, 'job_2');
    const post = s.calls[1]!;
    t.same(
      [post.url, post.method, post.headers['idempotency-key'], post.headers['x-csrf-token']],
      ['/v1/pack', 'POST', 'key-1', 'tok'],
    );
    t.same(
      (post.body as any).vehicles[0].loaded,
      [
        { item_id: 'A', x: 0, y: 0, z: 0, orientation: 'lwh', copy: 1 },
        { item_id: 'A', x: 0, y: 0, z: 50, orientation: 'lwh', copy: 1 },
      ],
      'steps 1 and 2 of vehicle 0 pinned',
    );
    const expired = standIn({ '/v1/jobs/job_1?include=request': [200, { id: 'job_1', request: null }] });
    await t.rejects(replanRequestOf(expired.fetch, 'job_1', smallPlan(), 0, 2), {
      code: 'result_expired',
    });
  },
);

t.test('a re-plan names its parent job, and its price comes from the estimate of that request', async (t) => {
  const request = {
    vehicles: [{ id: 'truck', type: 'truck', length: 300, width: 200, height: 200, max_weight: 1000, quantity: 1 }],
    items: [{ id: 'A', length: 100, width: 50, height: 40, weight: 10, quantity: 3 }],
  };
  const s = standIn({
    '/v1/jobs/job_1?include=request': [200, { id: 'job_1', request }],
    '/v1/estimate': [
      200,
      {
        valid: true,
        errors: [],
        estimated_cost: { min_credits: 1, max_credits: 6.5 },
        balance: { available_credits: 90 },
      },
    ],
  });
  const built = await replanRequestOf(s.fetch, 'job_1', smallPlan(), 0, 2);
  t.equal(built.reference, 'Re-plan of job_1 from step 2 of vehicle 1', 'no reference of its own: the parent named');
  const own = standIn({
    '/v1/jobs/job_1?include=request': [200, { id: 'job_1', request: { ...request, reference: 'PO 4711' } }],
  });
  t.equal(
    (await replanRequestOf(own.fetch, 'job_1', smallPlan(), 0, 2)).reference,
    'PO 4711',
    "the planner's own kept",
  );
  t.same(await priceOf(s.fetch, { csrfToken: 'tok' }, built), { maxCredits: 6.5, availableCredits: 90 });
  const asked = s.calls[1]!;
  t.same([asked.url, asked.method, asked.headers['x-csrf-token']], ['/v1/estimate', 'POST', 'tok']);
  t.same(asked.body, built, 'the estimate is of the very request the start sends');
  const invalid = standIn({
    '/v1/estimate': [
      200,
      {
        valid: false,
        errors: [{ path: 'items[0]', code: 'x', message: 'too big' }],
        estimated_cost: { max_credits: 0 },
      },
    ],
  });
  await t.rejects(priceOf(invalid.fetch, { csrfToken: 'tok' }, built), {
    code: 'validation_failed',
    message: /too big/,
  });
  const refused = standIn({
    '/v1/estimate': [402, { error: { code: 'insufficient_credits', message: 'no credits' } }],
  });
  await t.rejects(priceOf(refused.fetch, { csrfToken: 'tok' }, built), {
    code: 'insufficient_credits',
    message: 'no credits',
  });
});

t.test('openedFromWebApp: framed by the web app, opened by its link, or remembered by the tab', async (t) => {
  const origin = 'https://packing.example.com';
  const base = { origin, parentPath: null, referrer: '', remembered: false };
  t.equal(openedFromWebApp(base), false, 'a link opened from an e-mail');
  t.equal(openedFromWebApp({ ...base, parentPath: '/app/jobs/job_1' }), true, 'framed by the job page');
  t.equal(openedFromWebApp({ ...base, parentPath: '/docs' }), false, 'framed by another page of the origin');
  t.equal(openedFromWebApp({ ...base, referrer: `${origin}/app/jobs/job_1` }), true, 'its link in the web app');
  t.equal(openedFromWebApp({ ...base, referrer: 'https://evil.example/app/jobs/job_1' }), false, 'another site');
  t.equal(openedFromWebApp({ ...base, referrer: `${origin}/application` }), false);
  t.equal(openedFromWebApp({ ...base, remembered: true }), true, 'a saved revision reloaded in the same tab');
});
