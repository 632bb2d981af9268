/**
 * Plan revisions on the real embedded service (SQLite store): POST /v1/jobs/{id}/revisions saves
 * a verified edit as revision N+1 (GET /v1/jobs/{id}/result?revision=N answers it, revision 0
 * stays the job's own), refuses an edit that breaks a rule or names a wrong unit with 422 and
 * stores nothing, refuses a stale base with 409, and of two concurrent saves on one base stores
 * one (201) and refuses the other (409). The list pages newest first; a revision's pdf_url and
 * viewer_url open that revision's plan; the loading list follows ?revision=; a member's web app
 * session may save (with its CSRF token); revisions survive a restart.
 */
import t from 'tap';
import { readJobBody } from '../../domain/job/body.js';
import { jobRevisionStream } from '../../domain/job/streams.js';
import type { PackModel, Placement, PlannedVehicle, Plan } from '../../domain/pack/plan.js';
import { layoutOf } from '../../solver/edit/layout.js';
import { checkLayout } from '../../solver/edit/plan-check.js';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { call } from '../helpers/service-process.js';
import { acceptedMember, browserCall } from '../helpers/web-session.js';

const run = inProcessService(t, 'plan-revisions');

const request = {
  reference: 'revisions test',
  vehicles: [
    { id: 'van', type: 'truck', name: 'Van', length: 600, width: 240, height: 240, max_weight: 2000, quantity: 1 },
  ],
  items: [{ id: 'box', label: 'Box', length: 60, width: 40, height: 40, weight: 10, quantity: 6 }],
  options: { packing_mode: 'fleet_only', time_limit: 10 },
};

let key = '';
let orgId = '';
let ownerId = '';
let jobId = '';
let own: any;
let model: PackModel;

const local = (url: string): string => url.replace(/^https?:\/\/[^/]+/, run.service.url);
const post = (body: unknown, k = key) => call(run.service.url, k, 'POST', `/v1/jobs/${jobId}/revisions`, body);
const get = (path: string, k = key) => call(run.service.url, k, 'GET', path);
const storedRevisions = async () => (await run.service.services.store.readStream(jobRevisionStream(jobId))).length;

/** Overlap of [a, a + la) and [b, b + lb) (more than a hair). */
const cross = (a: number, la: number, b: number, lb: number): boolean => a < b + lb - 1e-6 && b < a + la - 1e-6;

/**
 * A unit nothing stands on (the highest top) and a floor spot (y = 0) of its vehicle, away from
 * every other unit, where it fits as it is turned.
 */
function freeMove(vehicle: PlannedVehicle): { unit: Placement; x: number; y: number; z: number } {
  const unit = [...vehicle.placements].sort((a, b) => b.y + b.height - (a.y + a.height))[0]!;
  const others = vehicle.placements.filter((p) => p !== unit);
  for (let x = vehicle.length - unit.length; x >= 0; x -= 10) {
    for (let z = vehicle.width - unit.width; z >= 0; z -= 10) {
      const blocked = others.some(
        (p) =>
          cross(x, unit.length, p.x, p.length) &&
          cross(z, unit.width, p.z, p.width) &&
          cross(0, unit.height, p.y, p.height),
      );
      if (!blocked && (x !== unit.x || z !== unit.z || unit.y !== 0)) return { unit, x, y: 0, z };
    }
  }
  throw new Error('no free floor spot in the fixture');
}

const moveOf = (vehicle: PlannedVehicle) => {
  const { unit, x, y, z } = freeMove(vehicle);
  return {
    op: 'move',
    item_id: unit.item_id,
    instance: unit.instance,
    vehicle: vehicle.index,
    x,
    y,
    z,
    orientation: unit.orientation,
  };
};

const placed = (result: any, itemId: string, instance: number): Placement | undefined =>
  result.vehicles.flatMap((v: any) => v.placements).find((p: any) => p.item_id === itemId && p.instance === instance);

