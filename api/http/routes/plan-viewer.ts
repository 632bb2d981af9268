/**
 * The 3D viewer of a plan (our extension), opened by the signed browser link
 * `viewer_url` (api/http/plan-links/plan-links.ts; no Authorization header, valid until the job's `expires_at`):
 * - GET /viewer/{job}?expires=…&signature=…: the page (the viewer's build, api/http/front-ends.ts;
 *   503 `api_disabled` while it is not built);
 * - GET /viewer/{job}/plan.json?expires=…&signature=…: what the page draws (api/http/plan-viewer/viewer-plan.ts),
 *   asked for with the page's own query (a plan revision's link carries `revision=N` in its
 *   signed query: the plan is then that revision's);
 * - /viewer/assets/*: the page's scripts and styles (hashed names, cached for a year).
 * A bad, expired or PDF-purpose signature answers 404 `not_found`, a plan past retention 410
 * `result_expired`, in the spec's error envelope. Their OpenAPI operations are
 * api/http/plan-viewer/docs.ts, the plan's schemas api/http/plan-viewer/shape.ts.
 */
import express, { Router } from 'express';
import { readJobBody } from '../../../domain/job/body.js';
import { ApiError } from '../errors.js';
import { VIEWER_BUILD, assetsOf, isBuilt, pageReader } from '../front-ends.js';
import { setNoStore, setPageSecurity } from '../page-security.js';
import { openSignedPlan, openSignedRevision } from '../plan-links/plan-links.js';
import { rebuildRevisionPlan } from '../../../application/plan-revisions.js';
import { PLAN_VIEWER_DOCS } from '../plan-viewer/docs.js';
import { VIEWER_PLAN_SCHEMAS } from '../plan-viewer/shape.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import type { RouteContext } from '../context.js';
import { viewerPlan } from '../plan-viewer/viewer-plan.js';
import { orgDisplayUnits } from '../plan-links/org-display-units.js';

const jobOf = (param: unknown): string | undefined => /^job_[a-z0-9]+$/.exec(String(param))?.[0];

function viewerRouter(services: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);
  if (!isBuilt(VIEWER_BUILD)) {
    services.log.warn(
      { dir: VIEWER_BUILD.dist },
      'the 3D viewer is not built (npm run build): viewer links answer 503 until it is',
    );
  }
  const page = pageReader(VIEWER_BUILD);

  router.use(
    '/viewer/assets',
    express.static(assetsOf(VIEWER_BUILD), { index: false, immutable: true, maxAge: '365d', redirect: false }),
  );

  router.get('/viewer/:job', async (req, res) => {
    await openSignedPlan(services, 'viewer', jobOf(req.params['job']), req.query);
    const html = page();
    // Links are signed and short-lived: no cache keeps the page or its plan.
    setNoStore(res);
    // The web app (same origin) embeds the viewer on its playground and job pages.
    setPageSecurity(res, 'viewer');
    res.type('text/html').send(html);
  });

  router.get('/viewer/:job/plan.json', async (req, res) => {
    const { job, revision } = await openSignedRevision(services, 'viewer', jobOf(req.params['job']), req.query);
    const body = await readJobBody(services.store, job.id);
    const model = body.request?.model;
    // A revision's link (plan editing): its plan rebuilt from its layout with the job's model.
    const plan =
      revision === 0
        ? body.result?.plan
        : model && (await rebuildRevisionPlan(services.store, job.id, revision, model));
    if (!plan) throw new ApiError('result_expired', 'the plan is no longer stored');
    setNoStore(res);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.json(
      viewerPlan({
        jobId: job.id,
        reference: job.reference,
        createdAt: job.createdAt,
        expiresAt: job.expiresAt,
        plan,
        model: model ?? null,
        requestGroups: body.request?.request.groups ?? [],
        warnings: job.warnings,
        displayUnits: await orgDisplayUnits(services, job.orgId),
      }),
    );
  });
  return router;
}

/** Route module: router, OpenAPI docs and the ViewerPlan schemas. */
export const planViewerRoutes: RouteModule = {
  router: viewerRouter,
  docs: PLAN_VIEWER_DOCS,
  schemas: VIEWER_PLAN_SCHEMAS,
};
