/**
 * POST /v1/plans/verify (plan editing): checks a plan, typically an edited Result, against its
 * request with the independent verifier (solver/verify), free. The body is
 * `{"request": PackRequest, "result": Result}`: the request is checked exactly as POST /v1/estimate
 * and POST /v1/pack check theirs (the organization's limits, saved vehicles, templates, axle
 * access); of the result only the layout is read (api/http/plan-verify/result-layout.ts), the plan
 * is rebuilt from it (solver/edit/layout.ts planFromLayout) and verified
 * (solver/edit/plan-check.ts checkLayout). The answer is `200 {valid, problems, result}`, `result`
 * being the rebuilt plan in the shape of GET /v1/jobs/{id}/result (cm, kg) with no job:
 * `job_id`, `pdf_url` and `viewer_url` are "" and `expires_at` is the time of the answer (nothing
 * is stored), `stop_reason` null, `warnings` the request's. No job, no charge, no event; scope,
 * limits and rate limits of POST /v1/estimate.
 */
import { Router } from 'express';
import type { ErrorDetail, Warning } from '../../../domain/pack/diagnostics.js';
import type { PackModel } from '../../../domain/pack/plan.js';
import { checkLayout } from '../../../solver/edit/plan-check.js';
import type { Layout } from '../../../solver/edit/layout.js';
import { checkPackRequest } from '../pack-request/check.js';
import { jsonTypeOf } from '../pack-request/schema-problems.js';
import { joinField } from '../pack-request/detail-path.js';
import { authenticate, callerOf, type Caller } from '../auth/auth.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { ROUTER_OPTIONS, type JsonSchema, type RouteModule } from '../route-docs.js';
import { ref, record, bool, str, int } from '../openapi/schema-builders.js';
import type { PackContext } from '../context.js';
import { checkContextFor } from '../jobs/check-context.js';
import { resultOfPlan } from '../jobs/job-view.js';
import { pathUnder, readResultLayout, RESULT_LAYOUT_SCHEMA } from '../plan-verify/result-layout.js';

