/**
 * The repair tick (DESIGN §4.4): what the reactions of the process managers may have left undone
 * is found in the read models and done again, on a timer. Every step is idempotent (deterministic
 * event ids, expected revisions, a ledger that settles a job once), so any number of schedulers
 * may run it at once, and a step that fails is simply tried again at the next tick.
 *
 * The steps: queue timeouts (of jobs queued or not yet computing); settlements of ended jobs; solve commands of started jobs that no
 * solver took; retention of job bodies; project packs whose job ended; free compute slots;
 * credits held for jobs that were admitted but never queued; and Idempotency-Key claims left
 * pending past their timeout (completed when their job was queued, else released with the job
 * voided: domain/job/stale-claim.ts).
 */
import { serviceActor } from '../decider/actor.js';
import type { EventStore } from '../ports/event-store.js';
import { settleStaleClaim } from './stale-claim.js';
import { IDEMPOTENCY_TIMINGS } from './idempotency-claim.js';
import type { JobStatus } from './job.js';
import type { JobProcess } from './process.js';
import { deleteExpiredBodies } from './retention.js';
import type { ProjectProcess } from '../project/process.js';

/** The timings of the repair (ms), each with the reason for its size. */
export const REPAIR_TIMINGS = {
  /**
   * An ended job is settled by the reaction to its end event within milliseconds; the tick steps
   * in only for jobs that ended longer ago than this, so it does not race the reaction.
   */
  settleAfterMs: 5_000,
  /**
   * A started job whose solver has not reported `computing` for this long gets its solve command
   * published again (the bus drops it while it still holds the message id). Long enough for a
   * busy node to pull the message; short next to a job's compute budget (up to 90 s).
   */
  redispatchAfterMs: 15_000,
  /**
   * A hold with no job behind it is released after this long. An admission appends the hold, the
   * request body and JobQueued within a few ms; 30 s leaves a wide margin for a slow store.
   */
  orphanAfterMs: 30_000,
  /** Longest interval between two ticks. */
  maxIntervalMs: 15_000,
} as const;

/** The tick's interval for a queue timeout (ms): a quarter of it, at most 15 s, at least 50 ms. */
export function repairIntervalMs(queueTimeoutMs: number): number {
  return Math.max(50, Math.min(REPAIR_TIMINGS.maxIntervalMs, queueTimeoutMs / 4));
}

/** A job as the repair reads it (from the jobs read model). */
export interface RepairJob {
  id: string;
  orgId: string;
  status: JobStatus;
  /** When retention deleted its bodies; null before. */
  bodyDeletedAt: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** A solver reported `computing`. */
  computing: boolean;
  expiresAt: string;
}

/** The read-model queries the repair needs (answered by projections/, so the domain imports no read model). */
export interface RepairReads {
  queuedJobs(): Promise<RepairJob[]>;
  runningJobs(): Promise<RepairJob[]>;
  /** Ended jobs whose settlement the read models have not seen. */
  endedUnsettledJobs(): Promise<RepairJob[]>;
  /** Ended jobs past `expires_at` whose bodies are not deleted yet. */
  jobsPastRetention(now: string): Promise<RepairJob[]>;
  /** Jobs of projects that show a pack in progress. */
  projectPackJobs(): Promise<RepairJob[]>;
  /** Per organization: queued jobs waiting for a slot, and the job ids its ledger holds credits for. */
  ledgers(): Promise<{ orgId: string; queued: number; heldJobIds: string[] }[]>;
  jobExists(jobId: string): Promise<boolean>;
  /** Idempotency-Key claims still pending that were claimed at or after `claimedAfter` (RFC 3339): key stream and job id. */
  pendingClaims(claimedAfter: string): Promise<{ stream: string; jobId: string }[]>;
}

/** What one tick did, for the log. */
export interface RepairReport {
  queueTimeouts: number;
  redispatched: number;
  bodiesDeleted: number;
  orphansReleased: string[];
  /** Pending Idempotency-Key claims settled: the key's stream, the claim's job and what became of it. */
  claimsSettled: { stream: string; jobId: string; outcome: 'completed' | 'released' }[];
  /** Steps that failed (tried again next tick). */
  errors: { step: string; error: unknown }[];
}

export interface RepairDeps {
  store: EventStore;
  jobs: JobProcess;
  projects: ProjectProcess;
  reads: RepairReads;
  /** RFC 3339 now. */
  clock: () => string;
  queueTimeoutMs: number;
  /** How long the tick sees a pending Idempotency-Key claim before it settles it, ms (IDEMPOTENCY_TIMINGS.pendingStaleAfterMs). */
  pendingClaimStaleMs: number;
}

/**
 * Start-up recovery of a process that is alone on its event store (the embedded profile: the
 * data dir lock proves no other instance lives): every Idempotency-Key claim still pending
 * within the idempotency window was left by a request of a process that died, so each is settled
 * now (completed when its job was queued, else released with its job voided) instead of after
 * `pendingClaimStaleMs`. A retry after the restart then gets the job or makes one at once.
 * Resolves with the claims settled; a claim that cannot be settled now is left to the repair tick.
 */
