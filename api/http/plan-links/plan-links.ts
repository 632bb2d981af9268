/**
 * The browser links of a job's plan and the check every signed plan route makes:
 * - `pdf_url` (spec Job.pdf_url): `/plans/<job>.pdf?expires=<unix s>&signature=<hex>`;
 * - `viewer_url` (our extension): `/viewer/<job>?expires=…&signature=…`, the 3D viewer
 *   page, which loads `/viewer/<job>/plan.json` with the same query.
 * Both are valid until the job's `expires_at` and empty ("") when the job has no plan to show,
 * and signed with the job's link generation: revoking the job's links (JobLinksRevoked) raises
 * it, so every link issued before stops opening. The links of a plan revision (plan editing,
 * revision N ≥ 1) carry `revision=N` inside the signed query: they open that revision's plan.
 */
import type { Request } from 'express';
import { JOBS, type JobDocument } from '../../../projections/jobs/job-document.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../../../projections/organizations/projection.js';
import { ApiError } from '../errors.js';
import { checkLink, linkQuery, linkRevisionOf, signLink, type LinkPurpose } from './signed-link.js';
import type { LinkSettings } from '../context.js';
import type { UseCasePorts } from '../../../application/ports.js';

/** The base URL links are built on: configured, else from the request. */
export function baseUrl(ctx: Pick<UseCasePorts, 'reads' | 'clock'> & LinkSettings, req: Request): string {
  return ctx.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** True while the job's bodies and plan links are kept (spec Limits rule 4). */
export function retained(job: JobDocument, now: string): boolean {
  return now < job.expiresAt;
}

/**
 * Path and query of the signed PDF link of `jobId`'s plan revision `revision` (0: the job's own),
 * valid until `expiresAt` (RFC 3339) while the link generation is `generation`.
 */
export function signedPdfPath(key: Buffer, jobId: string, expiresAt: string, generation = 0, revision = 0): string {
  return `/plans/${jobId}.pdf${linkQuery(signLink(key, 'pdf', jobId, expiresAt, generation, revision))}`;
}

/**
 * Path and query of the signed viewer page of `jobId`'s plan revision `revision` (0: the job's
 * own), valid until `expiresAt` (RFC 3339) while the link generation is `generation`.
 */
export function signedViewerPath(key: Buffer, jobId: string, expiresAt: string, generation = 0, revision = 0): string {
  return `/viewer/${jobId}${linkQuery(signLink(key, 'viewer', jobId, expiresAt, generation, revision))}`;
}

/** The two browser links of a plan. */
export interface PlanUrls {
  pdf_url: string;
  viewer_url: string;
}

/**
 * Both links of `jobId`'s plan (revision `revision`, 0: the job's own) on this service's base URL
 * (`base`, else `baseUrl`) with link generation `generation` (JobDocument.linkGeneration), or ""
 * for both when `live` is false.
 */
export function planUrls(
  ctx: Pick<UseCasePorts, 'reads' | 'clock'> & LinkSettings,
  req: Request,
  jobId: string,
  expiresAt: string,
  live: boolean,
  generation = 0,
  base?: string,
  revision = 0,
): PlanUrls {
  if (!live) return { pdf_url: '', viewer_url: '' };
  base ??= baseUrl(ctx, req);
  return {
    pdf_url: base + signedPdfPath(ctx.signingKey, jobId, expiresAt, generation, revision),
    viewer_url: base + signedViewerPath(ctx.signingKey, jobId, expiresAt, generation, revision),
  };
}

/**
 * The links of a job (of its plan revision `revision`, 0: its own plan): set for a succeeded job
 * inside retention (spec: "" after expires_at). `now` (RFC 3339, else the clock's) and `base`
 * (else `baseUrl`) spare a caller that has them a second read.
 */
export function jobPlanUrls(
  ctx: Pick<UseCasePorts, 'reads' | 'clock'> & LinkSettings,
  req: Request,
  job: JobDocument,
  now?: string,
  base?: string,
  revision = 0,
): PlanUrls {
  return planUrls(
    ctx,
    req,
    job.id,
    job.expiresAt,
    job.status === 'succeeded' && retained(job, now ?? ctx.clock()),
    job.linkGeneration ?? 0,
    base,
    revision,
  );
}

/** What a signed link opens: the job and the plan revision its query names (0: the job's own plan). */
export interface SignedPlan {
  job: JobDocument;
  revision: number;
}

/**
 * The job and plan revision a signed `purpose` link opens. `jobId` is undefined when the path did
 * not name one. Throws ApiError `not_found` for a bad, expired, revoked or foreign-purpose
 * signature (a `revision` other than the signed one included) and for a job that did not
 * succeed, `result_expired` for a job past retention, and `account_inactive` (403) while the
 * job's organization is suspended.
 */
export async function openSignedRevision(
  ctx: Pick<UseCasePorts, 'reads' | 'clock'> & LinkSettings,
  purpose: LinkPurpose,
  jobId: string | undefined,
  query: Request['query'],
): Promise<SignedPlan> {
  // A repeated or nested parameter is no signature: it fails the check like any other wrong value.
  const expires = typeof query['expires'] === 'string' ? query['expires'] : '';
  const signature = typeof query['signature'] === 'string' ? query['signature'] : '';
  const revision = linkRevisionOf(query['revision']);
  const what = purpose === 'pdf' ? 'PDF link' : 'viewer link';
  const job = jobId ? await ctx.reads.collection<JobDocument>(JOBS).get(jobId) : undefined;
  // A revoked link (older generation) is refused like a tampered or expired one: same answer.
  if (
    !jobId ||
    revision === null ||
    !checkLink(
      ctx.signingKey,
      purpose,
      jobId,
      expires,
      signature,
      Date.parse(ctx.clock()),
      job?.linkGeneration ?? 0,
      revision,
    )
  ) {
    throw new ApiError('not_found', `no such ${what}, or the link has expired`);
  }
  if (!job || job.status !== 'succeeded') throw new ApiError('not_found', `no such ${what}`);
  if (!retained(job, ctx.clock())) throw new ApiError('result_expired', 'the plan was deleted after retention');
  const org = await ctx.reads.collection<OrganizationDocument>(ORGANIZATIONS).get(job.orgId);
  if (!org || org.suspended)
    throw new ApiError(
      'account_inactive',
      `the organization of this plan is suspended: the ${what} opens again when it is lifted`,
    );
  return { job, revision };
}

/** The job a signed `purpose` link opens (its revision aside): openSignedRevision's job, same errors. */
export async function openSignedPlan(
  ctx: Pick<UseCasePorts, 'reads' | 'clock'> & LinkSettings,
  purpose: LinkPurpose,
  jobId: string | undefined,
  query: Request['query'],
): Promise<JobDocument> {
  return (await openSignedRevision(ctx, purpose, jobId, query)).job;
}
