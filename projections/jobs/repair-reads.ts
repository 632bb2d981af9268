/**
 * The repair tick's queries (domain/job/repair.ts RepairReads) answered from the read models:
 * jobs by status, expiry and settlement, projects with a pack in progress, balances, pending
 * Idempotency-Key claims by age. Each is one
 * indexed query (projections/indexes.ts), not a load of a whole collection; the ledgers' open
 * reservations are read from their own collection (one small document per job held), so
 * organizations that hold nothing cost nothing.
 */
import type { RepairJob, RepairReads } from '../../domain/job/repair.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import { RESERVATIONS, type ReservationDocument } from '../balances/projection.js';
import { PROJECTS, type ProjectDocument } from '../projects/project-document.js';
import { JOBS, type JobDocument } from './job-document.js';
import { IDEMPOTENCY_CLAIMS, type PendingClaimDocument } from '../idempotency-claims/projection.js';

const ENDED = ['succeeded', 'failed', 'canceled'] as const;

const toRepairJob = (j: JobDocument): RepairJob => ({
  id: j.id,
  orgId: j.orgId,
  status: j.status,
  bodyDeletedAt: j.bodyDeletedAt ?? null,
  createdAt: j.createdAt,
  startedAt: j.startedAt,
  finishedAt: j.finishedAt,
  computing: Boolean(j.computeStartedAt),
  expiresAt: j.expiresAt,
});

/** RepairReads over `reads`. */
export function repairReads(reads: ReadStore): RepairReads {
  const jobs = reads.collection<JobDocument>(JOBS);
  return {
    queuedJobs: async () => (await jobs.find({ where: { status: 'queued' } })).map(toRepairJob),
    runningJobs: async () => (await jobs.find({ where: { status: 'running' } })).map(toRepairJob),
    endedUnsettledJobs: async () =>
      (await jobs.find({ where: { status: { in: ENDED }, chargedMicros: null } })).map(toRepairJob),
    jobsPastRetention: async (now) =>
      (
        await jobs.find({ where: { status: { in: ENDED }, expiresAt: { lte: now }, bodyDeletedAt: { exists: false } } })
      ).map(toRepairJob),
    projectPackJobs: async () => {
      const packing = await reads
        .collection<ProjectDocument>(PROJECTS)
        .find({ where: { packingJobId: { exists: true } } });
      const found = await Promise.all(packing.map((p) => jobs.get(p.packingJobId!)));
      return found.filter((j): j is JobDocument => j !== undefined).map(toRepairJob);
    },
    ledgers: async () => {
      // The open reservations (one small document each), in admission order, by organization.
      const open = await reads.collection<ReservationDocument>(RESERVATIONS).find({ sortBy: 'admittedPosition' });
      const byOrg = new Map<string, { orgId: string; queued: number; heldJobIds: string[] }>();
      for (const r of open) {
        let ledger = byOrg.get(r.orgId);
        if (!ledger) byOrg.set(r.orgId, (ledger = { orgId: r.orgId, queued: 0, heldJobIds: [] }));
        if (r.status === 'queued') ledger.queued += 1;
        ledger.heldJobIds.push(r.id);
      }
      return [...byOrg.values()];
    },
    jobExists: async (jobId) => (await jobs.get(jobId)) !== undefined,
    pendingClaims: async (claimedAfter) =>
      (
        await reads
          .collection<PendingClaimDocument>(IDEMPOTENCY_CLAIMS)
          .find({ where: { claimedAt: { gte: claimedAfter } } })
      ).map((c) => ({ stream: c.id, jobId: c.jobId })),
  };
}
