/**
 * The job page's plan editing, without a browser (webapp/src/jobs/revision-list.ts,
 * plan-editor.ts, replan.ts): the revisions table's rows and figures, the editor's URL and the
 * viewer's messages, and "Re-plan from step K": the form read against a Result, the request it
 * builds (every unit up to step K pinned where it is) and the calls it makes, against a fake
 * service answering like the routes of design §2 (GET ?include=request, POST /v1/pack).
 */
import t from 'tap';
import fc from 'fast-check';
import { ApiFailure } from '../../webapp/src/api.js';
import type { Job, PackRequest, Result } from '../../webapp/src/playground/pack-request.js';
import {
  authorName,
  latestRevision,
  planFigures,
  revisionName,
  revisionResultPath,
  revisionRows,
  revisionsPath,
  weightText,
  type RevisionEntry,
} from '../../webapp/src/jobs/revision-list.js';
import { canEditPlans, editorUrl, viewerNewsOf } from '../../webapp/src/jobs/plan-editor.js';
import { readReplanForm, replanJob, replanJobRequest, vehicleChoices } from '../../webapp/src/jobs/replan.js';

const JOB = { id: 'job_abc', created_at: '2026-11-26T10:00:00Z', finished_at: '2026-11-26T10:00:05Z' } as Job;

const entry = (revision: number, name: string | null, operations = 1): RevisionEntry => ({
  revision,
  created_at: `2026-11-26T11:0${revision}:00Z`,
  created_by: name === null ? null : { id: `usr_${name.toLowerCase()}`, name },
  base_revision: revision - 1,
  operations_count: operations,
});

t.test('the revisions table: newest first, each revision once, the original plan last', async (t) => {
  const rows = revisionRows([entry(2, 'Olga'), entry(1, 'Ann')], true, JOB);
  t.same(
    rows.map((r) => [revisionName(r.revision), authorName(r), r.created_at]),
    [
      ['Revision 2', 'Olga', '2026-11-26T11:02:00Z'],
      ['Revision 1', 'Ann', '2026-11-26T11:01:00Z'],
      ['Original plan', '—', '2026-11-26T10:00:05Z'],
    ],
    'the original plan is revision 0, made when the job finished, without an author',
  );
  t.same(
    revisionRows([entry(3, 'Olga'), entry(2, 'Olga')], false, JOB).map((r) => r.revision),
    [3, 2],
    'more pages to read: no original plan row yet',
  );
  t.same(
    revisionRows([entry(3, 'Olga'), entry(2, 'Olga'), entry(2, 'Olga'), entry(1, 'Ann')], false, JOB).map(
      (r) => r.revision,
    ),
    [3, 2, 1],
    'a page read again after a save repeats no revision',
  );
  const listed = { ...entry(0, 'Packer', 0), base_revision: null };
  t.same(
    revisionRows([entry(1, 'Ann'), listed], true, JOB).map((r) => [r.revision, authorName(r)]),
    [
      [1, 'Ann'],
      [0, 'Packer'],
    ],
    "revision 0 listed by the service is the service's row",
  );
  t.equal(revisionRows([], true, { ...JOB, finished_at: null })[0]!.created_at, JOB.created_at);
  t.equal(latestRevision(rows), 2);
  t.equal(latestRevision([]), 0);
  t.equal(authorName(entry(4, null)), '—');
});

t.test('the list and result paths', async (t) => {
  t.equal(revisionsPath('job_abc', null), '/v1/jobs/job_abc/revisions?limit=20');
  t.equal(revisionsPath('job_abc', 'c/2=', 5), '/v1/jobs/job_abc/revisions?limit=5&cursor=c%2F2%3D');
  t.equal(revisionResultPath('job_abc', 3), '/v1/jobs/job_abc/result?revision=3');
});

/** A Result of two copies of vehicle "van": copy 1 with 3 units (steps 1–3), copy 2 with 2. */
const placement = (item_id: string, instance: number, step: number, x: number) => ({
  item_id,
  instance,
  label: item_id,
  x,
  y: 0,
  z: 0,
  length: 50,
  width: 40,
  height: 40,
  rotated: false,
  orientation: 'lwh' as const,
  step,
  weight: 12.5,
});
const vehicle = (copy: number, placements: ReturnType<typeof placement>[]) => ({
  index: copy - 1,
  vehicle_id: 'van',
  copy,
  auto_added: copy > 1,
  name: 'Van',
  type: 'truck' as const,
  length: 300,
  width: 180,
  height: 180,
  max_weight: 1000,
  items_placed: placements.length,
  total_weight: placements.reduce((kg, p) => kg + p.weight, 0),
  volume_utilization: 0.1,
  weight_utilization: 0.05,
  center_of_gravity: { x: 0, y: 0, z: 0 },
  placements,
});
const RESULT = {
  job_id: 'job_abc',
  vehicles: [
    // Steps out of order: the request pins them in step order.
    vehicle(1, [placement('box', 2, 2, 50), placement('box', 1, 1, 0), placement('crate', 1, 3, 100)]),
    vehicle(2, [placement('box', 3, 1, 0), placement('crate', 2, 2, 50)]),
  ],
  unplaced: [{ item_id: 'box', instance: 4, label: 'box', reason: 'no_space' }],
  warnings: [],
  pdf_url: 'http://service.test/pdf/job_abc?revision=2&signature=s',
  viewer_url: 'http://service.test/viewer/job_abc?revision=2&signature=s',
  expires_at: '2026-12-26T10:00:00Z',
  stop_reason: 'time_limit',
} as Result;
const REQUEST: PackRequest = {
  reference: 'walk',
  vehicles: [{ id: 'van', type: 'truck', name: 'Van', length: 300, width: 180, height: 180, max_weight: 1000 }],
  items: [
    { id: 'box', length: 50, width: 40, height: 40, weight: 12.5, quantity: 4 },
    { id: 'crate', length: 50, width: 40, height: 40, weight: 12.5, quantity: 2 },
  ],
  options: { packing_mode: 'auto', time_limit: 5 },
};

