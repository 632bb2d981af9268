/**
 * The project process manager (DESIGN §3): follows the jobs created by POST
 * /v1/projects/{id}/pack. When such a job is queued it becomes the job of the project's pack in
 * progress; when it ends, a success whose project content is unchanged since the pack started is
 * saved as the project's plan (ProjectPlanSaved: a reference to the job, whose body stream keeps
 * the plan), any other success gets the job warning `project_not_saved` (the plan stays on the
 * job), and failures and cancellations just free the project. Every step has a deterministic
 * event id (or is a no-op when it no longer applies), so replayed events write once.
 */
import { serviceActor } from '../decider/actor.js';
import type { CommandMetadata } from '../decider/decider.js';
import { handleCommand, loadState } from '../decider/handle.js';
import { jobDecider } from '../job/decide.js';
import type { JobEvent, JobState } from '../job/job.js';
import { jobStream } from '../job/streams.js';
import type { EventStore, RecordedEvent } from '../ports/event-store.js';
import { projectDecider } from './decide.js';
import { packOfJob } from './project.js';
import { projectStream } from './streams.js';
import { isJobStream } from '../job/streams.js';

export interface ProjectProcessDeps {
  store: EventStore;
  clock: () => string;
}

/** The warning a succeeded project job gets when its plan was not saved into the project. */
export const PROJECT_NOT_SAVED = 'project_not_saved';

export class ProjectProcess {
  constructor(private readonly deps: ProjectProcessDeps) {}

  /** Metadata of a step this manager takes now (the scheduler runs it). */
  private metadata(): CommandMetadata {
    return { now: this.deps.clock(), actor: serviceActor('scheduler') };
  }

  /** Reacts to one stored event (called in log order). */
  async react(event: RecordedEvent): Promise<void> {
    if (!isJobStream(event.stream)) return;
    const recorded = { type: event.type, data: event.data } as JobEvent;
    if (recorded.type === 'JobQueued') {
      const { projectId, jobId } = recorded.data;
      if (projectId === undefined) return;
      await handleCommand(this.deps.store, projectStream(projectId), projectDecider, {
        type: 'AssignPackJob',
        data: { projectId, jobId },
        metadata: this.metadata(),
      });
    } else if (recorded.type === 'JobSucceeded' || recorded.type === 'JobFailed') {
      await this.packEnded(recorded);
    }
  }

  /**
   * Runs this manager's reactions to a job's events again (each step is idempotent): repairs a
   * project left busy when a reaction failed or the process stopped between two appends.
   */
  async reconcileJob(jobId: string): Promise<void> {
    for (const event of await this.deps.store.readStream(jobStream(jobId))) await this.react(event);
  }

  private async packEnded(end: Extract<JobEvent, { type: 'JobSucceeded' | 'JobFailed' }>): Promise<void> {
    const { store } = this.deps;
    const { jobId } = end.data;
    const { state: job } = await loadState<JobState, JobEvent>(store, jobStream(jobId), jobDecider);
    const projectId = job.queued?.projectId;
    if (!job.queued || projectId === undefined) return;
    const succeeded = end.type === 'JobSucceeded';
    const { state } = await handleCommand(store, projectStream(projectId), projectDecider, {
      type: 'EndPack',
      data: {
        projectId,
        jobId,
        outcome: succeeded ? 'succeeded' : end.data.code === 'canceled' ? 'canceled' : 'failed',
        summary: succeeded ? end.data.summary : null,
        expiresAt: job.queued.expiresAt,
      },
      metadata: this.metadata(),
    });
    if (!succeeded || packOfJob(state, jobId)?.outcome === 'saved') return;
    const why = state.status !== 'active' ? 'was deleted' : 'changed';
    await handleCommand(store, jobStream(jobId), jobDecider, {
      type: 'WarnJob',
      data: {
        jobId,
        warning: {
          code: PROJECT_NOT_SAVED,
          message: `project ${projectId} ${why} while this job ran, so its plan was not saved into the project; the plan stays on this job`,
        },
      },
      metadata: this.metadata(),
    });
  }
}
