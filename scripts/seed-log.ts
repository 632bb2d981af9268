/**
 * Fills an event log with succeeded jobs fast, for load figures (`npm run bench -- api`): the
 * same commands the service issues, in the same order, without HTTP and without a search per
 * job. Per job: AdmitJob on the ledger, RequestStored, QueueJob, the scheduler's steps
 * (StartNextJob on the ledger, StartJob), ResultStored, SucceedJob and the settlement
 * (SettleJob). The plan is solved once and stored for every job (they carry the same request),
 * so the log has the shape and size of real traffic: about 9 events per job. Then `queued` jobs
 * admitted and queued but never started: the log a restart finds with jobs waiting.
 * Fast: SEED_CHUNK jobs at a time, their ledger commands decided together in one append per step
 * (domain/decider/batch.ts), their job streams in parallel (the appends share group commits);
 * 100,000 jobs take minutes, not hours. Admissions here are not held to the organization's
 * queue limit (the chunk is admitted before any of it runs).
 *
 * Run it on a data dir that no service holds (it opens `<dir>/events.db` itself).
 */
import { join } from 'node:path';
import { SqliteEventStore } from '../adapters/sqlite/event-store.js';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../api/http/pack-request/check.js';
import { newId } from '../application/id.js';
import { createApiKey, provisionOrganization } from '../application/provision.js';
import { batchDecider } from '../domain/decider/batch.js';
import type { CommandMetadata } from '../domain/decider/decider.js';
import { handleCommand } from '../domain/decider/handle.js';
import { jobDecider } from '../domain/job/decide.js';
import type { JobQueuedData } from '../domain/job/job.js';
import { settleCommandOf } from '../domain/job/process.js';
import { storeJobRequest, storeJobResult } from '../domain/job/body.js';
import { jobStream } from '../domain/job/streams.js';
import { ledgerDecider } from '../domain/ledger/decide.js';
import type { LedgerEvent } from '../domain/ledger/ledger.js';
import { CURRENT_RATE_CARD } from '../domain/ledger/rate-card.js';
import { ledgerStream } from '../domain/ledger/streams.js';
import { DEFAULT_LIMITS, type OrgLimits } from '../domain/organization/limits.js';
import { Solver, type SolveOutcome } from '../solver/solve.js';
import { summarizePlan } from '../solver/summary.js';

/** The body every seeded job carries: 24 cartons in a 7.5 t rigid truck. */
export const SEED_REQUEST = {
  reference: 'bench-seed',
  vehicles: [{ vehicle_id: 'rigid-7-5t' }],
  items: [
    { id: 'ctn-a', label: 'Carton A', length: 60, width: 40, height: 40, weight: 12, quantity: 16 },
    { id: 'ctn-b', label: 'Carton B', length: 80, width: 60, height: 50, weight: 20, quantity: 8 },
  ],
} as const;

/** Jobs seeded together: one ledger append per step for all of them, their job streams in parallel. */
const SEED_CHUNK = 250;
/** onProgress is called each time this many more jobs are seeded. */
const PROGRESS_EVERY = 5000;

/** What seedJobLog made: the organization, its key (every scope) and the job ids in creation order. */
export interface SeededLog {
  orgId: string;
  key: string;
  jobIds: string[];
  /** The queued jobs (`queued`), in admission order: credits reserved, never started. */
  queuedIds: string[];
  /** Events in the log afterwards. */
  events: number;
}

/**
 * Creates an organization (`credits` subscription credits, `limits` over the defaults) with one
 * key, and `jobs` succeeded jobs of `request` (default SEED_REQUEST; tests pass a smaller one
 * with a roomy time limit, whose one solve is safe on a loaded machine), in
 * `<dataDir>/events.db`, then `queued` queued jobs. `onProgress` is called every PROGRESS_EVERY jobs. Throws when the request does not
 * check or the solve fails.
 */