/** The fields of a verify body; any other is reported as `unknown_field`. */
const BODY_FIELDS = ['request', 'result'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A checked verify body: the request's model and warnings and the result's layout, or every problem found. */
type VerifyBody =
  { ok: true; model: PackModel; warnings: Warning[]; layout: Layout } | { ok: false; details: ErrorDetail[] };

/**
 * Checks the parts of a verify body (an object): `request` as a pack request of `caller`'s
 * organization (paths under `request`), `result` as a layout within the same limits (paths under
 * `result`), no other field. Every problem of both parts is collected.
 */
async function checkVerifyBody(ctx: PackContext, caller: Caller, body: Record<string, unknown>): Promise<VerifyBody> {
  const details: ErrorDetail[] = [];
  let accepted: { model: PackModel; warnings: Warning[] } | undefined;
  if (body['request'] === undefined) {
    details.push({ path: 'request', code: 'required', message: 'request is required (the PackRequest of the plan)' });
  } else {
    const request = body['request'];
    const checked = checkPackRequest(request, await checkContextFor(ctx, caller, request));
    if (checked.ok) accepted = { model: checked.model, warnings: checked.warnings };
    else details.push(...checked.details.map((d) => ({ ...d, path: pathUnder('request', d.path) })));
  }
  const read = readResultLayout(body['result'], caller.org.limits);
  if (!read.ok) details.push(...read.details);
  for (const name of Object.keys(body)) {
    if (!(BODY_FIELDS as readonly string[]).includes(name)) {
      details.push({
        path: joinField('', name),
        code: 'unknown_field',
        message: `unknown field "${name}"; the body is {"request": PackRequest, "result": Result}`,
      });
    }
  }
  if (!accepted || !read.ok || details.length > 0) return { ok: false, details };
  return { ok: true, ...accepted, layout: read.layout };
}

export function planVerifyRouter(ctx: PackContext): Router {
  const router = Router(ROUTER_OPTIONS);
  router.post('/v1/plans/verify', authenticate(ctx, 'pack:write'), async (req, res) => {
    const caller = callerOf(res);
    const body = jsonBody(req);
    if (!isObject(body)) {
      throw new ApiError('invalid_json', 'The request body must be a JSON object {"request": …, "result": …}.', [
        { path: '', code: 'invalid_json', message: `the body must be a JSON object, got ${jsonTypeOf(body)}` },
      ]);
    }
    const checked = await checkVerifyBody(ctx, caller, body);
    if (!checked.ok) {
      const n = checked.details.length;
      throw new ApiError(
        'validation_failed',
        `The plan cannot be verified: ${n} problem${n === 1 ? '' : 's'} in the body (see details).`,
        checked.details,
      );
    }
    const check = checkLayout(checked.model, checked.layout);
    res.json({
      valid: check.valid,
      problems: check.problems,
      result: resultOfPlan(check.plan, {
        job_id: '',
        warnings: checked.warnings,
        pdf_url: '',
        viewer_url: '',
        expires_at: ctx.clock(),
        stop_reason: null,
      }),
    });
  });
  return router;
}

const planProblem = record('PlanProblem', 'One broken rule of a verified plan.', {
  rule: {
    type: 'string',
    description:
      'The rule: `vehicles`, `bounds`, `overlap`, `support`, `orientation`, `weight`, `stacking`, `stack_items`, `stack_weight`, ' +
      '`floor_load`, `stack_density`, `blocked_area`, `instances`, `steps`, `figures`, `axle_load`, `cog_range`, `group_routing`, ' +
      '`hazardous`, `aux_deck`, `pinned`',
    example: 'overlap',
  },
  message: str('English explanation with the figures (cm, kg)'),
  units: {
    type: 'array',
    description: 'The units the problem concerns (both units of an overlap); empty for a vehicle-wide problem',
    items: record('ProblemUnit', 'A unit of the plan.', {
      item_id: str('Item definition id'),
      instance: int('1-based unit number'),
    }),
  },
});

const planVerifyRequest: JsonSchema = {
  title: 'PlanVerifyRequest',
  description: 'A plan to verify: the request it was made for and the plan (a Result, typically edited).',
  type: 'object',
  required: ['request', 'result'],
  additionalProperties: false,
  properties: {
    request: ref('PackRequest'),
    result: RESULT_LAYOUT_SCHEMA,
  },
};

const planVerification = record('PlanVerification', 'The verdict on a plan.', {
  valid: bool('True when no rule is broken'),
  problems: {
    type: 'array',
    items: ref('PlanProblem'),
    description: 'Every broken rule; empty when valid',
  },
  result: {
    allOf: [ref('Result')],
    description:
      'The plan rebuilt from the units sent (sizes, labels, weights, loading steps, figures and axle loads recomputed; cm, kg), ' +
      'in the shape of GET /v1/jobs/{id}/result. There is no job: `job_id`, `pdf_url` and `viewer_url` are "", ' +
      "`expires_at` is the time of the answer (nothing is stored), `stop_reason` is null and `warnings` are the request's.",
  },
});

/** Route module: router, OpenAPI docs and schemas. */
export const planVerifyRoutes: RouteModule = {
  router: planVerifyRouter,
  schemas: { PlanVerifyRequest: planVerifyRequest, PlanVerification: planVerification, PlanProblem: planProblem },
  docs: [
    {
      method: 'post',
      path: '/v1/plans/verify',
      operationId: 'verifyPlan',
      summary: 'Verify a plan against its request, free',
      description:
        'Our extension (not in the spec), for plan editing: checks a plan (a Result, typically edited by hand) against the request it was made for, with the same independent ' +
        'verifier every computed plan passes: units inside the vehicle and out of blocked areas, no overlaps, supported, ' +
        'allowed orientations, stacking rules and stack weights, payload and axle loads, groups and hazardous goods. Of the ' +
        "result only each vehicle's `vehicle_id`, `copy` and its units (`item_id`, `instance`, `x`, `y`, `z`, `orientation`) " +
        "and the unplaced units' `reason` are read; everything else is recomputed and answered in `result`. " +
        'The request is checked like the body of POST /v1/pack; problems of the body answer 422 `validation_failed` with ' +
        'paths under `request.` and `result.`, a body that is not a JSON object 400 `invalid_json`. A broken rule of the plan ' +
        'is no error: it answers 200 with `valid: false`. Nothing is created or charged.',
      tags: ['Jobs'],
      scopes: ['pack:write'],
      requestBody: { description: 'The request and the plan', schema: ref('PlanVerifyRequest') },
      responses: { '200': { description: 'The verdict and the rebuilt plan', schema: ref('PlanVerification') } },
      errors: ['validation_failed'],
    },
  ],
};
