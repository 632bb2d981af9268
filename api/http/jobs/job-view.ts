/**
 * Wire views of jobs and results (spec Job, JobSummary, JobCost, Result). Amounts in credits,
 * sizes in cm, weights in kg, times in ms.
 */
import type { Request, Response } from 'express';
import { readJobBody } from '../../../domain/job/body.js';
import { toCredits } from '../../../domain/ledger/money.js';
import type { JobDocument } from '../../../projections/jobs/job-document.js';
import { setCreditsHeader } from './credits-header.js';
import { creditsRemainingOf } from './credits-remaining.js';
import type { LedgerFunds } from '../../../domain/ledger/ledger.js';
import { ApiError } from '../errors.js';
import { waitForJobEnd } from './job-wait.js';
import { baseUrl, jobPlanUrls, type PlanUrls } from '../plan-links/plan-links.js';
import type { Plan } from '../../../domain/pack/plan.js';
import type { Warning } from '../../../domain/pack/diagnostics.js';
import type { StopReason } from '../../../domain/job/job.js';
import type { LinkSettings } from '../context.js';
import type { UseCasePorts } from '../../../application/ports.js';

// Kept importable from here for code written before the plan links had a module of their own.
export { baseUrl, retained } from '../plan-links/plan-links.js';

const ms = (from: string, to: string): number => Math.max(0, Date.parse(to) - Date.parse(from));

/**
 * Spec JobSummary `queue_ms`: the wait from creation until a solver began computing
 * (`computeStartedAt`), not until the organization's slot was given: a job holding a slot while
 * every solver slot is busy is still waiting. Before compute begins, the wait so far (to the end
 * for a job that ended without computing). Jobs stored before `computeStartedAt` existed that
 * succeeded count to `startedAt`.
 */
export function queueMsOf(job: JobDocument, now: string): number {
  const began = job.computeStartedAt ?? (job.status === 'succeeded' ? job.startedAt : null);
  return began ? ms(job.createdAt, began) : ms(job.createdAt, job.finishedAt ?? now);
}

/**
 * Spec Job (without `result`). `now` (RFC 3339): the time the view is made at, else the clock's;
 * a list passes one for all its jobs.
 */
export function jobView(
  ctx: UseCasePorts & LinkSettings,
  req: Request,
  job: JobDocument,
  now: string = ctx.clock(),
): Record<string, unknown> {
  const queueMs = queueMsOf(job, now);
  const base = baseUrl(ctx, req);
  const b = job.breakdown;
  return {
    id: job.id,
    object: 'job',
    status: job.status,
    reference: job.reference,
    source: job.source,
    ...(job.projectId !== undefined ? { project_id: job.projectId } : {}),
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    progress: {
      stage: job.progress.stage,
      vehicles_done: job.progress.vehiclesDone,
      placed_items: job.progress.placedItems,
    },
    summary: {
      items_requested: job.items,
      items_placed: job.itemsPlaced,
      items_unplaced: job.itemsUnplaced,
      vehicles_used: job.vehiclesUsed,
      total_weight: job.totalWeight,
      volume_utilization: job.volumeUtilization,
      queue_ms: queueMs,
      compute_ms: job.computeMs,
      stop_reason: job.stopReason ?? null,
    },
    cost: {
      credits: toCredits(job.chargedMicros ?? 0),
      reserved_credits: toCredits(job.reservedMicros),
      rate_card_version: job.rateCardVersion,
      breakdown: {
        base: toCredits(b?.base ?? 0),
        vehicles: toCredits(b?.vehicles ?? 0),
        compute: toCredits(b?.compute ?? 0),
        large_load: toCredits(b?.large_load ?? 0),
      },
    },
    error: job.error,
    warnings: job.warnings,
    result_url: `${base}/v1/jobs/${job.id}/result`,
    ...jobPlanUrls(ctx, req, job, now, base),
    expires_at: job.expiresAt,
  };
}