t.before(async () => {
  ({ key, orgId, ownerId } = await orgWithKey(run.service, { name: 'Revisions' }));
  const job = await call(run.service.url, key, 'POST', '/v1/pack?wait=60', request);
  if (job.body.status !== 'succeeded') throw new Error(`job: ${JSON.stringify(job.body)}`);
  jobId = job.body.id;
  own = (await get(`/v1/jobs/${jobId}/result`)).body;
  model = (await readJobBody(run.service.services.store, jobId)).request!.model;
});

let revision1: any;
let move1: any;

t.test('a move saves revision 1: its Result has the unit moved and verifies; revision 0 is unchanged', async (t) => {
  move1 = moveOf(own.vehicles[0]);
  const saved = await post({ base_revision: 0, operations: [move1] });
  t.equal(saved.status, 201, JSON.stringify(saved.body));
  t.match(saved.body, {
    revision: 1,
    base_revision: 0,
    operations_count: 1,
    created_by: { id: ownerId, name: 'Owner' },
  });
  t.ok(Date.parse(saved.body.created_at) > 0, 'created_at is a time');
  revision1 = saved.body.result;
  const moved = placed(revision1, move1.item_id, move1.instance)!;
  t.same([moved.x, moved.y, moved.z], [move1.x, move1.y, move1.z], 'the unit stands where it was moved');
  t.equal(revision1.job_id, jobId);
  t.not(revision1.pdf_url, own.pdf_url, 'a PDF link of its own');
  t.match(revision1.pdf_url, /[?&]revision=1&/);
  t.match(revision1.viewer_url, /[?&]revision=1&/);

  const read = await get(`/v1/jobs/${jobId}/result?revision=1`);
  t.equal(read.status, 200);
  t.same(read.body, revision1, 'GET result?revision=1 answers the saved Result');
  const check = checkLayout(model, layoutOf(read.body as Plan));
  t.same(check.problems, [], 'the revision passes the verifier');

  t.same((await get(`/v1/jobs/${jobId}/result`)).body, own, 'revision 0 (no parameter) is the job own plan');
  t.same((await get(`/v1/jobs/${jobId}/result?revision=0`)).body, own, 'revision=0 too');
  t.equal(await storedRevisions(), 1, 'one event in the revision stream');
});

t.test('an edit that breaks a rule or names a wrong unit: 422, one detail per problem, nothing stored', async (t) => {
  // Another unit onto the spot revision 1 moved a unit to: the two overlap.
  const other = revision1.vehicles[0].placements.find(
    (p: any) => !(p.item_id === move1.item_id && p.instance === move1.instance),
  );
  const overlap = await post({
    base_revision: 1,
    operations: [{ ...move1, item_id: other.item_id, instance: other.instance, orientation: other.orientation }],
  });
  t.equal(overlap.status, 422, JSON.stringify(overlap.body));
  t.equal(overlap.body.error.code, 'validation_failed');
  const details = overlap.body.error.details as { path: string; code: string; message: string }[];
  t.ok(
    details.some((d) => d.path === 'operations[0]' && d.code === 'overlap' && /overlap/i.test(d.message)),
    JSON.stringify(details),
  );
  t.ok(
    details.every((d) => d.path === 'operations[0]' || d.path === 'result'),
    'every detail names the operation or the result',
  );

  const unknown = await post({
    base_revision: 1,
    operations: [move1, { op: 'remove', item_id: 'nope', instance: 1 }],
  });
  t.equal(unknown.status, 422);
  t.same(unknown.body.error.details, [
    { path: 'operations[1]', code: 'invalid_operation', message: 'item "nope" is not in the request' },
  ]);

  const schema = await post({ base_revision: 1, operations: [{ op: 'jump' }] });
  t.equal(schema.status, 422);
  t.equal(schema.body.error.details[0].path, 'operations[0].op');
  t.equal(await storedRevisions(), 1, 'nothing was stored');
});

t.test('a stale base answers 409 conflict; so does a base that does not exist yet', async (t) => {
  const stale = await post({ base_revision: 0, operations: [move1] });
  t.equal(stale.status, 409);
  t.equal(stale.body.error.code, 'conflict');
  t.match(stale.body.error.message, /not the latest \(the latest is 1\)/);
  const ahead = await post({ base_revision: 5, operations: [move1] });
  t.same([ahead.status, ahead.body.error.code], [409, 'conflict']);
  t.equal(await storedRevisions(), 1);
});

