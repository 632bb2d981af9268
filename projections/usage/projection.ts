/**
 * Usage read model (GET /v1/usage): per organization and UTC day, the jobs created that day, their
 * current statuses, what their settlements charged (micro-credits, by component), the compute
 * billed (ms) and what succeeded jobs loaded. A job counts on the day it was created, whenever
 * it ends or is settled, so the days of a range add up to the jobs submitted in it.
 *
 * Collections: `usage_days` (one UsageDay per org and date) and `usage_jobs` (the few facts of
 * each job the later events need: its day, status, budget, compute time).
 */
import type { JobEvent, JobStatus } from '../../domain/job/job.js';
import type { LedgerEvent } from '../../domain/ledger/ledger.js';
import type { Breakdown, JobOutcome } from '../../domain/ledger/pricing.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { FieldPath, IndexSpec, ReadStore } from '../../domain/ports/read-store.js';
import type { Projection } from '../projection.js';
import { isJobStream } from '../../domain/job/streams.js';

export const USAGE_DAYS = 'usage_days';
export const USAGE_JOBS = 'usage_jobs';

/** One organization's usage on one UTC day; amounts in micro-credits, times in ms. */
export interface UsageDay {
  /** `<orgId>:<YYYY-MM-DD>`. */
  id: string;
  orgId: string;
  /** YYYY-MM-DD (UTC). */
  date: string;
  jobs: number;
  byStatus: Record<JobStatus, number>;
  creditsMicros: number;
  byComponent: Breakdown;
  /** Compute time charged for (the run's compute, capped at its budget, of charged outcomes). */
  computeMsBilled: number;
  /** Units placed and vehicles loaded by the day's succeeded jobs. */
  itemsPlaced: number;
  vehiclesUsed: number;
  position: number;
}

/** Index of `usage_days`: `orgId, date` serves GET /v1/usage (one organization's days from–to). */
export const USAGE_DAY_INDEXES: readonly IndexSpec<FieldPath<UsageDay>>[] = [
  {
    keys: [
      ['orgId', 1],
      ['date', 1],
    ],
  },
];

/** What the usage projection keeps of each job. */
export interface UsageJob {
  id: string;
  orgId: string;
  date: string;
  status: JobStatus;
  budgetMs: number;
  computeMs: number;
  position: number;
}

/** Outcomes whose settlement bills compute (pricing.settlementCharge). */
const COMPUTE_BILLED: ReadonlySet<JobOutcome> = new Set(['succeeded', 'canceled', 'time_limit_exceeded']);

export const usageDayId = (orgId: string, date: string): string => `${orgId}:${date}`;

/** An empty day. */
export function emptyUsageDay(orgId: string, date: string): UsageDay {
  return {
    id: usageDayId(orgId, date),
    orgId,
    date,
    jobs: 0,
    byStatus: { queued: 0, running: 0, succeeded: 0, failed: 0, canceled: 0 },
    creditsMicros: 0,
    byComponent: { base: 0, vehicles: 0, compute: 0, large_load: 0 },
    computeMsBilled: 0,
    itemsPlaced: 0,
    vehiclesUsed: 0,
    position: 0,
  };
}

type Event = JobEvent | LedgerEvent;

export const usageProjection: Projection = {
  name: 'usage',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    const jobs = store.collection<UsageJob>(USAGE_JOBS);
    const days = store.collection<UsageDay>(USAGE_DAYS);
    const event = { type: recorded.type, data: recorded.data } as Event;
    if (!('jobId' in event.data)) return;
    // The ledger's own JobStarted repeats the job's; the job stream is the one that counts.
    if (event.type === 'JobStarted' && !isJobStream(recorded.stream)) return;

    let job: UsageJob | undefined;
    if (event.type === 'JobQueued') {
      if (await jobs.get(event.data.jobId)) return;
      const d = event.data;
      job = {
        id: d.jobId,
        orgId: d.orgId,
        date: d.createdAt.slice(0, 10),
        status: 'queued',
        budgetMs: d.budgetMs,
        computeMs: 0,
        position: 0,
      };
    } else {
      job = await jobs.get(event.data.jobId);
    }
    if (!job || recorded.position <= job.position) return;
    const day = (await days.get(usageDayId(job.orgId, job.date))) ?? emptyUsageDay(job.orgId, job.date);
    // The day is written before the job, so after a stop between the two writes the replayed
    // event finds the day done and only the job to bring up to date.
    const dayApplied = recorded.position <= day.position;

    const moveTo = (status: JobStatus): void => {
      day.byStatus[job.status] -= 1;
      day.byStatus[status] += 1;
      job.status = status;
    };
    switch (event.type) {
      case 'JobQueued':
        day.jobs += 1;
        day.byStatus.queued += 1;
        break;
      case 'JobStarted':
        moveTo('running');
        break;
      case 'JobSucceeded':
        moveTo('succeeded');
        job.computeMs = event.data.computeMs;
        day.itemsPlaced += event.data.summary.items_placed;
        day.vehiclesUsed += event.data.summary.vehicles_used;
        break;
      case 'JobFailed':
        moveTo(event.data.code === 'canceled' ? 'canceled' : 'failed');
        job.computeMs = event.data.computeMs;
        break;
      case 'JobSettled': {
        const b = event.data.breakdown;
        day.creditsMicros += event.data.charged;
        day.byComponent = {
          base: day.byComponent.base + b.base,
          vehicles: day.byComponent.vehicles + b.vehicles,
          compute: day.byComponent.compute + b.compute,
          large_load: day.byComponent.large_load + b.large_load,
        };
        if (COMPUTE_BILLED.has(event.data.outcome)) day.computeMsBilled += Math.min(job.computeMs, job.budgetMs);
        break;
      }
      default:
        return;
    }
    job.position = recorded.position;
    if (!dayApplied) {
      day.position = recorded.position;
      await days.put(day);
    }
    await jobs.put(job);
  },
};
