/**
 * The project decider: given events, when a command, then events or a refusal. Fixed clock.
 * Also the slot/item id rules and the PackRequest a project packs.
 */
import t from 'tap';
import { PACK_CLAIM_TIMEOUT_MS, projectDecider, type ProjectCommand } from '../../../domain/project/decide.js';
import { projectPackRequest } from '../../../domain/project/pack-request.js';
import { packOfJob, type ProjectContent, type ProjectEvent } from '../../../domain/project/project.js';
import { assignIds } from '../../../domain/project/slots.js';
import { ACTOR, after, deciderSpec, LATER, NOW } from '../../helpers/decider-spec.js';

const by = { id: 'usr_1', name: 'Ann' };
const content: ProjectContent = {
  name: 'P',
  vehicles: [{ id: 'pv_a', vehicle_id: 'rigid-7-5t', quantity: 1 }],
  items: [{ id: 'item_a', length: 10, width: 10, height: 10, weight: 1 }],
  groups: [],
  options: {},
};
const summary = { items_placed: 1, items_unplaced: 0, vehicles_used: 1, total_weight: 1, volume_utilization: 0.1 };
const projectId = 'prj_1';

// Commands.
const create: ProjectCommand = {
  type: 'CreateProject',
  data: { projectId, orgId: 'org_1', content },
  metadata: { now: NOW, actor: by },
};
const update = (changes: Partial<ProjectContent>, orgId = 'org_1'): ProjectCommand => ({
  type: 'UpdateProject',
  data: { projectId, orgId, changes },
  metadata: { now: NOW, actor: by },
});
const remove: ProjectCommand = {
  type: 'DeleteProject',
  data: { projectId, orgId: 'org_1' },
  metadata: { now: NOW, actor: by },
};
const start = (packId = 'pack_1', now = NOW, version = 1): ProjectCommand => ({
  type: 'StartPack',
  data: { projectId, orgId: 'org_1', packId, version, keyHash: null },
  metadata: { now, actor: by },
});
const assign = (jobId: string): ProjectCommand => ({
  type: 'AssignPackJob',
  data: { projectId, jobId },
  metadata: { now: NOW, actor: ACTOR },
});
const release = (packId: string): ProjectCommand => ({
  type: 'ReleasePack',
  data: { projectId, packId },
  metadata: { now: NOW, actor: ACTOR },
});
const end = (jobId: string, outcome: 'succeeded' | 'failed' | 'canceled'): ProjectCommand => ({
  type: 'EndPack',
  data: { projectId, jobId, outcome, summary: outcome === 'succeeded' ? summary : null, expiresAt: LATER },
  metadata: { now: NOW, actor: ACTOR },
});

// Events.
const created: ProjectEvent = { type: 'ProjectCreated', data: { projectId, orgId: 'org_1', content, by, at: NOW } };
const updated = (changes: Partial<ProjectContent>): ProjectEvent => ({
  type: 'ProjectUpdated',
  data: { projectId, changes, by, at: NOW },
});
const packStarted = (packId = 'pack_1', at = NOW, version = 1): ProjectEvent => ({
  type: 'ProjectPackStarted',
  id: `${packId}:started`,
  data: { projectId, packId, version, keyHash: null, by, at },
});
const assigned = (jobId: string, packId = 'pack_1'): ProjectEvent => ({
  type: 'ProjectPackJobAssigned',
  id: `${jobId}:project-assigned`,
  data: { projectId, packId, jobId, at: NOW },
});
const packEnded = (jobId: string, outcome: 'not_saved' | 'failed' | 'canceled', packId = 'pack_1'): ProjectEvent => ({
  type: 'ProjectPackEnded',
  id: `${jobId}:pack-ended`,
  data: { projectId, packId, jobId, outcome, at: NOW },
});

t.test('created, updated only on real changes, deleted; other organizations get 404', async (t) => {
  const { given } = deciderSpec(t, projectDecider);
  const c = given([]).when(create).then([created]);
  t.same([c.state.status, c.state.version], ['active', 1]);
  given([created])
    .when(update({ name: 'P' }))
    .thenNothing('unchanged PATCH writes nothing');
  const u = given([created])
    .when(update({ name: 'Q', items: content.items }))
    .then([updated({ name: 'Q' })], 'only the changed fields');
  t.same([u.state.content?.name, u.state.version], ['Q', 2]);
  given([created])
    .when(update({ name: 'X' }, 'org_2'))
    .thenThrows('project_not_found');
  const d = given([created])
    .when(remove)
    .then([{ type: 'ProjectDeleted', data: { projectId, by, at: NOW } }]);
  t.equal(d.state.status, 'deleted');
  given(d.history).when(remove).thenThrows('project_not_found');
  given(d.history).when(start()).thenThrows('project_not_found');
});

