/**
 * Job commands: the spec's States and transitions table. Events carry deterministic ids
 * (`<jobId>:queued`, `:started`, `:ended`) so a step repeated after a crash is written once.
 */
import { DomainError, type Command, type Decider } from '../decider/decider.js';
import type { Warning } from '../pack/diagnostics.js';
import {
  evolveJob,
  initialJob,
  isFinal,
  type JobErrorCode,
  type JobEvent,
  type JobQueuedData,
  type JobState,
  type PlanSummary,
  type StopReason,
} from './job.js';

export type JobCommand =
  | Command<'QueueJob', JobQueuedData>
  | Command<'StartJob', { jobId: string }>
  | Command<'ReportProgress', { jobId: string; stage: string; vehiclesDone: number; placedItems: number }>
  | Command<
      'SucceedJob',
      { jobId: string; computeMs: number; summary: PlanSummary; warnings: Warning[]; stopReason: StopReason }
    >
  | Command<'FailJob', { jobId: string; computeMs: number; code: JobErrorCode; message: string }>
  | Command<'CancelJob', { jobId: string; computeMs: number }>
  /** Adds a warning to a job in any state, final ones included (one per code: the event id is `<jobId>:warned:<code>`). */
  | Command<'WarnJob', { jobId: string; warning: Warning }>
  /** Records that the job's bodies were deleted at retention: only for final jobs past expires_at, once. */
  | Command<'RecordBodyDeleted', { jobId: string }>
  /**
   * Fences off a job that was admitted but not queued, so that a late QueueJob of its admission
   * writes nothing: only while the job is not queued (then JobVoided), else a no-op. The caller
   * reads the returned state: `voided`, or queued by its admission after all.
   */
  | Command<'VoidJob', { jobId: string }>
  /**
   * Revokes every signed link of the job issued so far (the owner in the web app, an operator
   * with `admin revoke-links`): JobLinksRevoked with the next link generation, in any state.
   * Throws job_not_found for a job that was never queued.
   */
  | Command<'RevokeLinks', { jobId: string }>;

/**
 * FailJob with `queue_timeout` is a no-op once a solver reported `computing` (the wait the
 * timeout bounds is over; spec States, "waited too long for a slot").
 * Refusals are no-ops, not errors: the process manager repeats steps and must converge. The one
 * exception is CancelJob, a customer's request: on a final job it throws job_already_finished.
 */
export function decideJob(command: JobCommand, state: JobState): JobEvent[] {
  const { now } = command.metadata;
  switch (command.type) {
    case 'QueueJob':
      if (state.status !== 'none' || state.voided) return [];
      return [{ type: 'JobQueued', id: `${command.data.jobId}:queued`, data: command.data }];
    case 'StartJob': {
      const { jobId } = command.data;
      if (state.status !== 'queued') return [];
      return [{ type: 'JobStarted', id: `${jobId}:started`, data: { jobId, startedAt: now } }];
    }
    case 'ReportProgress':
      if (state.status !== 'running') return [];
      return [{ type: 'JobProgressed', data: { ...command.data } }];
    case 'SucceedJob': {
      const { jobId, computeMs, summary, warnings, stopReason } = command.data;
      if (state.status !== 'running') return [];
      return [
        {
          type: 'JobSucceeded',
          id: `${jobId}:ended`,
          data: { jobId, finishedAt: now, computeMs, summary, warnings, stopReason },
        },
      ];
    }
    case 'CancelJob': {
      const { jobId, computeMs } = command.data;
      if (state.status === 'none') throw new DomainError('job_not_found', `no job ${jobId}`);
      if (isFinal(state.status))
        throw new DomainError(
          'job_already_finished',
          `job ${jobId} has ended (${state.status}); it cannot be canceled`,
        );
      return [
        {
          type: 'JobFailed',
          id: `${jobId}:ended`,
          data: { jobId, finishedAt: now, computeMs, code: 'canceled', message: 'canceled by DELETE /v1/jobs/{id}' },
        },
      ];
    }
    case 'WarnJob': {
      const { jobId, warning } = command.data;
      if (state.status === 'none') return [];
      // A repeat is dropped by the store: the id is deterministic.
      return [{ type: 'JobWarned', id: `${jobId}:warned:${warning.code}`, data: { jobId, warning } }];
    }
    case 'RecordBodyDeleted': {
      const { jobId } = command.data;
      if (!isFinal(state.status) || state.bodyDeleted || !state.queued || now < state.queued.expiresAt) return [];
      return [{ type: 'JobBodyDeleted', id: `${jobId}:body-deleted`, data: { jobId, deletedAt: now } }];
    }
    case 'VoidJob': {
      const { jobId } = command.data;
      if (state.status !== 'none' || state.voided) return [];
      return [{ type: 'JobVoided', id: `${jobId}:voided`, data: { jobId, voidedAt: now } }];
    }
    case 'RevokeLinks': {
      const { jobId } = command.data;
      if (state.status === 'none') throw new DomainError('job_not_found', `no job ${jobId}`);
      const generation = (state.linkGeneration ?? 0) + 1;
      return [
        {
          type: 'JobLinksRevoked',
          id: `${jobId}:links-revoked:${generation}`,
          data: { jobId, revokedAt: now, generation, revokedBy: command.metadata.actor.id },
        },
      ];
    }
    case 'FailJob': {
      const { jobId, computeMs, code, message } = command.data;
      if (state.status === 'none' || isFinal(state.status)) return [];
      // A queue timeout ends only a wait: once a solver computes, the job's budget bounds it.
      if (code === 'queue_timeout' && state.computing) return [];
      return [{ type: 'JobFailed', id: `${jobId}:ended`, data: { jobId, finishedAt: now, computeMs, code, message } }];
    }
  }
}

export const jobDecider: Decider<JobState, JobCommand, JobEvent> = {
  initialState: initialJob,
  evolve: evolveJob,
  decide: decideJob,
};
