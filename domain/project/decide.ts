/**
 * Project commands (DESIGN §3, `project-<id>`), `{ type, data, metadata: { now, actor } }`.
 * Pure: ids, actors and times come in with the command. Customer commands on a missing, deleted or other organization's project throw
 * `project_not_found`; a second pack while one is in progress throws `project_busy`.
 * Steps of the process manager (assign, end) are no-ops when they do not apply, and carry
 * deterministic event ids, so a repeated step writes once.
 */
import { DomainError, type Command, type Decider } from '../decider/decider.js';
import type { PlanSummary } from '../job/job.js';
import { evolveProject, initialProject, type ProjectContent, type ProjectEvent, type ProjectState } from './project.js';

/** A pack claimed but never given a job (the service stopped in between) stops blocking after this long (ms). */
export const PACK_CLAIM_TIMEOUT_MS = 60_000;

export type ProjectCommand =
  | Command<'CreateProject', { projectId: string; orgId: string; content: ProjectContent }>
  | Command<'UpdateProject', { projectId: string; orgId: string; changes: Partial<ProjectContent> }>
  | Command<'DeleteProject', { projectId: string; orgId: string }>
  /** `version`: the content version the pack request was built from. */
  | Command<'StartPack', { projectId: string; orgId: string; packId: string; version: number; keyHash: string | null }>
  /** The job of the pack in progress was queued (`packId` omitted: the pack waiting for a job). */
  | Command<'AssignPackJob', { projectId: string; packId?: string; jobId: string }>
  /** The pack's job was not admitted (402, 429, 422 reused key): the project is free again. */
  | Command<'ReleasePack', { projectId: string; packId: string }>
  | Command<
      'EndPack',
      {
        projectId: string;
        jobId: string;
        outcome: 'succeeded' | 'failed' | 'canceled';
        /** Of a succeeded job: its summary and when its bodies and PDF link expire. */
        summary: PlanSummary | null;
        expiresAt: string;
      }
    >;

function ownProject(state: ProjectState, projectId: string, orgId: string): ProjectContent {
  if (state.status !== 'active' || state.orgId !== orgId || !state.content) {
    throw new DomainError('project_not_found', `no project ${projectId} in this organization`);
  }
  return state.content;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The actor of customer commands is stored as the change's author (`by`). */
export function decideProject(command: ProjectCommand, state: ProjectState): ProjectEvent[] {
  const { projectId } = command.data;
  const { now, actor: by } = command.metadata;
  switch (command.type) {
    case 'CreateProject':
      if (state.status !== 'none') return [];
      return [
        {
          type: 'ProjectCreated',
          data: { projectId, orgId: command.data.orgId, content: command.data.content, by, at: now },
        },
      ];
    case 'UpdateProject': {
      const content = ownProject(state, projectId, command.data.orgId);
      // Only real changes count: an unchanged PATCH must not make a running pack's plan unsaved.
      const changes = Object.fromEntries(
        Object.entries(command.data.changes).filter(
          ([k, v]) => v !== undefined && !same(v, content[k as keyof ProjectContent]),
        ),
      ) as Partial<ProjectContent>;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'ProjectUpdated', data: { projectId, changes, by, at: now } }];
    }
    case 'DeleteProject':
      ownProject(state, projectId, command.data.orgId);
      return [{ type: 'ProjectDeleted', data: { projectId, by, at: now } }];
    case 'StartPack': {
      const { orgId, packId, version, keyHash } = command.data;
      ownProject(state, projectId, orgId);
      const events: ProjectEvent[] = [];
      const pack = state.pack;
      if (pack) {
        const stale = pack.jobId === null && Date.parse(now) - Date.parse(pack.startedAt) > PACK_CLAIM_TIMEOUT_MS;
        if (!stale) {
          const running = pack.jobId ? ` by job ${pack.jobId}` : '';
          throw new DomainError(
            'project_busy',
            `project ${projectId} is being packed now${running}; retry when that job has ended`,
          );
        }
        events.push({
          type: 'ProjectPackEnded',
          data: { projectId, packId: pack.packId, jobId: null, outcome: 'abandoned', at: now },
        });
      }
      events.push({
        type: 'ProjectPackStarted',
        id: `${packId}:started`,
        data: { projectId, packId, version, keyHash, by, at: now },
      });
      return events;
    }
    case 'AssignPackJob': {
      const { packId, jobId } = command.data;
      const pack = state.pack;
      if (!pack || pack.jobId !== null || (packId !== undefined && packId !== pack.packId)) return [];
      return [
        {
          type: 'ProjectPackJobAssigned',
          id: `${jobId}:project-assigned`,
          data: { projectId, packId: pack.packId, jobId, at: now },
        },
      ];
    }
    case 'ReleasePack': {
      const pack = state.pack;
      if (!pack || pack.packId !== command.data.packId || pack.jobId !== null) return [];
      return [
        {
          type: 'ProjectPackEnded',
          id: `${pack.packId}:released`,
          data: { projectId, packId: pack.packId, jobId: null, outcome: 'not_admitted', at: now },
        },
      ];
    }
    case 'EndPack': {
      const { jobId, outcome, summary, expiresAt } = command.data;
      const pack = state.pack;
      if (state.status !== 'active' || !pack || pack.jobId !== jobId) return [];
      const base = { projectId, packId: pack.packId, jobId, at: now };
      if (outcome === 'succeeded' && summary && pack.version === state.version) {
        return [{ type: 'ProjectPlanSaved', id: `${jobId}:plan-saved`, data: { ...base, summary, expiresAt } }];
      }
      return [
        {
          type: 'ProjectPackEnded',
          id: `${jobId}:pack-ended`,
          data: { ...base, outcome: outcome === 'succeeded' ? 'not_saved' : outcome },
        },
      ];
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
