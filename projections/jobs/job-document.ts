/**
 * Read model of jobs (collection `jobs`): everything GET /v1/jobs/{id} shows, amounts in
 * micro-credits. Fed by `job-<id>` events and the ledger's JobSettled.
 */
import type { JobErrorCode, JobStatus, StopReason } from '../../domain/job/job.js';
import type { Breakdown } from '../../domain/ledger/pricing.js';
import type { Warning } from '../../domain/pack/diagnostics.js';
import type { FieldPath, IndexSpec } from '../../domain/ports/read-store.js';

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
  /**
   * RFC 3339 UTC as Date#toISOString writes it (`2026-11-22T10:00:00.000Z`): one fixed format,
   * so the string order is the time order (lists sort and range-filter on it as a string).
   */
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
  /**
   * Why the search ended (domain/job/job.ts StopReason): from JobSucceeded; `time_limit` for a
   * job failed `time_limit_exceeded`; `canceled` for one canceled while computing; null (or
   * absent in documents of earlier versions) otherwise and for jobs that succeeded before the
   * search said why.
   */
  stopReason?: StopReason | null;
  /**
   * Generation of the job's signed links (api/http/plan-links/signed-link.ts): absent (0) until JobLinksRevoked
   * raised it; a link signed with an older generation no longer opens.
   */
  linkGeneration?: number;
  /** Position of the last event applied (idempotence guard). */
  position: number;
}

/**
 * Indexes of the `jobs` collection and the queries they serve:
 * - `orgId, createdAt↓, id↓`: GET /v1/jobs without filters (newest first, keyset cursor), with
 *   created_after / created_before, and with `q` (the text test runs on the org's index range).
 * - `orgId, status, createdAt↓, id↓`: the `status` filter (one value or a list).
 * - `orgId, reference, createdAt↓, id↓`: the exact `reference` filter.
 * - `orgId, projectId, createdAt↓, id↓`: the `project_id` filter.
 * - `orgId, memberId, createdAt↓, id↓`: `created_by`.
 * - `status, expiresAt`: the repair tick's scans by status (queued, running) and retention
 *   (ended jobs whose `expiresAt` has passed).
 * - `status, chargedMicros`: the repair tick's ended jobs not settled yet (`chargedMicros` null).
 */
export const JOB_INDEXES: readonly IndexSpec<FieldPath<JobDocument>>[] = [
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
      ['status', 1],
      ['createdAt', -1],
      ['id', -1],
    ],
  },
  {
    keys: [
      ['orgId', 1],
      ['reference', 1],
      ['createdAt', -1],
      ['id', -1],
    ],
  },
  {
    keys: [
      ['orgId', 1],
      ['projectId', 1],
      ['createdAt', -1],
      ['id', -1],
    ],
  },
  {
    keys: [
      ['orgId', 1],
      ['memberId', 1],
      ['createdAt', -1],
      ['id', -1],
    ],
  },
  {
    keys: [
      ['status', 1],
      ['expiresAt', 1],
    ],
  },
  {
    keys: [
      ['status', 1],
      ['chargedMicros', 1],
    ],
  },
];
