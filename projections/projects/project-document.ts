/**
 * Read model of projects (collection `projects`): what GET /v1/projects and
 * GET /v1/projects/{id} show. The plan itself is not copied here: it is read from the body
 * stream of `planJobId` on demand (DESIGN §2: big bodies are never all held in memory).
 */
import type { PlanSummary } from '../../domain/job/job.js';
import type { ProjectActor, ProjectContent } from '../../domain/project/project.js';

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
