/**
 * Project commands (DESIGN §3, `project-<id>`). Pure: ids, actors and times come in with the
 * command. Customer commands on a missing, deleted or other organization's project throw
 * `404 project_not_found`; a second pack while one is in progress throws `409 project_busy`.
 * Steps of the process manager (assign, end) are no-ops when they do not apply, and carry
 * deterministic event ids, so a repeated step writes once.
 */
import { DomainError, type Decider } from '../decider/decider.js';
import type { PlanSummary } from '../job/job.js';
import {
  evolveProject,
  initialProject,
  type ProjectActor,
  type ProjectContent,
  type ProjectEvent,
  type ProjectState,
} from './project.js';

/** A pack claimed but never given a job (the service stopped in between) stops blocking after this long (ms). */
export const PACK_CLAIM_TIMEOUT_MS = 60_000;

export type ProjectCommand =
  | { type: 'CreateProject'; projectId: string; orgId: string; content: ProjectContent; by: ProjectActor; now: string }
  | { type: 'UpdateProject'; projectId: string; orgId: string; changes: Partial<ProjectContent>; by: ProjectActor; now: string }
  | { type: 'DeleteProject'; projectId: string; orgId: string; by: ProjectActor; now: string }
  /** `version`: the content version the pack request was built from. */
  | { type: 'StartPack'; projectId: string; orgId: string; packId: string; version: number; keyHash: string | null; by: ProjectActor; now: string }
  /** The job of the pack in progress was queued (`packId` omitted: the pack waiting for a job). */
  | { type: 'AssignPackJob'; projectId: string; packId?: string; jobId: string; now: string }
  /** The pack's job was not admitted (402, 429, 422 reused key): the project is free again. */
  | { type: 'ReleasePack'; projectId: string; packId: string; now: string }
  | {
      type: 'EndPack';
      projectId: string;
      jobId: string;
      outcome: 'succeeded' | 'failed' | 'canceled';
      /** Of a succeeded job: its summary and when its bodies and PDF link expire. */
      summary: PlanSummary | null;
      expiresAt: string;
      now: string;
    };

function ownProject(state: ProjectState, projectId: string, orgId: string): ProjectContent {
  if (state.status !== 'active' || state.orgId !== orgId || !state.content) {
    throw new DomainError('project_not_found', `no project ${projectId} in this organization`);
  }
  return state.content;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function decideProject(command: ProjectCommand, state: ProjectState): ProjectEvent[] {
  const { projectId } = command;
  switch (command.type) {
    case 'CreateProject':
      if (state.status !== 'none') return [];
      return [{ type: 'ProjectCreated', data: { projectId, orgId: command.orgId, content: command.content, by: command.by, at: command.now } }];
    case 'UpdateProject': {
      const content = ownProject(state, projectId, command.orgId);
      // Only real changes count: an unchanged PATCH must not make a running pack's plan unsaved.
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(([k, v]) => v !== undefined && !same(v, content[k as keyof ProjectContent])),
      ) as Partial<ProjectContent>;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'ProjectUpdated', data: { projectId, changes, by: command.by, at: command.now } }];
    }
    case 'DeleteProject':
      ownProject(state, projectId, command.orgId);
      return [{ type: 'ProjectDeleted', data: { projectId, by: command.by, at: command.now } }];
    case 'StartPack': {
      ownProject(state, projectId, command.orgId);
      const events: ProjectEvent[] = [];
      const pack = state.pack;
      if (pack) {
        const stale = pack.jobId === null && Date.parse(command.now) - Date.parse(pack.startedAt) > PACK_CLAIM_TIMEOUT_MS;
        if (!stale) {
          const running = pack.jobId ? ` by job ${pack.jobId}` : '';
          throw new DomainError('project_busy', `project ${projectId} is being packed now${running}; retry when that job has ended`);
        }
        events.push({ type: 'ProjectPackEnded', data: { projectId, packId: pack.packId, jobId: null, outcome: 'abandoned', at: command.now } });
      }
      events.push({
        type: 'ProjectPackStarted',
        id: `${command.packId}:started`,
        data: { projectId, packId: command.packId, version: command.version, keyHash: command.keyHash, by: command.by, at: command.now },
      });
      return events;
    }
    case 'AssignPackJob': {
      const pack = state.pack;
      if (!pack || pack.jobId !== null || (command.packId !== undefined && command.packId !== pack.packId)) return [];
      return [{ type: 'ProjectPackJobAssigned', id: `${command.jobId}:project-assigned`, data: { projectId, packId: pack.packId, jobId: command.jobId, at: command.now } }];
    }
    case 'ReleasePack': {
      const pack = state.pack;
      if (!pack || pack.packId !== command.packId || pack.jobId !== null) return [];
      return [{ type: 'ProjectPackEnded', id: `${pack.packId}:released`, data: { projectId, packId: pack.packId, jobId: null, outcome: 'not_admitted', at: command.now } }];
    }
    case 'EndPack': {
      const pack = state.pack;
      if (state.status !== 'active' || !pack || pack.jobId !== command.jobId) return [];
      const base = { projectId, packId: pack.packId, jobId: command.jobId, at: command.now };
      if (command.outcome === 'succeeded' && command.summary && pack.version === state.version) {
        return [{ type: 'ProjectPlanSaved', id: `${command.jobId}:plan-saved`, data: { ...base, summary: command.summary, expiresAt: command.expiresAt } }];
      }
      const outcome = command.outcome === 'succeeded' ? 'not_saved' : command.outcome;
      return [{ type: 'ProjectPackEnded', id: `${command.jobId}:pack-ended`, data: { ...base, outcome } }];
    }
  }
}

export const projectDecider: Decider<ProjectState, ProjectCommand, ProjectEvent> = {
  initialState: initialProject,
  evolve: evolveProject,
  decide: decideProject,
  // Every pack adds three events; a snapshot keeps a busy project's command reads bounded.
  snapshot: { every: 100, version: 1 },
};
