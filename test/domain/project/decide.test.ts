/**
 * The project decider: given events, when a command, then events or a refusal. Fixed clock.
 * Also the slot/item id rules and the PackRequest a project packs.
 */
import t from 'tap';
import { DomainError } from '../../../domain/decider/decider.js';
import { decideProject, PACK_CLAIM_TIMEOUT_MS, type ProjectCommand } from '../../../domain/project/decide.js';
import { projectPackRequest } from '../../../domain/project/pack-request.js';
import { evolveProject, initialProject, packOfJob, type ProjectContent, type ProjectState } from '../../../domain/project/project.js';
import { assignIds } from '../../../domain/project/slots.js';

const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-11-22T10:05:00.000Z';
const by = { id: 'usr_1', name: 'Ann' };
const content: ProjectContent = {
  name: 'P',
  vehicles: [{ id: 'pv_a', vehicle_id: 'rigid-7-5t', quantity: 1 }],
  items: [{ id: 'item_a', length: 10, width: 10, height: 10, weight: 1 }],
  groups: [],
  options: {},
};
const summary = { items_placed: 1, items_unplaced: 0, vehicles_used: 1, total_weight: 1, volume_utilization: 0.1 };

function run(state: ProjectState, command: ProjectCommand) {
  const events = decideProject(command, state);
  return { events, state: events.reduce(evolveProject, state) };
}

const created = () => run(initialProject(), { type: 'CreateProject', projectId: 'prj_1', orgId: 'org_1', content, by, now: NOW }).state;
const start = (s: ProjectState, packId = 'pack_1', now = NOW, version = s.version) =>
  run(s, { type: 'StartPack', projectId: 'prj_1', orgId: 'org_1', packId, version, keyHash: null, by, now });
const end = (s: ProjectState, jobId: string, outcome: 'succeeded' | 'failed' | 'canceled') =>
  run(s, { type: 'EndPack', projectId: 'prj_1', jobId, outcome, summary: outcome === 'succeeded' ? summary : null, expiresAt: LATER, now: NOW });

/** Asserts that `fn` throws a DomainError with this code. */
function refusal(t: { ok(v: unknown): void; equal(a: unknown, b: unknown): void; fail(m: string): void }, fn: () => unknown, code: string): void {
  try {
    fn();
    t.fail(`expected ${code}`);
  } catch (err) {
    t.ok(err instanceof DomainError);
    t.equal((err as DomainError).code, code);
  }
}

t.test('created, updated only on real changes, deleted; other organizations get 404', async (t) => {
  const s = created();
  t.same([s.status, s.version], ['active', 1]);
  t.same(decideProject({ type: 'UpdateProject', projectId: 'prj_1', orgId: 'org_1', changes: { name: 'P' }, by, now: NOW }, s), [], 'unchanged PATCH writes nothing');
  const u = run(s, { type: 'UpdateProject', projectId: 'prj_1', orgId: 'org_1', changes: { name: 'Q', items: content.items }, by, now: NOW });
  t.same(u.events.map((e) => e.data), [{ projectId: 'prj_1', changes: { name: 'Q' }, by, at: NOW }], 'only the changed fields');
  t.same([u.state.content?.name, u.state.version], ['Q', 2]);
  refusal(t, () => decideProject({ type: 'UpdateProject', projectId: 'prj_1', orgId: 'org_2', changes: { name: 'X' }, by, now: NOW }, s), 'project_not_found');
  const d = run(s, { type: 'DeleteProject', projectId: 'prj_1', orgId: 'org_1', by, now: NOW });
  t.equal(d.state.status, 'deleted');
  refusal(t, () => decideProject({ type: 'DeleteProject', projectId: 'prj_1', orgId: 'org_1', by, now: NOW }, d.state), 'project_not_found');
  refusal(t, () => start(d.state), 'project_not_found');
});

