/**
 * Wire views of jobs and results (spec Job, JobSummary, JobCost, Result). Amounts in credits,
 * sizes in cm, weights in kg, times in ms.
 */
import type { Request } from 'express';
import { readJobBody } from '../domain/job/body.js';
import { toCredits } from '../domain/ledger/money.js';
import type { JobDocument } from '../projections/jobs/job-document.js';
import { signedPdfPath } from './pdf-link.js';
import type { Services } from './services.js';

/** The base URL links are built on: configured, else from the request. */
export function baseUrl(services: Services, req: Request): string {
  return services.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

const ms = (from: string, to: string): number => Math.max(0, Date.parse(to) - Date.parse(from));

/** True while the job's bodies and PDF link are kept (spec Limits rule 4). */
export function retained(job: JobDocument, now: string): boolean {
  return now < job.expiresAt;
}

/** The PDF link of a succeeded job inside retention, else "" (spec: empty after expiry). */
export function pdfUrl(services: Services, req: Request, job: JobDocument): string {
  if (job.status !== 'succeeded' || !retained(job, services.clock())) return '';
  return baseUrl(services, req) + signedPdfPath(services.signingKey, job.id, job.expiresAt);
}

/** Spec Job (without `result`). */
export function jobView(services: Services, req: Request, job: JobDocument): Record<string, unknown> {
  const now = services.clock();
  const queueMs = job.startedAt ? ms(job.createdAt, job.startedAt) : ms(job.createdAt, job.finishedAt ?? now);
  const b = job.breakdown;
  return {
    id: job.id,
    object: 'job',
    status: job.status,
    reference: job.reference,
    source: job.source,
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    progress: { stage: job.progress.stage, vehicles_done: job.progress.vehiclesDone, placed_items: job.progress.placedItems },
    summary: {
      items_requested: job.items,
      items_placed: job.itemsPlaced,
      items_unplaced: job.itemsUnplaced,
      vehicles_used: job.vehiclesUsed,
      total_weight: job.totalWeight,
      volume_utilization: job.volumeUtilization,
      queue_ms: queueMs,
      compute_ms: job.computeMs,
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
    result_url: `${baseUrl(services, req)}/v1/jobs/${job.id}/result`,
    pdf_url: pdfUrl(services, req, job),
    expires_at: job.expiresAt,
  };
}

/** Spec Result of a succeeded job, or null when its plan is not stored. */
export async function resultView(services: Services, req: Request, job: JobDocument): Promise<Record<string, unknown> | null> {
  const plan = (await readJobBody(services.store, job.id)).result?.plan;
  if (!plan) return null;
  return {
    job_id: job.id,
    vehicles: plan.vehicles,
    unplaced: plan.unplaced,
    warnings: job.warnings,
    pdf_url: pdfUrl(services, req, job),
    expires_at: job.expiresAt,
  };
}
