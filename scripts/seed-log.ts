/**
 * Fills an event log with succeeded jobs fast, for load figures (`npm run bench -- api`): the
 * same commands the service issues, in the same order, without HTTP and without a search per
 * job. Per job: AdmitJob on the ledger, RequestStored, QueueJob, the scheduler's reaction to
 * JobQueued (StartNextJob on the ledger, StartJob), ResultStored, SucceedJob and the settlement
 * (SettleJob). The plan is solved once and stored for every job (they carry the same request),
 * so the log has the shape and size of real traffic: about 9 events per job.
 *
 * Run it on a data dir that no service holds (it opens `<dir>/events.db` itself).
 */
import { join } from 'node:path';
import { SqliteEventStore } from '../adapters/sqlite/event-store.js';
import { checkPackRequest, SCRIPT_CHECK_CONTEXT } from '../api/http/pack-request/check.js';
import { newId } from '../application/id.js';
import { createApiKey, provisionOrganization } from '../application/provision.js';
import { handleCommand } from '../domain/decider/handle.js';
import { jobDecider } from '../domain/job/decide.js';
import type { JobQueuedData } from '../domain/job/job.js';
import { JobProcess } from '../domain/job/process.js';
import { storeJobRequest, storeJobResult } from '../domain/job/body.js';
import { jobStream } from '../domain/job/streams.js';
import { ledgerDecider } from '../domain/ledger/decide.js';
import type { LedgerEvent } from '../domain/ledger/ledger.js';
import { CURRENT_RATE_CARD } from '../domain/ledger/rate-card.js';
import { ledgerStream } from '../domain/ledger/streams.js';
import { DEFAULT_LIMITS, type OrgLimits } from '../domain/organization/limits.js';
import type { RecordedEvent } from '../domain/ports/event-store.js';
import { Solver } from '../solver/solve.js';
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

/** Jobs seeded at once. */
const SEED_CONCURRENCY = 16;

/** What seedJobLog made: the organization, its key (every scope) and the job ids in creation order. */
export interface SeededLog {
  orgId: string;
  key: string;
  jobIds: string[];
  /** Events in the log afterwards. */
  events: number;
}

/**
 * Creates an organization (`credits` subscription credits, `limits` over the defaults) with one
 * key, and `jobs` succeeded jobs of `request` (default SEED_REQUEST; tests pass a smaller one
 * with a roomy time limit, whose one solve is safe on a loaded machine), in
 * `<dataDir>/events.db`. `onProgress` is called every 500 jobs. Throws when the request does not
 * check or the solve fails.
 */
export async function seedJobLog(
  dataDir: string,
  options: {
    jobs: number;
    credits: number;
    limits: Partial<OrgLimits>;
    onProgress?: (done: number) => void;
    request?: { reference: string } & Record<string, unknown>;
  },
): Promise<SeededLog> {
  const request = options.request ?? SEED_REQUEST;
  const checked = checkPackRequest(request, SCRIPT_CHECK_CONTEXT);
  if (!checked.ok) throw new Error(`seed request: ${checked.message}`);
  const solver = new Solver({ threads: 1 });
  const outcome = await solver.solve(checked.model).finally(() => solver.close());
  if (outcome.status !== 'solved') throw new Error(`seed request: the solve ended ${outcome.status}`);
  const { plan, computeMs } = outcome;

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
    // Compute slots for every job seeded at once, so each is started by its own reaction.
    const seeding: OrgLimits = { ...limits, concurrency: Math.max(limits.concurrency, SEED_CONCURRENCY) };
    const scheduler = new JobProcess({
      store,
      bus: { publish: async () => {} } as never,
      clock: now,
      limitsOf: () => Promise.resolve(seeding),
    });
    const jobIds: string[] = [];
    let started = 0;
    let done = 0;
    // Several jobs at once, as concurrent requests would: their appends share group commits.
    const seedOne = async (i: number): Promise<void> => {
      const jobId = newId('job');
      const admitted = await handleCommand(store, ledgerStream(org.orgId), ledgerDecider, {
        type: 'AdmitJob',
        data: {
          jobId,
          card: CURRENT_RATE_CARD,
          units: checked.items,
          minVehicles: checked.minVehicles,
          maxVehicles: checked.model.maxVehicles,
          budgetMs: checked.model.budgetMs,
          maxQueuedJobs: limits.maxQueuedJobs,
        },
        metadata: { now: now(), actor },
      });
      const terms = (admitted.events[0] as Extract<LedgerEvent, { type: 'JobAdmitted' }> | undefined)?.data;
      if (!terms) throw new Error(`job ${i}: not admitted (credits or queue limit)`);
      const createdAt = now();
      const queued: JobQueuedData = {
        jobId,
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
      await storeJobRequest(store, jobId, { request: checked.request, model: checked.model, queued });
      const { position } = await handleCommand(store, jobStream(jobId), jobDecider, {
        type: 'QueueJob',
        data: queued,
        metadata: { now: now(), actor },
      });
      // The scheduler's reaction: a compute slot on the ledger, then the job started.
      await scheduler.react({ stream: jobStream(jobId), type: 'JobQueued', data: queued, position } as RecordedEvent);
      await storeJobResult(store, jobId, { plan, warnings: [], strategy: outcome.strategy });
      await handleCommand(store, jobStream(jobId), jobDecider, {
        type: 'SucceedJob',
        data: { jobId, computeMs, summary: summarizePlan(plan), warnings: [] },
        metadata: { now: now(), actor },
      });
      await scheduler.settle(jobId);
      jobIds[i] = jobId;
      done += 1;
      if (done % 500 === 0) options.onProgress?.(done);
    };
    await Promise.all(
      Array.from({ length: Math.min(SEED_CONCURRENCY, options.jobs) }, async () => {
        while (started < options.jobs) await seedOne(started++);
      }),
    );
    return { orgId: org.orgId, key: key.secret, jobIds, events: await store.headPosition() };
  } finally {
    await store.close();
  }
}
