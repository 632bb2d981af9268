/**
 * The project aggregate (stream `project-<id>`): a saved load-planning workspace of an
 * organization — vehicle slots (`pv_…`: `vehicle_id` + `quantity` + overrides of the Vehicle
 * fields), items (`item_…`, the pack Item shape) and optional groups and options — plus its
 * packs (POST /v1/projects/{id}/pack) and the reference to its last saved plan.
 *
 * A pack goes: ProjectPackStarted (the project is busy from here: `409 project_busy`) →
 * ProjectPackJobAssigned (the job was admitted) → ProjectPlanSaved (the job succeeded and the
 * content was not changed meanwhile) or ProjectPackEnded (not admitted, failed, canceled,
 * succeeded but not saved, or abandoned).
 */
import type { DomainEvent } from '../decider/decider.js';
import type { PlanSummary } from '../job/job.js';
import type { GroupInput, ItemInput, OptionsInput, VehicleInput } from '../pack/request.js';

/** Who made a change: the member the API key acts for (spec: `created_by` / `updated_by`). */
export type { Actor as ProjectActor } from '../decider/actor.js';
import type { Actor as ProjectActor } from '../decider/actor.js';

/** A vehicle slot: `id` `pv_…`, a saved vehicle (`vehicle_id`), `quantity`, and Vehicle fields overriding the saved ones. */
export interface ProjectVehicle extends VehicleInput {
  id: string;
  vehicle_id: string;
}

/** An item definition in the pack Item shape, with id `item_…` (may name a `template_id`). */
export interface ProjectItem extends ItemInput {
  id: string;
}

/** What a client edits: everything a pack request is built from. */
export interface ProjectContent {
  name: string;
  vehicles: ProjectVehicle[];
  items: ProjectItem[];
  groups: GroupInput[];
  options: OptionsInput;
}

/** How a pack ended for the project. `saved`: its plan is the project's plan now. */
export type PackOutcome = 'saved' | 'not_saved' | 'failed' | 'canceled' | 'not_admitted' | 'abandoned';

/** One pack of the project. `version` is the content version it packed; `keyHash` the SHA-256 of its Idempotency-Key. */
export interface ProjectPack {
  packId: string;
  jobId: string | null;
  version: number;
  keyHash: string | null;
  startedAt: string;
  outcome: PackOutcome | null;
}

export type ProjectEvent =
  | DomainEvent<
      'ProjectCreated',
      { projectId: string; orgId: string; content: ProjectContent; by: ProjectActor; at: string }
    >
  | DomainEvent<'ProjectUpdated', { projectId: string; changes: Partial<ProjectContent>; by: ProjectActor; at: string }>
  | DomainEvent<'ProjectDeleted', { projectId: string; by: ProjectActor; at: string }>
  | DomainEvent<
      'ProjectPackStarted',
      { projectId: string; packId: string; version: number; keyHash: string | null; by: ProjectActor; at: string }
    >
  | DomainEvent<'ProjectPackJobAssigned', { projectId: string; packId: string; jobId: string; at: string }>
  | DomainEvent<
      'ProjectPlanSaved',
      { projectId: string; packId: string; jobId: string; summary: PlanSummary; expiresAt: string; at: string }
    >
  | DomainEvent<
      'ProjectPackEnded',
      { projectId: string; packId: string; jobId: string | null; outcome: Exclude<PackOutcome, 'saved'>; at: string }
    >;

/** Ended packs remembered per project (idempotent replays, `project_not_saved` decisions). */
export const PACK_HISTORY = 50;

export interface ProjectState {
  status: 'none' | 'active' | 'deleted';
  orgId: string | null;
  content: ProjectContent | null;
  /** Content version: 1 at creation, +1 per ProjectUpdated. */
  version: number;
  /** The pack in progress (the project is busy), or null. */
  pack: ProjectPack | null;
  /** Job whose plan is the project's plan, or null. */
  planJobId: string | null;
  /** The last PACK_HISTORY ended packs, oldest first. */
  history: ProjectPack[];
}

export const initialProject = (): ProjectState => ({
  status: 'none',
  orgId: null,
  content: null,
  version: 0,
  pack: null,
  planJobId: null,
  history: [],
});

const ended = (state: ProjectState, outcome: PackOutcome): ProjectState => {
  if (!state.pack) return state;
  return { ...state, pack: null, history: [...state.history, { ...state.pack, outcome }].slice(-PACK_HISTORY) };
};

export function evolveProject(state: ProjectState, event: ProjectEvent): ProjectState {
  switch (event.type) {
    case 'ProjectCreated':
      return {
        ...initialProject(),
        status: 'active',
        orgId: event.data.orgId,
        content: event.data.content,
        version: 1,
      };
    case 'ProjectUpdated':
      return { ...state, content: { ...state.content!, ...event.data.changes }, version: state.version + 1 };
    case 'ProjectDeleted':
      return { ...state, status: 'deleted' };
    case 'ProjectPackStarted': {
      const d = event.data;
      return {
        ...state,
        pack: { packId: d.packId, jobId: null, version: d.version, keyHash: d.keyHash, startedAt: d.at, outcome: null },
      };
    }
    case 'ProjectPackJobAssigned':
      return state.pack ? { ...state, pack: { ...state.pack, jobId: event.data.jobId } } : state;
    case 'ProjectPlanSaved':
      return { ...ended(state, 'saved'), planJobId: event.data.jobId };
    case 'ProjectPackEnded':
      return ended(state, event.data.outcome);
  }
}

/** The pack (in progress or remembered) that ran `jobId`, or undefined. */
export function packOfJob(state: ProjectState, jobId: string): ProjectPack | undefined {
  if (state.pack?.jobId === jobId) return state.pack;
  return state.history.find((p) => p.jobId === jobId);
}
