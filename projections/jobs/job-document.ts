/**
 * Read model of jobs (collection `jobs`): everything GET /v1/jobs/{id} shows, amounts in
 * micro-credits. Fed by `job-<id>` events and the ledger's JobSettled.
 */
import type { JobErrorCode, JobStatus } from '../../domain/job/job.js';
import type { Breakdown } from '../../domain/ledger/pricing.js';
import type { Warning } from '../../domain/pack/diagnostics.js';

export const JOBS = 'jobs';

export interface JobDocument {
  id: string;
  orgId: string;
  /** Member whose API key created the job (GET /v1/jobs `created_by`). */
  memberId: string;
  status: JobStatus;
  reference: string | null;
  source: 'api' | 'playground';
  /** Set on jobs created by POST /v1/projects/{id}/pack. */
  projectId?: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  expiresAt: string;
  /** When retention deleted the request and result bodies (RFC 3339); absent or null before. */
  bodyDeletedAt?: string | null;
  items: number;
  maxVehicles: number;
  budgetMs: number;
  rateCardVersion: number;
  reservedMicros: number;
  /** Final charge; null until the ledger settled the job. */
  chargedMicros: number | null;
  breakdown: Breakdown | null;
  warnings: Warning[];
  error: { code: JobErrorCode; message: string } | null;
  progress: { stage: string; vehiclesDone: number; placedItems: number };
  /** When a solver started computing (RFC 3339), null before; a cancel bills compute from here. */
  computeStartedAt?: string | null;
  itemsPlaced: number;
  itemsUnplaced: number;
  vehiclesUsed: number;
  totalWeight: number;
  volumeUtilization: number;
  computeMs: number;
  /** Position of the last event applied (idempotence guard). */
  position: number;
}
