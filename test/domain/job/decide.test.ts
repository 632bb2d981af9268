import t from 'tap';
import { decideJob, type JobCommand } from '../../../domain/job/decide.js';
import { evolveJob, initialJob, type JobQueuedData, type JobState } from '../../../domain/job/job.js';

const NOW = '2026-11-22T10:00:00.000Z';
const queued: JobQueuedData = {
  jobId: 'job_1', orgId: 'org_1', keyId: 'key_1', memberId: 'usr_1', source: 'api', reference: null, createdAt: NOW,
  expiresAt: '2026-12-06T10:00:00.000Z', items: 3, maxVehicles: 2, budgetMs: 1000, reservedMicros: 1, rateCardVersion: 1, warnings: [],
};
const summary = { items_placed: 3, items_unplaced: 0, vehicles_used: 1, total_weight: 30, volume_utilization: 0.5 };

function apply(state: JobState, command: JobCommand) {
  const events = decideJob(command, state);
  return { events, state: events.reduce(evolveJob, state) };
}

t.test('queued → running → succeeded, with deterministic event ids', async (t) => {
  let s = apply(initialJob(), { type: 'QueueJob', data: queued });
  t.same(s.events.map((e) => e.id), ['job_1:queued']);
  s = apply(s.state, { type: 'StartJob', jobId: 'job_1', now: NOW });
  t.equal(s.state.status, 'running');
  s = apply(s.state, { type: 'SucceedJob', jobId: 'job_1', now: NOW, computeMs: 5, summary, warnings: [] });
  t.equal(s.state.status, 'succeeded');
  t.same(s.events.map((e) => e.id), ['job_1:ended']);
});

t.test('final statuses never change', async (t) => {
  let s = apply(initialJob(), { type: 'QueueJob', data: queued });
  s = apply(s.state, { type: 'FailJob', jobId: 'job_1', now: NOW, computeMs: 0, code: 'server_restarted', message: 'x' });
  t.equal(s.state.status, 'failed');
  for (const c of [
    { type: 'StartJob', jobId: 'job_1', now: NOW },
    { type: 'SucceedJob', jobId: 'job_1', now: NOW, computeMs: 1, summary, warnings: [] },
    { type: 'FailJob', jobId: 'job_1', now: NOW, computeMs: 0, code: 'engine_failed', message: 'y' },
    { type: 'QueueJob', data: queued },
  ] as JobCommand[]) {
    t.same(decideJob(c, s.state), [], c.type);
  }
});

t.test('a queued job cannot succeed without running; canceled is its own status', async (t) => {
  const q = apply(initialJob(), { type: 'QueueJob', data: queued });
  t.same(decideJob({ type: 'SucceedJob', jobId: 'job_1', now: NOW, computeMs: 1, summary, warnings: [] }, q.state), []);
  const c = apply(q.state, { type: 'FailJob', jobId: 'job_1', now: NOW, computeMs: 0, code: 'canceled', message: 'canceled' });
  t.equal(c.state.status, 'canceled');
});

t.test('retention: the body deletion is recorded once, only for final jobs past expires_at', async (t) => {
  const later = '2026-12-06T10:00:00.000Z';
  let s = apply(initialJob(), { type: 'QueueJob', data: queued });
  t.same(decideJob({ type: 'RecordBodyDeleted', jobId: 'job_1', now: later }, s.state), [], 'not while the job is open');
  s = apply(s.state, { type: 'StartJob', jobId: 'job_1', now: NOW });
  s = apply(s.state, { type: 'SucceedJob', jobId: 'job_1', now: NOW, computeMs: 5, summary, warnings: [] });
  t.same(decideJob({ type: 'RecordBodyDeleted', jobId: 'job_1', now: '2026-12-06T09:59:59.999Z' }, s.state), [], 'not before expires_at');
  s = apply(s.state, { type: 'RecordBodyDeleted', jobId: 'job_1', now: later });
  t.same(s.events.map((e) => [e.type, e.id]), [['JobBodyDeleted', 'job_1:body-deleted']]);
  t.same([s.state.status, s.state.bodyDeleted], ['succeeded', true], 'the status stays');
  t.same(decideJob({ type: 'RecordBodyDeleted', jobId: 'job_1', now: later }, s.state), [], 'once');
});
