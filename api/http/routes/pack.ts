/**
 * POST /v1/pack (spec Endpoints; DESIGN §4.1): authenticate → validate and resolve the body →
 * price → the ledger admits and reserves (402 / 429) → the request is stored → JobQueued.
 * `?wait=` up to 60 s answers 200 with the result inlined when the job ended in time, else 202.
 */
import { Router } from 'express';
import { checkPackRequest } from '../pack-request/check.js';
import { authenticate, callerOf, jobSourceOf } from '../auth/auth.js';
import { checkContextFor } from '../jobs/check-context.js';
import { createJob } from '../../../application/job-admission.js';
import { idempotencyKeyOf } from '../jobs/idempotency-key.js';
import { jobCreatorOf } from '../auth/actor.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { sendCreatedJob } from '../jobs/job-view.js';
import { waitParam } from '../query.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import { ref } from '../openapi/components.js';
import type { PackContext } from '../context.js';

export function packRouter(ctx: PackContext): Router {
  const router = Router(ROUTER_OPTIONS);

  router.post('/v1/pack', authenticate(ctx, 'pack:write'), async (req, res) => {
    const caller = callerOf(res);
    const waitMs = waitParam(req.query['wait']);
    const idempotencyKey = idempotencyKeyOf(req.get('idempotency-key'));
    const body = jsonBody(req);
    const checked = checkPackRequest(body, await checkContextFor(ctx, caller, body));
    if (!checked.ok) throw new ApiError(checked.code, checked.message, checked.details);
    const created = await createJob(ctx, jobCreatorOf(caller), {
      checked,
      source: jobSourceOf(caller),
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
    await sendCreatedJob(ctx, req, res, caller.orgId, created, waitMs);
  });

  return router;
}

/** Route module: router and OpenAPI docs. */
export const packRoutes: RouteModule = {
  router: packRouter,
  docs: [
    {
      method: 'post',
      path: '/v1/pack',
      operationId: 'createPackJob',
      summary: 'Create a packing job',
      description:
        'Validates, prices and queues a job; the worst-case price is reserved. With `?wait=` the call waits up to that many seconds: ' +
        '200 with the final job (result inlined when succeeded) if it ended in time, else 202 with the queued or running job. ' +
        'The same `Idempotency-Key` within 24 hours answers the original job with `Idempotent-Replayed: true` and charges nothing new.',
      tags: ['Jobs'],
      scopes: ['pack:write'],
      parameters: [
        {
          name: 'wait',
          in: 'query',
          description: 'Seconds to wait for the job to end (0–60, default 0)',
          schema: { type: 'number', minimum: 0, maximum: 60 },
        },
        {
          name: 'Idempotency-Key',
          in: 'header',
          description: 'Retry key, at most 128 characters; replays the original job within 24 hours',
          schema: { type: 'string', maxLength: 128 },
        },
      ],
      requestBody: { description: 'Vehicles and items to pack', schema: ref('PackRequest') },
      responses: {
        '200': {
          description: 'The job ended within `wait`: final status, `result` inlined when succeeded',
          schema: ref('Job'),
        },
        '202': { description: 'The job is queued or running; poll GET /v1/jobs/{id}', schema: ref('Job') },
      },
      errors: [
        'idempotency_key_invalid',
        'validation_failed',
        'insufficient_credits',
        'too_many_jobs',
        'idempotency_key_pending',
      ],
    },
  ],
};
