/** The job decider: given events, when a command, then events or a refusal. Fixed clock. */
import t from 'tap';
import { jobDecider, type JobCommand } from '../../../domain/job/decide.js';
import type { JobEvent, JobQueuedData } from '../../../domain/job/job.js';
import { ACTOR, deciderSpec, NOW } from '../../helpers/decider-spec.js';

const EXPIRES = '2026-12-06T10:00:00.000Z';
const queued: JobQueuedData = {
  jobId: 'job_1',
  orgId: 'org_1',
  keyId: 'key_1',
  memberId: 'usr_1',
  source: 'api',
  reference: null,
  createdAt: NOW,
  expiresAt: EXPIRES,
  items: 3,
  maxVehicles: 2,
  budgetMs: 1000,
  reservedMicros: 1,
  rateCardVersion: 1,
  warnings: [],
};
const summary = { items_placed: 3, items_unplaced: 0, vehicles_used: 1, total_weight: 30, volume_utilization: 0.5 };

const wasQueued: JobEvent = { type: 'JobQueued', id: 'job_1:queued', data: queued };
const wasStarted: JobEvent = { type: 'JobStarted', id: 'job_1:started', data: { jobId: 'job_1', startedAt: NOW } };
const succeeded: JobEvent = {
  type: 'JobSucceeded',
  id: 'job_1:ended',
  data: { jobId: 'job_1', finishedAt: NOW, computeMs: 5, summary, warnings: [], stopReason: 'stagnated' },
};
const failed = (code: 'server_restarted' | 'canceled', message: string): JobEvent => ({
  type: 'JobFailed',
  id: 'job_1:ended',
  data: { jobId: 'job_1', finishedAt: NOW, computeMs: 0, code, message },
});

const succeed: JobCommand = {
  type: 'SucceedJob',
  data: { jobId: 'job_1', computeMs: 5, summary, warnings: [], stopReason: 'stagnated' },
  metadata: { now: NOW, actor: ACTOR },
};

t.test('queued → running → succeeded, with deterministic event ids', async (t) => {
  const { given } = deciderSpec(t, jobDecider);
  t.equal(
    given([])
      .when({ type: 'QueueJob', data: queued, metadata: { now: NOW, actor: ACTOR } })
      .then([wasQueued]).state.status,
    'queued',
  );
  t.equal(
    given([wasQueued])
      .when({ type: 'StartJob', data: { jobId: 'job_1' }, metadata: { now: NOW, actor: ACTOR } })
      .then([wasStarted]).state.status,
    'running',
  );
  t.equal(given([wasQueued, wasStarted]).when(succeed).then([succeeded]).state.status, 'succeeded');
});

t.test('final statuses never change', async (t) => {
  const { given } = deciderSpec(t, jobDecider);
  const failedJob = given([wasQueued])
    .when({
      type: 'FailJob',
      data: { jobId: 'job_1', computeMs: 0, code: 'server_restarted', message: 'x' },
      metadata: { now: NOW, actor: ACTOR },
    })
    .then([failed('server_restarted', 'x')]);
  t.equal(failedJob.state.status, 'failed');
  for (const c of [
    { type: 'StartJob', data: { jobId: 'job_1' }, metadata: { now: NOW, actor: ACTOR } },
    {
      type: 'SucceedJob',
      data: { jobId: 'job_1', computeMs: 1, summary, warnings: [] },
      metadata: { now: NOW, actor: ACTOR },
    },
    {
      type: 'FailJob',
      data: { jobId: 'job_1', computeMs: 0, code: 'engine_failed', message: 'y' },
      metadata: { now: NOW, actor: ACTOR },
    },
    { type: 'QueueJob', data: queued, metadata: { now: NOW, actor: ACTOR } },
  ] as JobCommand[]) {
    given(failedJob.history).when(c).thenNothing(c.type);
  }
  given(failedJob.history)
    .when({ type: 'CancelJob', data: { jobId: 'job_1', computeMs: 0 }, metadata: { now: NOW, actor: ACTOR } })
    .thenThrows('job_already_finished');
  given([])
    .when({ type: 'CancelJob', data: { jobId: 'job_1', computeMs: 0 }, metadata: { now: NOW, actor: ACTOR } })
    .thenThrows('job_not_found');
});

t.test('a queued job cannot succeed without running; canceled is its own status', async (t) => {
  const { given } = deciderSpec(t, jobDecider);
  given([wasQueued]).when(succeed).thenNothing();
  const canceled = given([wasQueued])
    .when({
      type: 'FailJob',
      data: { jobId: 'job_1', computeMs: 0, code: 'canceled', message: 'canceled' },
      metadata: { now: NOW, actor: ACTOR },
    })
    .then([failed('canceled', 'canceled')]);
  t.equal(canceled.state.status, 'canceled');
});

t.test('retention: the body deletion is recorded once, only for final jobs past expires_at', async (t) => {
  const { given } = deciderSpec(t, jobDecider);
  const deleteBody: JobCommand = {
    type: 'RecordBodyDeleted',
    data: { jobId: 'job_1' },
    metadata: { now: EXPIRES, actor: ACTOR },
  };
  given([wasQueued]).when(deleteBody).thenNothing('not while the job is open');
  const ended = [wasQueued, wasStarted, succeeded];
  given(ended)
    .when({
      type: 'RecordBodyDeleted',
      data: { jobId: 'job_1' },
      metadata: { now: '2026-12-06T09:59:59.999Z', actor: ACTOR },
    })
    .thenNothing('not before expires_at');
  const deleted = given(ended)
    .when(deleteBody)
    .then([{ type: 'JobBodyDeleted', id: 'job_1:body-deleted', data: { jobId: 'job_1', deletedAt: EXPIRES } }]);
  t.same([deleted.state.status, deleted.state.bodyDeleted], ['succeeded', true], 'the status stays');
  given(deleted.history).when(deleteBody).thenNothing('once');
});

t.test('queue_timeout ends a wait only: a job a solver is computing is not failed by it', async (t) => {
  const { given } = deciderSpec(t, jobDecider);
  const timeout: JobCommand = {
    type: 'FailJob',
    data: { jobId: 'job_1', computeMs: 0, code: 'queue_timeout', message: 'waited' },
    metadata: { now: NOW, actor: ACTOR },
  };
  const expired = given([wasQueued, wasStarted])
    .when(timeout)
    .then([
      {
        type: 'JobFailed',
        id: 'job_1:ended',
        data: { jobId: 'job_1', finishedAt: NOW, computeMs: 0, code: 'queue_timeout', message: 'waited' },
      },
    ]);
  t.equal(expired.state.status, 'failed', 'running (slot given) but not computing: it was still waiting');
  const computing: JobEvent = {
    type: 'JobProgressed',
    data: { jobId: 'job_1', stage: 'computing', vehiclesDone: 0, placedItems: 0 },
  };
  const busy = given([wasQueued, wasStarted, computing]);
  t.equal(busy.state.computing, true);
  busy.when(timeout).thenNothing('computing: the budget bounds it, not the queue timeout');
});