/**
 * The fields of a spec Result around its plan, as sent: the job (`job_…`), its warnings, the
 * signed plan links, when they expire (RFC 3339) and why the search ended. A Result of no job
 * (POST /v1/plans/verify) has `job_id`, `pdf_url` and `viewer_url` "" (api/http/routes/plan-verify.ts).
 */
export interface ResultFrame extends PlanUrls {
  job_id: string;
  warnings: readonly Warning[];
  expires_at: string;
  stop_reason: StopReason | null;
}

/**
 * Spec Result of `plan` (cm, kg) in `frame`: the shape GET /v1/jobs/{id}/result answers, shared
 * by every answer that renders a plan (a job's result, a verified plan, a plan revision).
 */
export function resultOfPlan(plan: Plan, frame: ResultFrame): Record<string, unknown> {
  return {
    job_id: frame.job_id,
    vehicles: plan.vehicles,
    unplaced: plan.unplaced,
    warnings: frame.warnings,
    pdf_url: frame.pdf_url,
    viewer_url: frame.viewer_url,
    expires_at: frame.expires_at,
    stop_reason: frame.stop_reason,
  };
}

/** Spec Result of a succeeded job, or null when its plan is not stored. */
export async function resultView(
  ctx: UseCasePorts & LinkSettings,
  req: Request,
  job: JobDocument,
): Promise<Record<string, unknown> | null> {
  const plan = (await readJobBody(ctx.store, job.id, 'result')).result?.plan;
  if (!plan) return null;
  return resultOfPlan(plan, jobFrame(job, jobPlanUrls(ctx, req, job)));
}

/** The frame of a job's Result (its own plan, or a plan revision's) with the links `urls` to that plan. */
export function jobFrame(job: JobDocument, urls: PlanUrls): ResultFrame {
  return {
    job_id: job.id,
    warnings: job.warnings,
    ...urls,
    expires_at: job.expiresAt,
    stop_reason: job.stopReason ?? null,
  };
}

/**
 * The answer of a POST that created (or, with an Idempotency-Key, replayed) a job — POST /v1/pack
 * and POST /v1/projects/{id}/pack (spec Endpoints): waits up to `waitMs` for the job to end, then
 * `200` with the final Job (`result` inlined when succeeded) when it ended and a wait was asked,
 * else `202` with the Job as it is. Sets `Idempotent-Replayed: true` on a replay and the
 * `X-Credits-Remaining` header after the wait: for a job this request admitted that has not ended,
 * from the ledger's funds right after its admission (`created.funds`, no second balance read);
 * else (a replay, or a job that ended and was settled within the wait) from the balance.
 */
export async function sendCreatedJob(
  ctx: UseCasePorts & LinkSettings,
  req: Request,
  res: Response,
  orgId: string,
  created: { jobId: string; replayed: boolean; funds?: LedgerFunds },
  waitMs: number,
): Promise<void> {
  const job = await waitForJobEnd(ctx, created.jobId, waitMs);
  if (!job) {
    // This process's read models are still behind the log. A replay's retry finds the job; a new
    // job's id must not be lost: a 500 makes the client retry with its Idempotency-Key (a replay).
    if (created.replayed)
      throw new ApiError(
        'conflict',
        `job ${created.jobId} of this Idempotency-Key is not readable here yet; retry with the same key`,
        undefined,
        { retryAfterSeconds: 1 },
      );
    throw new Error(`job ${created.jobId} was queued but the read models did not show it in time`);
  }
  if (created.replayed) res.setHeader('Idempotent-Replayed', 'true');
  const ended = job.status === 'succeeded' || job.status === 'failed' || job.status === 'canceled';
  if (created.funds && !ended) res.setHeader('X-Credits-Remaining', creditsRemainingOf(created.funds, ctx.clock()));
  else await setCreditsHeader(ctx, res, orgId);
  const view = jobView(ctx, req, job);
  if (job.status === 'succeeded') view['result'] = await resultView(ctx, req, job);
  // 200 once the job has ended (within the wait, or before a replay), 202 while queued or running.
  res.status(ended ? 200 : 202).json(view);
}