export async function settleClaimsLeftPending(
  deps: Pick<RepairDeps, 'store' | 'reads' | 'clock'>,
): Promise<RepairReport['claimsSettled']> {
  const now = deps.clock();
  const claimedAfter = new Date(Date.parse(now) - IDEMPOTENCY_TIMINGS.windowMs).toISOString();
  const settled: RepairReport['claimsSettled'] = [];
  for (const { stream, jobId } of await deps.reads.pendingClaims(claimedAfter)) {
    const outcome = await settleStaleClaim(deps.store, stream, jobId, now, serviceActor('repair'));
    settled.push({ stream, jobId, outcome });
  }
  return settled;
}

/** One repair tick after another; keeps which holds it has seen without a job. */
export class RepairTick {
  /** Holds of jobs admitted but never queued, by when they were first seen (ms since epoch). */
  private readonly orphanSince = new Map<string, number>();
  /** Pending Idempotency-Key claims (`<stream> <jobId>`) by when this tick first saw them (ms since epoch). */
  private readonly claimSince = new Map<string, number>();

  constructor(private readonly deps: RepairDeps) {}

  /** Runs every step once; a failing step is reported and does not stop the others. */
  async run(): Promise<RepairReport> {
    const report: RepairReport = {
      queueTimeouts: 0,
      redispatched: 0,
      bodiesDeleted: 0,
      orphansReleased: [],
      claimsSettled: [],
      errors: [],
    };
    const step = async (name: string, work: () => Promise<void>): Promise<void> => {
      try {
        await work();
      } catch (error) {
        report.errors.push({ step: name, error });
      }
    };
    const { jobs, projects, reads, store, clock, queueTimeoutMs } = this.deps;
    const nowMs = Date.parse(clock());
    const endedLongAgo = (j: RepairJob): boolean =>
      j.finishedAt !== null && Date.parse(j.finishedAt) < nowMs - REPAIR_TIMINGS.settleAfterMs;

    await step('queue timeouts', async () => {
      // Waiting: queued, or given the organization's slot but not computing (every solver slot busy).
      const waiting = [...(await reads.queuedJobs()), ...(await reads.runningJobs()).filter((j) => !j.computing)];
      report.queueTimeouts = await jobs.expireQueued(
        waiting.map((j) => ({ jobId: j.id, createdAt: j.createdAt })),
        queueTimeoutMs,
      );
    });
    await step('settlements', async () => {
      for (const job of await reads.endedUnsettledJobs()) if (endedLongAgo(job)) await jobs.settle(job.id);
    });
    await step('solve commands', async () => {
      const running = await reads.runningJobs();
      report.redispatched = await jobs.redispatchStalled(
        running.map((j) => ({ jobId: j.id, startedAt: j.startedAt, computing: j.computing })),
        REPAIR_TIMINGS.redispatchAfterMs,
      );
    });
    await step('retention', async () => {
      const now = clock();
      report.bodiesDeleted = await deleteExpiredBodies(store, await reads.jobsPastRetention(now), now);
    });
    await step('project packs', async () => {
      for (const job of await reads.projectPackJobs()) if (endedLongAgo(job)) await projects.reconcileJob(job.id);
    });
    await step('slots and holds', async () => {
      for (const ledger of await reads.ledgers()) {
        if (ledger.queued > 0) await jobs.startJobs(ledger.orgId);
        for (const jobId of ledger.heldJobIds) {
          if (await reads.jobExists(jobId)) {
            this.orphanSince.delete(jobId);
            continue;
          }
          const since = this.orphanSince.get(jobId) ?? nowMs;
          this.orphanSince.set(jobId, since);
          if (nowMs - since > REPAIR_TIMINGS.orphanAfterMs) {
            const released = await jobs.releaseOrphan(ledger.orgId, jobId);
            this.orphanSince.delete(jobId);
            if (released) report.orphansReleased.push(jobId);
          }
        }
      }
    });
    await step('idempotency claims', async () => {
      // Staleness is timed on this process's clock from when the tick first saw the claim, so a
      // scheduler whose clock runs ahead does not void admissions still under way elsewhere.
      // Claims older than the idempotency window (by their own clock) count for nothing any more.
      const claimedAfter = new Date(nowMs - IDEMPOTENCY_TIMINGS.windowMs).toISOString();
      const pending = await reads.pendingClaims(claimedAfter);
      const seen = new Set(pending.map((c) => `${c.stream} ${c.jobId}`));
      for (const key of this.claimSince.keys()) if (!seen.has(key)) this.claimSince.delete(key);
      for (const { stream, jobId } of pending) {
        const key = `${stream} ${jobId}`;
        const since = this.claimSince.get(key) ?? nowMs;
        this.claimSince.set(key, since);
        if (nowMs - since < this.deps.pendingClaimStaleMs) continue;
        const outcome = await settleStaleClaim(store, stream, jobId, clock(), serviceActor('repair'));
        this.claimSince.delete(key);
        report.claimsSettled.push({ stream, jobId, outcome });
      }
    });
    return report;
  }
}
