/**
 * GET /plans/{job}.pdf?expires=…&signature=… — the browser link of Job.pdf_url: no
 * Authorization header, the signature proves it was issued by us; valid until the job's
 * `expires_at`. Renders the plan with pdfkit on demand, through the service's PdfRenders
 * (api/http/plan-links/pdf-renders.ts: cached, bounded concurrency, 429 per link and address).
 * The link of a plan revision's Result carries `revision=N` in its signed query and renders that
 * revision's plan.
 */
import { Router } from 'express';
import { cargoFactsOf } from '../../../pdf/cargo-facts.js';
import { ApiError } from '../errors.js';
import { readJobBody } from '../../../domain/job/body.js';
import { setNoStore } from '../page-security.js';
import { openSignedRevision } from '../plan-links/plan-links.js';
import { rebuildRevisionPlan } from '../../../application/plan-revisions.js';
import { orgDisplayUnits } from '../plan-links/org-display-units.js';
import { PdfRenders } from '../plan-links/pdf-renders.js';
import { clientAddress } from '../auth/trust-proxy.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import type { RouteContext } from '../context.js';

export function planPdfRouter(ctx: RouteContext, renders = new PdfRenders()): Router {
  const router = Router(ROUTER_OPTIONS);
  router.get('/plans/:file', async (req, res) => {
    const named = /^(job_[a-z0-9]+)\.pdf$/.exec(String(req.params['file']))?.[1];
    const { job, revision } = await openSignedRevision(ctx, 'pdf', named, req.query);
    const jobId = job.id;
    const displayUnits = await orgDisplayUnits(ctx, job.orgId);
    const key = { jobId, revision, generation: job.linkGeneration ?? 0, displayUnits };
    const link = typeof req.query['signature'] === 'string' ? req.query['signature'] : '';
    const pdf = await renders.pdf(key, link, clientAddress(req), job.expiresAt, async () => {
      const body = await readJobBody(ctx.store, jobId);
      const model = body.request?.model;
      // A revision's link (plan editing): its plan rebuilt from its layout with the job's model.
      const plan =
        revision === 0 ? body.result?.plan : model && (await rebuildRevisionPlan(ctx.store, jobId, revision, model));
      if (!plan) throw new ApiError('result_expired', 'the plan is no longer stored');
      const colors: Record<string, string> = {};
      for (const item of model?.items ?? []) if (item.color) colors[item.id] = item.color;
      // The renderer (pdfkit, its fonts) loads with the first PDF asked for, not with the service.
      const { renderPlanPdf } = await import('../../../pdf/pdf.js');
      return renderPlanPdf({
        jobId,
        ...(job.reference ? { reference: job.reference } : {}),
        createdAt: job.createdAt,
        plan,
        colors,
        cargo: cargoFactsOf(model),
        displayUnits,
      });
    });
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `inline; filename="${revision > 0 ? `${jobId}-r${revision}` : jobId}.pdf"`);
    // A signed, short-lived link to an organization's plan: no cache keeps it.
    setNoStore(res);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(pdf);
  });
  return router;
}

/** Route module: router and OpenAPI docs. */
export const planPdfRoutes: RouteModule = {
  router: planPdfRouter,
  docs: [
    {
      method: 'get',
      path: '/plans/{file}',
      operationId: 'getPlanPdf',
      summary: 'The load plan as PDF (signed browser link)',
      description:
        "The link of `pdf_url`: 3D views and loading steps of a succeeded job (or of a plan revision: `revision` in the signed query). No Authorization header; the signature proves the link was issued by the service. Valid until the job's `expires_at`.",
      tags: ['Jobs'],
      scopes: [],
      parameters: [
        {
          name: 'file',
          in: 'path',
          required: true,
          description: '`<job id>.pdf`',
          schema: { type: 'string', pattern: '^job_[a-z0-9]+\\.pdf$' },
        },
        {
          name: 'expires',
          in: 'query',
          required: true,
          description: 'Expiry of the link (Unix time, seconds), as issued',
          schema: { type: 'string' },
        },
        {
          name: 'revision',
          in: 'query',
          description: 'Plan revision, as issued in the `pdf_url` of a revision (signed with the link)',
          schema: { type: 'string', pattern: '^[0-9]{1,9}$' },
        },
        {
          name: 'signature',
          in: 'query',
          required: true,
          description: 'Signature of the link, as issued',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': {
          description: 'The PDF',
          contentType: 'application/pdf',
          schema: { type: 'string', contentMediaType: 'application/pdf' },
        },
      },
      errors: ['not_found', 'result_expired', 'account_inactive', 'rate_limited'],
    },
  ],
};