t.test("a revision's figures in the organization's display units", async (t) => {
  t.same(planFigures(RESULT), { placed: 5, requested: 6, weightKg: 62.5 });
  t.equal(weightText(62.5, 'metric'), '62.5 kg');
  t.equal(weightText(62.5, 'imperial'), '137.79 lb', '62.5 kg / 0.45359237 = 137.789… lb');
});

t.test('the editor: owner and members, the signed viewer URL with edit=1', async (t) => {
  t.ok(canEditPlans('owner'));
  t.ok(canEditPlans('member'));
  t.notOk(canEditPlans('viewer'), 'a role not named does not edit');
  t.equal(editorUrl(RESULT.viewer_url), `${RESULT.viewer_url}&edit=1`, 'appended, the signed query as it was');
  t.equal(editorUrl('/viewer/job_abc'), '/viewer/job_abc?edit=1');
  t.equal(editorUrl('/viewer/job_abc?a=%3A#v2'), '/viewer/job_abc?a=%3A&edit=1#v2', 'before the fragment');
  t.equal(editorUrl('/viewer/job_abc?edit=1&a=1'), '/viewer/job_abc?edit=1&a=1', 'once');
});

t.test("the viewer's messages: only the embedded viewer's, of this job, on this origin", async (t) => {
  const frame = { name: 'the viewer frame' };
  const expected = { origin: 'http://service.test', frame, jobId: 'job_abc' };
  const from = (data: unknown, over: Partial<{ origin: string; source: unknown }> = {}) =>
    viewerNewsOf({ origin: 'http://service.test', source: frame, data, ...over }, expected);
  t.same(from({ type: 'plan-revision-saved', jobId: 'job_abc', revision: 3 }), { kind: 'revision-saved', revision: 3 });
  t.same(from({ type: 'replan-job-created', jobId: 'job_new1' }), { kind: 'replan-created', jobId: 'job_new1' });
  t.equal(from({ type: 'plan-revision-saved', jobId: 'job_other', revision: 3 }), null, 'another job');
  t.equal(
    from({ type: 'plan-revision-saved', jobId: 'job_abc', revision: 3 }, { origin: 'http://evil.test' }),
    null,
    'another origin',
  );
  t.equal(from({ type: 'plan-revision-saved', jobId: 'job_abc', revision: 3 }, { source: {} }), null, 'another frame');
  t.equal(from({ type: 'plan-revision-saved', jobId: 'job_abc', revision: '3' }), null, 'a revision not a number');
  t.equal(from({ type: 'replan-job-created', jobId: '../../sign-in' }), null, 'not a job id');
  t.equal(from('plan-revision-saved'), null);
  t.equal(from({ type: 'something-else' }), null);
});

t.test('the re-plan form: its vehicles and what it reads', async (t) => {
  t.same(vehicleChoices(RESULT), [
    { value: '0', label: '1 · Van (copy 1)', units: 3 },
    { value: '1', label: '2 · Van (copy 2)', units: 2 },
  ]);
  t.same(readReplanForm(RESULT, { vehicle: '1', step: ' 2 ' }), { ok: true, vehicle: 1, step: 2 });
  t.same(readReplanForm(RESULT, { vehicle: '0', step: '0' }), { ok: true, vehicle: 0, step: 0 });
  t.same(readReplanForm(RESULT, { vehicle: '1', step: '3' }), {
    ok: false,
    errors: { step: 'This vehicle has 2 loading steps: give a step from 0 to 2.' },
  });
  t.same(readReplanForm(RESULT, { vehicle: '2', step: '1' }), {
    ok: false,
    errors: { vehicle: 'Choose a vehicle of the plan.' },
  });
  t.same(readReplanForm(RESULT, { vehicle: '0', step: '1.5' }), {
    ok: false,
    errors: { step: 'Give the step as a whole number.' },
  });
  t.same(readReplanForm(RESULT, { vehicle: '0', step: '' }).ok, false);
});