t.test('one pack at a time: project_busy until the pack ends; a success saves the plan', async (t) => {
  const { given } = deciderSpec(t, projectDecider);
  const started = given([created]).when(start()).then([packStarted()]);
  given(started.history).when(start('pack_2')).thenThrows('project_busy');
  const a = given(started.history)
    .when(assign('job_1'))
    .then([assigned('job_1')]);
  given(a.history).when(assign('job_1')).thenNothing('assigned once');
  given(a.history).when(release('pack_1')).thenNothing('an admitted pack is not released');
  given(a.history).when(start('pack_2', LATER)).thenThrows('project_busy');
  given(a.history).when(end('job_other', 'succeeded')).thenNothing('another job does not end this pack');
  const saved = given(a.history)
    .when(end('job_1', 'succeeded'))
    .then([
      {
        type: 'ProjectPlanSaved',
        id: 'job_1:plan-saved',
        data: { projectId, packId: 'pack_1', jobId: 'job_1', summary, expiresAt: LATER, at: NOW },
      },
    ]);
  t.same([saved.state.pack, saved.state.planJobId, packOfJob(saved.state, 'job_1')?.outcome], [null, 'job_1', 'saved']);
  given(saved.history).when(end('job_1', 'succeeded')).thenNothing('a replayed end writes nothing');
  given(saved.history)
    .when(start('pack_2'))
    .then([packStarted('pack_2')], 'free again');
});

t.test('a change during the run: not saved; failures and cancellations free the project', async (t) => {
  const { given } = deciderSpec(t, projectDecider);
  const changed = [created, packStarted(), assigned('job_1'), updated({ name: 'Changed' })];
  const notSaved = given(changed)
    .when(end('job_1', 'succeeded'))
    .then([packEnded('job_1', 'not_saved')]);
  t.same([notSaved.state.planJobId, notSaved.state.pack], [null, null]);

  // A pack built from an older version than the stream's (a PATCH between read and claim) is not saved either.
  const older = [created, packStarted('pack_1', NOW, 0), assigned('job_2')];
  given(older)
    .when(end('job_2', 'succeeded'))
    .then([packEnded('job_2', 'not_saved')]);

  for (const outcome of ['failed', 'canceled'] as const) {
    const e = given([created, packStarted(), assigned('job_3')])
      .when(end('job_3', outcome))
      .then([packEnded('job_3', outcome)]);
    t.equal(e.state.pack, null);
  }
});

t.test('a claim never given a job is released, or abandoned after the timeout', async (t) => {
  const { given } = deciderSpec(t, projectDecider);
  const claimed = [created, packStarted()];
  const released = given(claimed)
    .when(release('pack_1'))
    .then([
      {
        type: 'ProjectPackEnded',
        id: 'pack_1:released',
        data: { projectId, packId: 'pack_1', jobId: null, outcome: 'not_admitted', at: NOW },
      },
    ]);
  t.equal(released.state.pack, null);
  given(claimed)
    .when(start('pack_2', after(PACK_CLAIM_TIMEOUT_MS)))
    .thenThrows('project_busy');
  const late = after(PACK_CLAIM_TIMEOUT_MS + 1);
  const retaken = given(claimed)
    .when(start('pack_2', late))
    .then([
      { type: 'ProjectPackEnded', data: { projectId, packId: 'pack_1', jobId: null, outcome: 'abandoned', at: late } },
      packStarted('pack_2', late),
    ]);
  t.equal(retaken.state.pack?.packId, 'pack_2');
});

t.test('slot and item ids: kept when sent back, new otherwise, unknown or repeated refused', async (t) => {
  let n = 0;
  const next = () => `pv_new${++n}`;
  const ok = assignIds(
    'vehicles',
    [{ id: 'pv_a', vehicle_id: 'x' }, { vehicle_id: 'y' }],
    new Set(['pv_a', 'pv_b']),
    next,
  );
  t.same(ok, {
    ok: true,
    entries: [
      { id: 'pv_a', vehicle_id: 'x' },
      { id: 'pv_new1', vehicle_id: 'y' },
    ],
  });
  const bad = assignIds('items', [{ id: 'item_zz' }, { id: 'item_a' }, { id: 'item_a' }], new Set(['item_a']), next);
  t.same(bad.ok ? [] : bad.details.map((d) => [d.path, d.code]), [
    ['items[0].id', 'invalid_value'],
    ['items[2].id', 'duplicate_id'],
  ]);
});

t.test(
  'the PackRequest of a project keeps its ids, names the project and leaves empty groups and options out',
  async (t) => {
    const reference = `Project ${content.name}`;
    t.same(projectPackRequest(content), { reference, vehicles: content.vehicles, items: content.items });
    const full = { ...content, groups: [{ name: 'A' }], options: { time_limit: 5 } };
    t.same(projectPackRequest(full), {
      reference,
      vehicles: content.vehicles,
      items: content.items,
      groups: [{ name: 'A' }],
      options: { time_limit: 5 },
    });
    const long = projectPackRequest({ ...content, name: 'x'.repeat(255) }).reference!;
    t.equal(long.length, 128, "a long name is cut to the reference's 128 characters");
    t.ok(long.startsWith('Project xxx'));
  },
);