export async function seedJobLog(
  dataDir: string,
  options: {
    jobs: number;
    /** Jobs admitted and queued after the succeeded ones, never started (as a restart finds them). */
    queued?: number;
    credits: number;
    limits: Partial<OrgLimits>;
    onProgress?: (done: number) => void;
    request?: { reference: string } & Record<string, unknown>;
    /** The search thread's module (solver/solve.ts SolverOptions `threadModule`; default beside the solver). */
    threadModule?: URL | undefined;
  },
): Promise<SeededLog> {
  const request = options.request ?? SEED_REQUEST;
  const checked = checkPackRequest(request, SCRIPT_CHECK_CONTEXT);
  if (!checked.ok) throw new Error(`seed request: ${checked.message}`);
  // One solve for every succeeded job (none when only queued jobs are seeded).
  const solveOnce = async (): Promise<Extract<SolveOutcome, { status: 'solved' }>> => {
    const solver = new Solver({ threads: 1, threadModule: options.threadModule });
    const outcome = await solver.solve(checked.model).finally(() => solver.close());
    if (outcome.status !== 'solved') throw new Error(`seed request: the solve ended ${outcome.status}`);
    return outcome;
  };
  const solved = options.jobs > 0 ? await solveOnce() : undefined;

  // A benchmark log, written in one go: no fsync per commit (the service opens it normally).
  const store = new SqliteEventStore(join(dataDir, 'events.db'), { bulkLoad: true });
  try {
    const now = (): string => new Date().toISOString();
    const limits: OrgLimits = { ...DEFAULT_LIMITS, ...options.limits };
    const org = await provisionOrganization(store, {
      name: 'Bench Logistics',
      ownerName: 'Bench',
      subscriptionCredits: options.credits,
      expiresAt: null,
      now: now(),
      limits: options.limits,
    });
    const key = await createApiKey(store, { orgId: org.orgId, memberId: org.ownerId, name: 'bench', now: now() });
    const actor = { id: org.ownerId, name: 'Bench' };
    const metadata = (): CommandMetadata => ({ now: now(), actor });
    const ledger = ledgerStream(org.orgId);
    const ledgerBatch = batchDecider(ledgerDecider);
    const jobIds: string[] = [];
    const queuedIds: string[] = [];
    const queuedCount = options.queued ?? 0;
    /** Admits and queues `count` jobs: one ledger append, the job streams in parallel. */
    const admitAndQueue = async (count: number): Promise<{ jobId: string; queued: JobQueuedData }[]> => {
      const ids = Array.from({ length: count }, () => newId('job'));
      const admitted = await handleCommand(
        store,
        ledger,
        ledgerBatch,
        ids.map((jobId) => ({
          type: 'AdmitJob' as const,
          data: {
            jobId,
            card: CURRENT_RATE_CARD,
            units: checked.items,
            minVehicles: checked.minVehicles,
            maxVehicles: checked.model.maxVehicles,
            budgetMs: checked.model.budgetMs,
            maxQueuedJobs: Number.MAX_SAFE_INTEGER,
          },
          metadata: metadata(),
        })),
      );
      if (admitted.events.length !== count)
        throw new Error('seed: not every job was admitted (credits or queue limit)');
      return Promise.all(
        (admitted.events as Extract<LedgerEvent, { type: 'JobAdmitted' }>[]).map(async ({ data: terms }) => {
          const createdAt = now();
          const queued: JobQueuedData = {
            jobId: terms.jobId,
            orgId: org.orgId,
            keyId: key.keyId,
            memberId: org.ownerId,
            source: 'api',
            reference: request.reference,
            createdAt,
            expiresAt: new Date(Date.parse(createdAt) + limits.retentionDays * 86_400_000).toISOString(),
            items: checked.items,
            maxVehicles: terms.maxVehicles,
            budgetMs: terms.budgetMs,
            reservedMicros: terms.reserved,
            rateCardVersion: CURRENT_RATE_CARD.version,
            warnings: checked.warnings,
          };
          await storeJobRequest(store, terms.jobId, { request: checked.request, model: checked.model, queued });
          await handleCommand(store, jobStream(terms.jobId), jobDecider, {
            type: 'QueueJob',
            data: queued,
            metadata: metadata(),
          });
          return { jobId: terms.jobId, queued };
        }),
      );
    };
    /** Runs `count` jobs to success: slots, results, SucceedJob, then their settlements in one append. */
    const seedSucceeded = async (count: number): Promise<void> => {
      const { plan, computeMs, strategy } = solved!;
      const jobs = await admitAndQueue(count);
      // The scheduler's steps: a compute slot each on the ledger (room for the whole chunk), the job started.
      await handleCommand(
        store,
        ledger,
        ledgerBatch,
        jobs.map(() => ({ type: 'StartNextJob' as const, data: { concurrency: count }, metadata: metadata() })),
      );
      const settlements = await Promise.all(
        jobs.map(async ({ jobId }) => {
          await handleCommand(store, jobStream(jobId), jobDecider, {
            type: 'StartJob',
            data: { jobId },
            metadata: metadata(),
          });
          await storeJobResult(store, jobId, { plan, warnings: [], strategy });
          const succeeded = await handleCommand(store, jobStream(jobId), jobDecider, {
            type: 'SucceedJob',
            data: { jobId, computeMs, summary: summarizePlan(plan), warnings: [], stopReason: 'time_limit' },
            metadata: metadata(),
          });
          return settleCommandOf(jobId, succeeded.state, metadata())!;
        }),
      );
      await handleCommand(store, ledger, ledgerBatch, settlements);
      jobIds.push(...jobs.map((j) => j.jobId));
    };
    let reported = 0;
    const progress = (): void => {
      const done = jobIds.length + queuedIds.length;
      if (Math.floor(done / PROGRESS_EVERY) > Math.floor(reported / PROGRESS_EVERY)) options.onProgress?.(done);
      reported = done;
    };
    while (jobIds.length < options.jobs) {
      await seedSucceeded(Math.min(SEED_CHUNK, options.jobs - jobIds.length));
      progress();
    }
    while (queuedIds.length < queuedCount) {
      const jobs = await admitAndQueue(Math.min(SEED_CHUNK, queuedCount - queuedIds.length));
      queuedIds.push(...jobs.map((j) => j.jobId));
      progress();
    }
    return { orgId: org.orgId, key: key.secret, jobIds, queuedIds, events: await store.headPosition() };
  } finally {
    await store.close();
  }
}