t.test('the re-plan request: the first vehicle whole and the second up to step K pinned', async (t) => {
  const built = replanJobRequest(REQUEST, RESULT, 1, 1);
  t.same(
    built.vehicles,
    [
      {
        ...REQUEST.vehicles[0],
        quantity: 2,
        loaded: [
          { item_id: 'box', x: 0, y: 0, z: 0, orientation: 'lwh', copy: 1 },
          { item_id: 'box', x: 50, y: 0, z: 0, orientation: 'lwh', copy: 1 },
          { item_id: 'crate', x: 100, y: 0, z: 0, orientation: 'lwh', copy: 1 },
          { item_id: 'box', x: 0, y: 0, z: 0, orientation: 'lwh', copy: 2 },
        ],
      },
    ],
    'in step order; quantity raised to the auto-added copy 2',
  );
  t.same(built.items, REQUEST.items, 'the items as they were');
  t.same(built.options, REQUEST.options);
  t.equal(REQUEST.vehicles[0]!['loaded'], undefined, "the job's request is not changed");
  t.throws(() => replanJobRequest(REQUEST, RESULT, 2, 0), RangeError, 'a vehicle not in the result');
});

t.test('property: K pins every unit of the vehicles before and those of steps ≤ K', async (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 3 }), (v, k) => {
      const built = replanJobRequest(REQUEST, RESULT, v, k);
      const loaded = (built.vehicles[0]!['loaded'] as unknown[] | undefined) ?? [];
      const before = RESULT.vehicles.slice(0, v).reduce((n, rv) => n + rv.placements.length, 0);
      const upToK = RESULT.vehicles[v]!.placements.filter((p) => p.step <= k).length;
      return loaded.length === before + upToK;
    }),
  );
  t.pass('every vehicle and step of the result');
});

/** A fake service: answers `routes` by "METHOD path" and records the calls. */
function fakeService(routes: Record<string, (body: unknown) => { status: number; body: unknown }>) {
  const calls: { method: string; path: string; headers: Record<string, string>; body: unknown }[] = [];
  const fetch = async (path: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
    const body = init.body === undefined ? undefined : (JSON.parse(init.body) as unknown);
    calls.push({ method: init.method, path, headers: init.headers, body });
    const route = routes[`${init.method} ${path}`];
    const answer = route ? route(body) : { status: 404, body: { error: { code: 'not_found', message: path } } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { calls, fetch };
}

t.test('"Re-plan from step K" reads the request and posts the re-plan as a new job', async (t) => {
  const real = globalThis.fetch;
  t.teardown(() => {
    globalThis.fetch = real;
  });
  const service = fakeService({
    'GET /v1/jobs/job_abc?include=request': () => ({ status: 200, body: { id: 'job_abc', request: REQUEST } }),
    'POST /v1/pack': () => ({ status: 202, body: { id: 'job_new1', status: 'queued' } }),
  });
  globalThis.fetch = service.fetch as unknown as typeof fetch;
  const job = await replanJob('job_abc', RESULT, 0, 2, 'k1');
  t.equal(job.id, 'job_new1');
  t.same(
    service.calls.map((c) => `${c.method} ${c.path}`),
    ['GET /v1/jobs/job_abc?include=request', 'POST /v1/pack'],
  );
  const post = service.calls[1]!;
  t.equal(post.headers['Idempotency-Key'], 'k1');
  t.same(post.body, replanJobRequest(REQUEST, RESULT, 0, 2), 'the re-plan request');
  t.same(
    ((post.body as PackRequest).vehicles[0]!['loaded'] as { x: number }[]).map((u) => u.x),
    [0, 50],
    'the units of steps 1 and 2 of the first vehicle',
  );

  const before = service.calls.length;
  await replanJob('job_abc', RESULT, 0, 0);
  const key = service.calls[before + 1]!.headers['Idempotency-Key'];
  t.match(key, /^[0-9a-f]{32}$/, 'a fresh key by default');
});

t.test("the service's 422 (a pinned unit refused) comes back as an ApiFailure with its details", async (t) => {
  const real = globalThis.fetch;
  t.teardown(() => {
    globalThis.fetch = real;
  });
  const details = [{ path: 'vehicles[0].loaded', code: 'unknown_field', message: 'unknown field "loaded"' }];
  globalThis.fetch = fakeService({
    'GET /v1/jobs/job_abc?include=request': () => ({ status: 200, body: { id: 'job_abc', request: REQUEST } }),
    'POST /v1/pack': () => ({
      status: 422,
      body: { error: { code: 'validation_failed', message: 'the request is invalid', details } },
    }),
  }).fetch as unknown as typeof fetch;
  const failure = await replanJob('job_abc', RESULT, 0, 1).catch((err: unknown) => err);
  t.ok(failure instanceof ApiFailure);
  t.match(failure, { status: 422, code: 'validation_failed', details });

  globalThis.fetch = fakeService({
    'GET /v1/jobs/job_abc?include=request': () => ({ status: 200, body: { id: 'job_abc', request: null } }),
  }).fetch as unknown as typeof fetch;
  t.match(await replanJob('job_abc', RESULT, 0, 1).catch((err: unknown) => err), {
    status: 410,
    code: 'result_expired',
  });
});
