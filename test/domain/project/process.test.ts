/**
 * The project process manager on a real (SQLite) event store: a project job's end saves the plan
 * or warns `project_not_saved`, and reacting to the same events again writes nothing new.
 */
import t from 'tap';
import { ACTOR } from '../../helpers/decider-spec.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { handleCommand } from '../../../domain/decider/handle.js';
import { jobDecider } from '../../../domain/job/decide.js';
import type { JobQueuedData } from '../../../domain/job/job.js';
import { jobStream } from '../../../domain/job/streams.js';
import { projectDecider } from '../../../domain/project/decide.js';
import { ProjectProcess } from '../../../domain/project/process.js';
import { projectStream } from '../../../domain/project/streams.js';
import type { EventStore } from '../../../domain/ports/event-store.js';

const NOW = '2026-11-22T10:00:00.000Z';
const by = { id: 'usr_1', name: 'Ann' };
const summary = { items_placed: 1, items_unplaced: 0, vehicles_used: 1, total_weight: 1, volume_utilization: 0.1 };

const dir = mkdtempSync(join(tmpdir(), 'project-process-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** A project `projectId` packed by job `jobId`, run to success; `change` edits the project during the run. */
async function packedProject(store: EventStore, projectId: string, jobId: string, change: boolean): Promise<void> {
  const content = { name: 'P', vehicles: [], items: [], groups: [], options: {} };
  await handleCommand(store, projectStream(projectId), projectDecider, {
    type: 'CreateProject',
    data: { projectId, orgId: 'org_1', content },
    metadata: { now: NOW, actor: by },
  });
  await handleCommand(store, projectStream(projectId), projectDecider, {
    type: 'StartPack',
    data: { projectId, orgId: 'org_1', packId: `pack_${jobId}`, version: 1, keyHash: null },
    metadata: { now: NOW, actor: by },
  });
  const queued: JobQueuedData = {
    jobId,
    orgId: 'org_1',
    keyId: 'key_1',
    memberId: 'usr_1',
    source: 'api',
    projectId,
    reference: null,
    createdAt: NOW,
    expiresAt: '2026-12-06T10:00:00.000Z',
    items: 1,
    maxVehicles: 1,
    budgetMs: 1000,
    reservedMicros: 1,
    rateCardVersion: 1,
    warnings: [],
  };
  await handleCommand(store, jobStream(jobId), jobDecider, {
    type: 'QueueJob',
    data: queued,
    metadata: { now: '2026-11-22T10:00:00.000Z', actor: ACTOR },
  });
  await handleCommand(store, jobStream(jobId), jobDecider, {
    type: 'StartJob',
    data: { jobId },
    metadata: { now: NOW, actor: ACTOR },
  });
  if (change)
    await handleCommand(store, projectStream(projectId), projectDecider, {
      type: 'UpdateProject',
      data: { projectId, orgId: 'org_1', changes: { name: 'Q' } },
      metadata: { now: NOW, actor: by },
    });
  await handleCommand(store, jobStream(jobId), jobDecider, {
    type: 'SucceedJob',
    data: { jobId, computeMs: 5, summary, warnings: [], stopReason: 'bound_reached' },
    metadata: { now: NOW, actor: ACTOR },
  });
}

t.test('saved when unchanged, warned when changed; replays write once', async (t) => {
  const store = new SqliteEventStore(join(dir, 'events.db'));
  t.teardown(() => store.close());
  await packedProject(store, 'prj_same', 'job_same', false);
  await packedProject(store, 'prj_changed', 'job_changed', true);
  const process = new ProjectProcess({ store, clock: () => NOW });
  const log = await store.readAll(0, 1000);
  for (let pass = 0; pass < 2; pass++) for (const e of log) await process.react(e);

  const types = async (stream: string) => (await store.readStream(stream)).map((e) => e.type);
  t.same(await types(projectStream('prj_same')), [
    'ProjectCreated',
    'ProjectPackStarted',
    'ProjectPackJobAssigned',
    'ProjectPlanSaved',
  ]);
  t.same(
    await types(projectStream('prj_changed')),
    ['ProjectCreated', 'ProjectPackStarted', 'ProjectUpdated', 'ProjectPackJobAssigned', 'ProjectPackEnded'],
    'the process assigned the job when it reacted to JobQueued, after the edit was stored',
  );
  t.same(await types(jobStream('job_same')), ['JobQueued', 'JobStarted', 'JobSucceeded']);
  const changed = await store.readStream(jobStream('job_changed'));
  t.same(
    changed.map((e) => e.type),
    ['JobQueued', 'JobStarted', 'JobSucceeded', 'JobWarned'],
  );
  t.equal((changed[3]!.data as { warning: { code: string } }).warning.code, 'project_not_saved');
});