t.test('two concurrent saves on the same base: one 201, one 409', async (t) => {
  const remove = (p: any) => ({ op: 'remove', item_id: p.item_id, instance: p.instance });
  // Two different edits of revision 1 (each removes a unit nothing stands on).
  const tops = [...revision1.vehicles[0].placements].sort((a: any, b: any) => b.y + b.height - (a.y + a.height));
  const answers = await Promise.all([
    post({ base_revision: 1, operations: [remove(tops[0])] }),
    post({ base_revision: 1, operations: [remove(tops[0])] }),
  ]);
  t.same(answers.map((a) => a.status).sort(), [201, 409], JSON.stringify(answers.map((a) => a.body)));
  const won = answers.find((a) => a.status === 201)!;
  t.equal(won.body.revision, 2);
  t.equal(answers.find((a) => a.status === 409)!.body.error.code, 'conflict');
  t.equal(await storedRevisions(), 2, 'one revision stored');
  t.equal(won.body.result.unplaced.length, own.unplaced.length + 1, 'the removed unit is unplaced');
});

t.test('the list pages newest first', async (t) => {
  const first = await get(`/v1/jobs/${jobId}/revisions?limit=1`);
  t.equal(first.status, 200);
  t.same(
    first.body.data.map((r: any) => [r.revision, r.base_revision, r.operations_count]),
    [[2, 1, 1]],
  );
  t.same(first.body.data[0].created_by, { id: ownerId, name: 'Owner' });
  t.not(first.body.next_cursor, '');
  const second = await get(`/v1/jobs/${jobId}/revisions?limit=1&cursor=${first.body.next_cursor}`);
  t.same(
    second.body.data.map((r: any) => r.revision),
    [1],
  );
  t.equal(second.body.next_cursor, '', 'the last page');
  const all = await get(`/v1/jobs/${jobId}/revisions`);
  t.same(
    all.body.data.map((r: any) => r.revision),
    [2, 1],
  );
  t.equal((await get(`/v1/jobs/${jobId}/revisions?cursor=bm9wZQ`)).status, 422, 'a cursor not issued');
});

t.test('unknown or malformed revisions of the result', async (t) => {
  const unknown = await get(`/v1/jobs/${jobId}/result?revision=99`);
  t.same([unknown.status, unknown.body.error.code], [404, 'not_found']);
  t.match(unknown.body.error.message, /no revision 99/);
  const bad = await get(`/v1/jobs/${jobId}/result?revision=one`);
  t.same([bad.status, bad.body.error.details[0].path], [422, 'revision']);
});

t.test("a revision's pdf_url and viewer_url open that revision", async (t) => {
  const pdf = async (url: string) => {
    const res = await fetch(local(url));
    t.equal(res.status, 200, url);
    t.equal(res.headers.get('content-type'), 'application/pdf');
    return { bytes: Buffer.from(await res.arrayBuffer()), disposition: res.headers.get('content-disposition') };
  };
  const own0 = await pdf(own.pdf_url);
  const own0Again = await pdf(own.pdf_url);
  t.ok(own0.bytes.equals(own0Again.bytes), "the job's PDF renders the same bytes twice");
  const rev1 = await pdf(revision1.pdf_url);
  t.notOk(rev1.bytes.equals(own0.bytes), 'the PDF of revision 1 differs from the job own');
  t.match(rev1.disposition, `${jobId}-r1.pdf`);

  const viewer = new URL(local(revision1.viewer_url));
  const data = await fetch(`${run.service.url}${viewer.pathname}/plan.json${viewer.search}`);
  t.equal(data.status, 200);
  const plan = (await data.json()) as any;
  const moved = placed(plan, move1.item_id, move1.instance)!;
  t.same([moved.x, moved.y, moved.z], [move1.x, move1.y, move1.z], 'the viewer data has the moved unit');
  const ownViewer = new URL(local(own.viewer_url));
  const ownPlan = (await (
    await fetch(`${run.service.url}${ownViewer.pathname}/plan.json${ownViewer.search}`)
  ).json()) as any;
  t.same(placed(ownPlan, move1.item_id, move1.instance), placed(own, move1.item_id, move1.instance));

  // The revision is signed: another one in the query opens nothing.
  const tampered = local(revision1.pdf_url).replace('revision=1', 'revision=2');
  t.equal((await fetch(tampered)).status, 404);
  const dropped = local(revision1.pdf_url).replace('&revision=1', '');
  t.equal((await fetch(dropped)).status, 404);
});