t.test('one pack at a time: project_busy until the pack ends; a success saves the plan', async (t) => {
  const started = start(created());
  t.same(started.events.map((e) => [e.type, e.id]), [['ProjectPackStarted', 'pack_1:started']]);
  refusal(t, () => start(started.state, 'pack_2'), 'project_busy');
  const assigned = run(started.state, { type: 'AssignPackJob', projectId: 'prj_1', jobId: 'job_1', now: NOW });
  t.same(assigned.events.map((e) => e.id), ['job_1:project-assigned']);
  t.same(decideProject({ type: 'AssignPackJob', projectId: 'prj_1', jobId: 'job_1', now: NOW }, assigned.state), [], 'assigned once');
  t.same(decideProject({ type: 'ReleasePack', projectId: 'prj_1', packId: 'pack_1', now: NOW }, assigned.state), [], 'an admitted pack is not released');
  refusal(t, () => start(assigned.state, 'pack_2', LATER), 'project_busy');
  t.same(end(assigned.state, 'job_other', 'succeeded').events, [], 'another job does not end this pack');
  const saved = end(assigned.state, 'job_1', 'succeeded');
  t.same(saved.events.map((e) => [e.type, e.id]), [['ProjectPlanSaved', 'job_1:plan-saved']]);
  t.same([saved.state.pack, saved.state.planJobId, packOfJob(saved.state, 'job_1')?.outcome], [null, 'job_1', 'saved']);
  t.same(end(saved.state, 'job_1', 'succeeded').events, [], 'a replayed end writes nothing');
  t.same(start(saved.state, 'pack_2').events.map((e) => e.type), ['ProjectPackStarted'], 'free again');
});

t.test('a change during the run: not saved; failures and cancellations free the project', async (t) => {
  let s = run(start(created()).state, { type: 'AssignPackJob', projectId: 'prj_1', jobId: 'job_1', now: NOW }).state;
  s = run(s, { type: 'UpdateProject', projectId: 'prj_1', orgId: 'org_1', changes: { name: 'Changed' }, by, now: NOW }).state;
  const notSaved = end(s, 'job_1', 'succeeded');
  t.same(notSaved.events.map((e) => [e.type, (e.data as { outcome?: string }).outcome]), [['ProjectPackEnded', 'not_saved']]);
  t.same([notSaved.state.planJobId, notSaved.state.pack], [null, null]);

  // A pack built from an older version than the stream's (a PATCH between read and claim) is not saved either.
  let older = start(created(), 'pack_1', NOW, 0).state;
  older = run(older, { type: 'AssignPackJob', projectId: 'prj_1', jobId: 'job_2', now: NOW }).state;
  t.same(end(older, 'job_2', 'succeeded').events.map((e) => (e.data as { outcome?: string }).outcome), ['not_saved']);

  for (const outcome of ['failed', 'canceled'] as const) {
    const a = run(start(created()).state, { type: 'AssignPackJob', projectId: 'prj_1', jobId: 'job_3', now: NOW }).state;
    const e = end(a, 'job_3', outcome);
    t.same(e.events.map((x) => (x.data as { outcome?: string }).outcome), [outcome]);
    t.equal(e.state.pack, null);
  }
});

t.test('a claim never given a job is released, or abandoned after the timeout', async (t) => {
  const s = start(created()).state;
  const released = run(s, { type: 'ReleasePack', projectId: 'prj_1', packId: 'pack_1', now: NOW });
  t.same(released.events.map((e) => [e.id, (e.data as { outcome: string }).outcome]), [['pack_1:released', 'not_admitted']]);
  t.equal(released.state.pack, null);
  refusal(t, () => start(s, 'pack_2', new Date(Date.parse(NOW) + PACK_CLAIM_TIMEOUT_MS).toISOString()), 'project_busy');
  const retaken = start(s, 'pack_2', LATER);
  t.same(retaken.events.map((e) => [e.type, (e.data as { outcome?: string }).outcome]), [['ProjectPackEnded', 'abandoned'], ['ProjectPackStarted', undefined]]);
  t.equal(retaken.state.pack?.packId, 'pack_2');
});

t.test('slot and item ids: kept when sent back, new otherwise, unknown or repeated refused', async (t) => {
  let n = 0;
  const next = () => `pv_new${++n}`;
  const ok = assignIds('vehicles', [{ id: 'pv_a', vehicle_id: 'x' }, { vehicle_id: 'y' }], new Set(['pv_a', 'pv_b']), next);
  t.same(ok, { ok: true, entries: [{ id: 'pv_a', vehicle_id: 'x' }, { id: 'pv_new1', vehicle_id: 'y' }] });
  const bad = assignIds('items', [{ id: 'item_zz' }, { id: 'item_a' }, { id: 'item_a' }], new Set(['item_a']), next);
  t.same(bad.ok ? [] : bad.details.map((d) => [d.path, d.code]), [['items[0].id', 'invalid_value'], ['items[2].id', 'duplicate_id']]);
});

t.test('the PackRequest of a project keeps its ids and leaves empty groups and options out', async (t) => {
  t.same(projectPackRequest(content), { vehicles: content.vehicles, items: content.items });
  const full = { ...content, groups: [{ name: 'A' }], options: { time_limit: 5 } };
  t.same(projectPackRequest(full), { vehicles: content.vehicles, items: content.items, groups: [{ name: 'A' }], options: { time_limit: 5 } });
});
