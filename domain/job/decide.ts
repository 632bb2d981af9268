/**
 * Job commands: the spec's States and transitions table. Events carry deterministic ids
 * (`<jobId>:queued`, `:started`, `:ended`) so a step repeated after a crash is written once.
 */
import { DomainError, type Decider } from '../decider/decider.js';
import type { Warning } from '../pack/diagnostics.js';
import { evolveJob, initialJob, isFinal, type JobErrorCode, type JobEvent, type JobQueuedData, type JobState, type PlanSummary } from './job.js';

export type JobCommand =
  | { type: 'QueueJob'; data: JobQueuedData }
  | { type: 'StartJob'; jobId: string; now: string }
  | { type: 'ReportProgress'; jobId: string; stage: string; vehiclesDone: number; placedItems: number }
  | { type: 'SucceedJob'; jobId: string; now: string; computeMs: number; summary: PlanSummary; warnings: Warning[] }
  | { type: 'FailJob'; jobId: string; now: string; computeMs: number; code: JobErrorCode; message: string }
  | { type: 'CancelJob'; jobId: string; now: string; computeMs: number }
  /** Adds a warning to a job in any state, final ones included (one per code: the event id is `<jobId>:warned:<code>`). */
  | { type: 'WarnJob'; jobId: string; warning: Warning }
  /** Records that the job's bodies were deleted at retention: only for final jobs past expires_at, once. */
  | { type: 'RecordBodyDeleted'; jobId: string; now: string };

/**
 * Refusals are no-ops, not errors: the process manager repeats steps and must converge. The one
 * exception is CancelJob, a customer's request: on a final job it throws 409 job_already_finished.
 */
export function decideJob(command: JobCommand, state: JobState): JobEvent[] {
  switch (command.type) {
    case 'QueueJob':
      if (state.status !== 'none') return [];
      return [{ type: 'JobQueued', id: `${command.data.jobId}:queued`, data: command.data }];
    case 'StartJob':
      if (state.status !== 'queued') return [];
      return [{ type: 'JobStarted', id: `${command.jobId}:started`, data: { jobId: command.jobId, startedAt: command.now } }];
    case 'ReportProgress':
      if (state.status !== 'running') return [];
      return [
        {
          type: 'JobProgressed',
          data: { jobId: command.jobId, stage: command.stage, vehiclesDone: command.vehiclesDone, placedItems: command.placedItems },
        },
      ];
    case 'SucceedJob':
      if (state.status !== 'running') return [];
      return [
        {
          type: 'JobSucceeded',
          id: `${command.jobId}:ended`,
          data: { jobId: command.jobId, finishedAt: command.now, computeMs: command.computeMs, summary: command.summary, warnings: command.warnings },
        },
      ];
    case 'CancelJob':
      if (state.status === 'none') throw new DomainError('job_not_found', `no job ${command.jobId}`);
      if (isFinal(state.status)) throw new DomainError('job_already_finished', `job ${command.jobId} has ended (${state.status}); it cannot be canceled`);
      return [
        {
          type: 'JobFailed',
          id: `${command.jobId}:ended`,
          data: { jobId: command.jobId, finishedAt: command.now, computeMs: command.computeMs, code: 'canceled', message: 'canceled by DELETE /v1/jobs/{id}' },
        },
      ];
    case 'WarnJob':
      if (state.status === 'none') return [];
      // A repeat is dropped by the store: the id is deterministic.
      return [{ type: 'JobWarned', id: `${command.jobId}:warned:${command.warning.code}`, data: { jobId: command.jobId, warning: command.warning } }];
    case 'RecordBodyDeleted':
      if (!isFinal(state.status) || state.bodyDeleted || !state.queued || command.now < state.queued.expiresAt) return [];
      return [{ type: 'JobBodyDeleted', id: `${command.jobId}:body-deleted`, data: { jobId: command.jobId, deletedAt: command.now } }];
    case 'FailJob':
      if (state.status === 'none' || isFinal(state.status)) return [];
      return [
        {
          type: 'JobFailed',
          id: `${command.jobId}:ended`,
          data: { jobId: command.jobId, finishedAt: command.now, computeMs: command.computeMs, code: command.code, message: command.message },
        },
      ];
  }
}

export const jobDecider: Decider<JobState, JobCommand, JobEvent> = {
  initialState: initialJob,
  evolve: evolveJob,
  decide: decideJob,
};