t.test('the loading list of a revision', async (t) => {
  const res = await fetch(`${run.service.url}/v1/jobs/${jobId}/loading_list?revision=1`, {
    headers: { authorization: `Bearer ${key}` },
  });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-disposition'), `${jobId}-r1-loading-list.csv`);
  const row = (await res.text()).split('\r\n').find((line) => line.includes(`,${move1.item_id},${move1.instance},`))!;
  t.match(row, `,${move1.x},${move1.y},${move1.z},`, 'the moved unit at its new position');
});

t.test("a member's web app session saves with its CSRF token, not without", async (t) => {
  const { browser } = await acceptedMember(run.service, orgId, 'member@example.com', { name: 'Mia' });
  const base = (await get(`/v1/jobs/${jobId}/revisions?limit=1`)).body.data[0].revision as number;
  const current = (await get(`/v1/jobs/${jobId}/result?revision=${base}`)).body;
  const body = { base_revision: base, operations: [moveOf(current.vehicles[0])] };
  const path = `/v1/jobs/${jobId}/revisions`;
  const refused = await browserCall(run.service.url, browser, 'POST', path, body, { csrf: 'wrong' });
  t.same([refused.status, refused.body.error.code], [403, 'forbidden']);
  const saved = await browserCall(run.service.url, browser, 'POST', path, body);
  t.equal(saved.status, 201, JSON.stringify(saved.body));
  t.equal(saved.body.revision, base + 1);
  t.equal(saved.body.created_by.name, 'Mia');
  const listed = await browserCall(run.service.url, browser, 'GET', `${path}?limit=1`);
  t.equal(listed.body.data[0].revision, base + 1, 'the session lists it');
});

t.test("another organization's job is not found", async (t) => {
  const other = (await orgWithKey(run.service, { name: 'Other' })).key;
  t.equal((await post({ base_revision: 0, operations: [move1] }, other)).body.error.code, 'job_not_found');
  t.equal((await get(`/v1/jobs/${jobId}/revisions`, other)).body.error.code, 'job_not_found');
});

t.test('revisions survive a restart of the service', async (t) => {
  const before = (await get(`/v1/jobs/${jobId}/revisions`)).body;
  const result1 = (await get(`/v1/jobs/${jobId}/result?revision=1`)).body;
  await run.restart();
  t.same((await get(`/v1/jobs/${jobId}/revisions`)).body, before, 'the same list');
  // The port changes with the restart: links compared without their origin.
  const originless = (r: any) => ({
    ...r,
    pdf_url: new URL(r.pdf_url).search,
    viewer_url: new URL(r.viewer_url).search,
  });
  t.same(
    originless((await get(`/v1/jobs/${jobId}/result?revision=1`)).body),
    originless(result1),
    'the same Result of revision 1',
  );
  const latest = before.data[0].revision as number;
  const latestResult = (await get(`/v1/jobs/${jobId}/result?revision=${latest}`)).body;
  const top = [...latestResult.vehicles[0].placements].sort((a: any, b: any) => b.y + b.height - (a.y + a.height))[0];
  const next = await post({
    base_revision: latest,
    operations: [{ op: 'remove', item_id: top.item_id, instance: top.instance }],
  });
  t.equal(next.status, 201, JSON.stringify(next.body));
  t.equal(next.body.revision, latest + 1, 'numbering goes on');
});
