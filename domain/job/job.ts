/**
 * The job aggregate (stream `job-<id>`): the spec's state machine
 * queued → running → succeeded | failed | canceled; final statuses never change.
 */
import type { DomainEvent } from '../decider/decider.js';
import type { Warning } from '../pack/diagnostics.js';
import type { JobOutcome } from '../ledger/pricing.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

/** Spec JobError codes of failed and canceled jobs. */
export type JobErrorCode = 'canceled' | 'time_limit_exceeded' | 'engine_failed' | 'queue_timeout' | 'server_restarted';

/**
 * Why a job's search ended (our extension: JobSummary and Result `stop_reason`):
 * `bound_reached` every unit placed in the fewest vehicles the volume and payload allow, nothing
 * can be better; `stagnated` an automatic budget (`time_limit` 0) ended once no better plan came
 * for max(1 s, 30 % of the budget, 30 % of the time so far), 18 % and 18 % while units are left
 * over (solver/search/stagnation.ts);
 * `time_limit` the budget's time ended it; `work_limit` the deterministic mode's `work_limit` did;
 * `canceled` the job was canceled while computing.
 */
export type StopReason = 'bound_reached' | 'stagnated' | 'time_limit' | 'work_limit' | 'canceled';

/** Spec JobSummary figures known when a job succeeds (queue_ms and compute_ms are added by the projection). */
export interface PlanSummary {
  items_placed: number;
  items_unplaced: number;
  vehicles_used: number;
  total_weight: number;
  volume_utilization: number;
}

export interface JobQueuedData {
  jobId: string;
  orgId: string;
  keyId: string;
  memberId: string;
  source: 'api' | 'playground';
  /** Set on jobs created by POST /v1/projects/{id}/pack. */
  projectId?: string;
  reference: string | null;
  createdAt: string;
  expiresAt: string;
  /** Item units requested. */
  items: number;
  /** Vehicle limit and compute budget (ms) the job runs with. */
  maxVehicles: number;
  budgetMs: number;
  reservedMicros: number;
  rateCardVersion: number;
  warnings: Warning[];
}

export type JobEvent =
  | DomainEvent<'JobQueued', JobQueuedData>
  | DomainEvent<'JobStarted', { jobId: string; startedAt: string }>
  | DomainEvent<'JobProgressed', { jobId: string; stage: string; vehiclesDone: number; placedItems: number }>
  | DomainEvent<
      'JobSucceeded',
      {
        jobId: string;
        finishedAt: string;
        computeMs: number;
        summary: PlanSummary;
        warnings: Warning[];
        /** Absent in events written before the search said why it ended. */
        stopReason?: StopReason;
      }
    >
  | DomainEvent<
      'JobFailed',
      { jobId: string; finishedAt: string; computeMs: number; code: JobErrorCode; message: string }
    >
  /** A remark added after the job ended (e.g. `project_not_saved`); the status does not change. */
  | DomainEvent<'JobWarned', { jobId: string; warning: Warning }>
  /** The request and result bodies were deleted at retention (spec Job.expires_at); metadata and charges stay. */
  | DomainEvent<'JobBodyDeleted', { jobId: string; deletedAt: string }>
  /**
   * The admission of this job stopped before it was queued and was given up (its Idempotency-Key
   * claim was taken over, domain/job/stale-claim.ts): the job can never be queued. The job never
   * existed for the customer; no read model shows it.
   */
  | DomainEvent<'JobVoided', { jobId: string; voidedAt: string }>
  /**
   * Every signed link of the job issued so far (viewer and PDF) stops opening: links are signed
   * with the job's link `generation`, which this event raises (api/http/plan-links/signed-link.ts); links issued
   * afterwards carry the new generation and open. Asked by the owner or an operator.
   */
  | DomainEvent<'JobLinksRevoked', { jobId: string; revokedAt: string; generation: number; revokedBy: string }>;

/** How a job ended, as settlement needs it (vehicles loaded: 0 unless it succeeded). */
export interface JobEnd {
  outcome: JobOutcome;
  computeMs: number;
  vehicles: number;
}

export interface JobState {
  status: JobStatus | 'none';
  queued: JobQueuedData | null;
  /** The bodies were deleted at retention. */
  bodyDeleted: boolean;
  /** Set once the job ended (JobSucceeded or JobFailed). */
  end: JobEnd | null;
  /** A solver reported `computing` (JobProgressed stage `computing`): the job's wait is over. */
  computing: boolean;
  /** JobVoided: never queued, and never will be (status stays `none`). */
  voided?: boolean;
  /** Signed-link generation: 0 (absent) until JobLinksRevoked raises it. */
  linkGeneration?: number;
}

export const initialJob = (): JobState => ({
  status: 'none',
  queued: null,
  bodyDeleted: false,
  end: null,
  computing: false,
});

export function evolveJob(state: JobState, event: JobEvent): JobState {
  switch (event.type) {
    case 'JobQueued':
      return { status: 'queued', queued: event.data, bodyDeleted: false, end: null, computing: false };
    case 'JobStarted':
      return { ...state, status: 'running' };
    case 'JobProgressed':
      return event.data.stage === 'computing' && !state.computing ? { ...state, computing: true } : state;
    case 'JobSucceeded':
      return {
        ...state,
        status: 'succeeded',
        end: { outcome: 'succeeded', computeMs: event.data.computeMs, vehicles: event.data.summary.vehicles_used },
      };
    case 'JobFailed':
      return {
        ...state,
        status: event.data.code === 'canceled' ? 'canceled' : 'failed',
        end: { outcome: event.data.code, computeMs: event.data.computeMs, vehicles: 0 },
      };
    case 'JobWarned':
      return state;
    case 'JobBodyDeleted':
      return { ...state, bodyDeleted: true };
    case 'JobVoided':
      return state.status === 'none' ? { ...state, voided: true } : state;
    case 'JobLinksRevoked':
      return { ...state, linkGeneration: event.data.generation };
  }
}

export const isFinal = (status: JobStatus | 'none'): boolean =>
  status === 'succeeded' || status === 'failed' || status === 'canceled';
