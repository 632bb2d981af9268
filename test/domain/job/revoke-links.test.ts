/**
 * The job decider's RevokeLinks: each revocation raises the job's link generation by one
 * (JobLinksRevoked with a deterministic id per generation), in any state; a job never queued
 * is job_not_found. And the signatures: a link signed with an older generation fails the check,
 * generation 0 keeps the strings of links handed out before revocation existed.
 */
import t from 'tap';
import { createHmac } from 'node:crypto';
import { jobDecider, type JobCommand } from '../../../domain/job/decide.js';
import type { JobEvent, JobQueuedData } from '../../../domain/job/job.js';
import { checkLink, signLink } from '../../../api/http/plan-links/signed-link.js';
import { ACTOR, deciderSpec, LATER, NOW } from '../../helpers/decider-spec.js';

const queued: JobQueuedData = {
  jobId: 'job_1',
  orgId: 'org_1',
  keyId: 'key_1',
  memberId: 'usr_1',
  source: 'api',
  reference: null,
  createdAt: NOW,
  expiresAt: '2026-12-06T10:00:00.000Z',
  items: 3,
  maxVehicles: 2,
  budgetMs: 1000,
  reservedMicros: 1,
  rateCardVersion: 1,
  warnings: [],
};
const wasQueued: JobEvent = { type: 'JobQueued', id: 'job_1:queued', data: queued };
const summary = { items_placed: 3, items_unplaced: 0, vehicles_used: 1, total_weight: 30, volume_utilization: 0.5 };
const ended: JobEvent[] = [
  wasQueued,
  { type: 'JobStarted', id: 'job_1:started', data: { jobId: 'job_1', startedAt: NOW } },
  {
    type: 'JobSucceeded',
    id: 'job_1:ended',
    data: { jobId: 'job_1', finishedAt: NOW, computeMs: 5, summary, warnings: [] },
  },
];
const revoke = (now: string): JobCommand => ({
  type: 'RevokeLinks',
  data: { jobId: 'job_1' },
  metadata: { now, actor: ACTOR },
});
const revoked = (generation: number, at: string): JobEvent => ({
  type: 'JobLinksRevoked',
  id: `job_1:links-revoked:${generation}`,
  data: { jobId: 'job_1', revokedAt: at, generation, revokedBy: ACTOR.id },
});

t.test('each revocation raises the generation by one', async (t) => {
  const { given } = deciderSpec(t, jobDecider);
  const first = given(ended)
    .when(revoke(NOW))
    .then([revoked(1, NOW)]);
  t.equal(first.state.linkGeneration, 1);
  t.equal(first.state.status, 'succeeded', 'the status does not change');
  const second = given(first.history)
    .when(revoke(LATER))
    .then([revoked(2, LATER)]);
  t.equal(second.state.linkGeneration, 2);
});

t.test('in any state of a queued job; never queued: job_not_found', async (t) => {
  const { given } = deciderSpec(t, jobDecider);
  given([wasQueued])
    .when(revoke(NOW))
    .then([revoked(1, NOW)]);
  given([]).when(revoke(NOW)).thenThrows('job_not_found');
});

t.test('signatures carry the generation', async (t) => {
  const key = Buffer.alloc(32, 7);
  const expiresAt = '2026-12-06T10:00:00.000Z';
  const before = Date.parse(NOW);
  for (const purpose of ['pdf', 'viewer'] as const) {
    const g0 = signLink(key, purpose, 'job_1', expiresAt);
    t.same(signLink(key, purpose, 'job_1', expiresAt, 0), g0, `${purpose}: generation 0 is the default`);
    const g1 = signLink(key, purpose, 'job_1', expiresAt, 1);
    t.not(g1.signature, g0.signature, `${purpose}: a new signature after a revocation`);
    t.equal(
      checkLink(key, purpose, 'job_1', String(g0.expires), g0.signature, before, 0),
      true,
      `${purpose}: opens at its generation`,
    );
    t.equal(
      checkLink(key, purpose, 'job_1', String(g0.expires), g0.signature, before, 1),
      false,
      `${purpose}: an earlier link is refused`,
    );
    t.equal(
      checkLink(key, purpose, 'job_1', String(g1.expires), g1.signature, before, 1),
      true,
      `${purpose}: the new link opens`,
    );
    t.equal(
      checkLink(key, purpose, 'job_1', String(g1.expires), g1.signature, before, 2),
      false,
      `${purpose}: and is refused after the next revocation`,
    );
    t.equal(
      g1.signature,
      createHmac('sha256', key).update(`${purpose}:job_1.${g1.expires}.1`).digest('hex'),
      `${purpose}: the signed string`,
    );
  }
  const pdf1 = signLink(key, 'pdf', 'job_1', expiresAt, 1);
  t.equal(
    checkLink(key, 'viewer', 'job_1', String(pdf1.expires), pdf1.signature, before, 1),
    false,
    'purposes stay apart after a revocation',
  );
});
