/**
 * POST /v1/pack (spec Endpoints; DESIGN §4.1): authenticate → validate and resolve the body →
 * price → the ledger admits and reserves (402 / 429) → the request is stored → JobQueued.
 * `?wait=` up to 60 s answers 200 with the result inlined when the job ended in time, else 202.
 */
import { Router } from 'express';
import { checkPackRequest } from '../pack-request/check.js';
import { authenticate, callerOf } from '../auth.js';
import { checkContextFor } from '../check-context.js';
import { createJob, idempotencyKeyOf } from '../job-admission.js';
import { setCreditsHeader } from '../credits-header.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { jobView, resultView } from '../job-view.js';
import { waitForJobEnd } from '../job-wait.js';
import { waitParam } from '../query.js';
import type { RouteModule } from '../route-docs.js';
import type { Services } from '../services.js';

export function packRouter(services: Services): Router {
  const router = Router();

  router.post('/v1/pack', authenticate(services, 'pack:write'), async (req, res) => {
    const caller = callerOf(res);
    const waitMs = waitParam(req.query['wait']);
    const idempotencyKey = idempotencyKeyOf(req.get('idempotency-key'));
    const body = jsonBody(req);
    const checked = checkPackRequest(body, await checkContextFor(services, caller, body));
    if (!checked.ok) throw new ApiError(checked.status, checked.code, checked.message, checked.details);
    const { jobId, replayed } = await createJob(services, caller, { checked, source: 'api', ...(idempotencyKey ? { idempotencyKey } : {}) });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');

    const job = (await waitForJobEnd(services, jobId, waitMs))!;
    await setCreditsHeader(services, res, caller.orgId);
    const view = jobView(services, req, job);
    const ended = job.status === 'succeeded' || job.status === 'failed' || job.status === 'canceled';
    if (ended && job.status === 'succeeded') view['result'] = await resultView(services, req, job);
    res.status(ended && waitMs > 0 ? 200 : 202).json(view);
  });

  return router;
}

/** Route module: router and OpenAPI docs. */
export const packRoutes: RouteModule = { router: packRouter, docs: [] };
