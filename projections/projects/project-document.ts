/**
 * Read model of projects (collection `projects`): what GET /v1/projects and
 * GET /v1/projects/{id} show. The plan itself is not copied here: it is read from the body
 * stream of `planJobId` on demand (DESIGN §2: big bodies are never all held in memory).
 */
import type { PlanSummary } from '../../domain/job/job.js';
import type { ProjectActor, ProjectContent } from '../../domain/project/project.js';
import type { FieldPath, IndexSpec } from '../../domain/ports/read-store.js';

export const PROJECTS = 'projects';

export interface ProjectDocument extends ProjectContent {
  id: string;
  orgId: string;
  /** Content version (1 at creation, +1 per update). */
  version: number;
  createdAt: string;
  updatedAt: string;
  createdBy: ProjectActor;
  updatedBy: ProjectActor;
  /** Member id of `createdBy` (equality filter of `created_by`). */
  createdById: string;
  /** The saved plan: its job, summary and when its body and PDF link expire; null before the first save. */
  plan: { jobId: string; summary: PlanSummary; expiresAt: string; savedAt: string } | null;
  /** Job of the pack in progress, or null (also null in the instant between claim and admission). */
  packingJobId: string | null;
  /** Position of the last event applied (idempotence guard). */
  position: number;
}

/**
 * Indexes of the `projects` collection and the queries they serve:
 * - `orgId, createdAt↓, id↓`: GET /v1/projects (newest first, keyset cursor, `q` on the org's
 *   range) and the `max_projects` count.
 * - `orgId, createdById, createdAt↓, id↓`: `created_by`.
 */
export const PROJECT_INDEXES: readonly IndexSpec<FieldPath<ProjectDocument>>[] = [
  {
    keys: [
      ['orgId', 1],
      ['createdAt', -1],
      ['id', -1],
    ],
  },
  {
    keys: [
      ['orgId', 1],
      ['createdById', 1],
      ['createdAt', -1],
      ['id', -1],
    ],
  },
  // The repair tick's projects with a pack in progress.
  { keys: [['packingJobId', 1]] },
];
