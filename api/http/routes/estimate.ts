/**
 * POST /v1/estimate (spec Estimate): validates and prices the body of POST /v1/pack, free.
 * A body that is not a JSON object answers 400 invalid_json like /v1/pack; every other problem
 * is reported in `errors` with `valid: false` and status 200. `valid` also turns false when the
 * available credits do not cover the smallest useful run (warning `insufficient_credits`, see
 * domain/ledger/pricing.ts smallestUsefulRun): then POST /v1/pack would answer 402.
 * `min_credits` stays the spec's figure (fewest vehicles and no compute).
 */
import { Router } from 'express';
import { availableCredits } from '../../../domain/ledger/ledger.js';
import { toCredits } from '../../../domain/ledger/money.js';
import { admissionTerms, priceRun, smallestUsefulRun, total } from '../../../domain/ledger/pricing.js';
import { CURRENT_RATE_CARD } from '../../../domain/ledger/rate-card.js';
import { emptyBalance } from '../../../projections/balances/projection.js';
import { balanceReadOf } from '../jobs/credits-header.js';
import type { Warning } from '../../../domain/pack/diagnostics.js';
import { checkPackRequest } from '../pack-request/check.js';
import { authenticate, callerOf } from '../auth/auth.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import { ref } from '../openapi/components.js';
import type { PackContext } from '../context.js';
import { checkContextFor } from '../jobs/check-context.js';

export function estimateRouter(ctx: PackContext): Router {
  const router = Router(ROUTER_OPTIONS);
  router.post('/v1/estimate', authenticate(ctx, 'pack:write'), async (req, res) => {
    const caller = callerOf(res);
    const body = jsonBody(req);
    const checked = checkPackRequest(body, await checkContextFor(ctx, caller, body));
    // The balance authentication read for X-Credits-Remaining: one balance read per request.
    const ledger = balanceReadOf(res) ?? emptyBalance(caller.orgId);
    const available = availableCredits(ledger, ctx.clock());
    const balance = { available_credits: toCredits(available) };
    if (!checked.ok) {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new ApiError(checked.code, checked.message, checked.details);
      }
      res.json({
        valid: false,
        errors: checked.details,
        warnings: [],
        items: 0,
        max_vehicles: 0,
        estimated_cost: { min_credits: 0, max_credits: 0 },
        estimated_seconds: 0,
        balance,
      });
      return;
    }
    const card = CURRENT_RATE_CARD;
    const job = {
      units: checked.items,
      minVehicles: checked.minVehicles,
      maxVehicles: checked.model.maxVehicles,
      budgetMs: checked.model.budgetMs,
    };
    const terms = admissionTerms(card, available, job);
    const warnings: Warning[] = [...checked.warnings];
    const min = total(priceRun(card, { vehicles: job.minVehicles, computeMs: 0, units: job.units }));
    let max = total(priceRun(card, { vehicles: job.maxVehicles, computeMs: job.budgetMs, units: job.units }));
    let maxVehicles = job.maxVehicles;
    let budgetMs = job.budgetMs;
    if (!terms) {
      const run = smallestUsefulRun(card, job);
      warnings.push({
        code: 'insufficient_credits',
        message: `available credits (${toCredits(available)}) do not cover the smallest useful run (${run.vehicles} vehicles and ${run.budgetMs} ms of compute, ${toCredits(run.price)} credits)`,
      });
    } else if (terms.limitedByBalance) {
      ({ maxVehicles, budgetMs } = terms);
      max = terms.reserved;
      warnings.push({
        code: 'limited_by_balance',
        message: `available credits cover ${terms.maxVehicles} vehicles and ${terms.budgetMs} ms of compute for this job, less than requested`,
      });
    }
    res.json({
      valid: terms !== null,
      errors: [],
      warnings,
      items: checked.items,
      max_vehicles: maxVehicles,
      estimated_cost: { min_credits: toCredits(min), max_credits: toCredits(max) },
      estimated_seconds: budgetMs / 1000,
      balance,
    });
  });
  return router;
}

/** Route module: router and OpenAPI docs. */
export const estimateRoutes: RouteModule = {
  router: estimateRouter,
  docs: [
    {
      method: 'post',
      path: '/v1/estimate',
      operationId: 'estimatePackJob',
      summary: 'Validate and price a pack request, free',
      description:
        'Validates and prices the body of POST /v1/pack without creating or charging anything. Problems are reported in `errors` ' +
        'with `valid: false` and status 200; only a body that is not a JSON object answers 400 `invalid_json`. `valid` is also false ' +
        'when the available credits do not cover the smallest run (warning `insufficient_credits`).',
      tags: ['Jobs'],
      scopes: ['pack:write'],
      requestBody: { description: 'The same body as POST /v1/pack', schema: ref('PackRequest') },
      responses: { '200': { description: 'The estimate', schema: ref('Estimate') } },
      errors: [],
    },
  ],
};
