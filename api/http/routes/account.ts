/**
 * GET /v1/limits and GET /v1/balance (spec Limits record, Balance). Field names of the spec's
 * unshown records (RateLimits, RateCard) are documented in docs/api-decisions.md.
 */
import { Router } from 'express';
import { availableCredits, heldCredits, usableSubscription } from '../../../domain/ledger/ledger.js';
import { toCredits } from '../../../domain/ledger/money.js';
import { CURRENT_RATE_CARD } from '../../../domain/ledger/rate-card.js';
import { emptyBalance, type BalanceDocument } from '../../../projections/balances/projection.js';
import { readBalance } from '../../../projections/read-model-cache.js';
import { sendJson } from '../json-answer.js';
import { balanceReadOf } from '../jobs/credits-header.js';
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import { authenticate, authenticateOrSession, callerOf } from '../auth/auth.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import { ref } from '../openapi/components.js';
import type { RouteContext } from '../context.js';

/** The spec's RateCard, in credits: what GET /v1/limits publishes. */
export function rateCardView(): Record<string, unknown> {
  const c = CURRENT_RATE_CARD;
  return {
    version: c.version,
    base: toCredits(c.base),
    per_vehicle: toCredits(c.perVehicle),
    per_compute_second: toCredits(c.perComputeSecond),
    large_load_threshold: c.largeLoadThreshold,
    large_load_block_items: 100,
    per_large_load_block: toCredits(c.perLargeLoadBlock),
  };
}

/**
 * Spec Balance of an organization at `now`, in credits. `read`: the balance document this request
 * already read (authentication's X-Credits-Remaining, `balanceReadOf`); undefined: read it now.
 */
export async function balanceView(
  ctx: RouteContext,
  orgId: string,
  read?: BalanceDocument | null,
): Promise<Record<string, unknown>> {
  const doc = read !== undefined ? read : await readBalance(ctx, orgId);
  const ledger = doc ?? emptyBalance(orgId);
  const now = ctx.clock();
  const subscription = usableSubscription(ledger, now);
  return {
    available_credits: toCredits(availableCredits(ledger, now)),
    subscription_credits: toCredits(subscription),
    subscription_expires_at: ledger.subscriptionExpiresAt,
    purchased_credits: toCredits(ledger.purchased),
    reserved_credits: toCredits(heldCredits(ledger, now)),
  };
}

export function accountRouter(ctx: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);

  // Roles: a member's web app session reads the limits and rate card it packs against (pack:write); balance and usage stay the owner's.
  router.get('/v1/limits', authenticateOrSession(ctx, ['account:read'], ['pack:write']), (_req, res) => {
    const l = callerOf(res).org.limits;
    const windows = {
      per_minute: l.rateLimits.perMinute,
      per_hour: l.rateLimits.perHour,
      per_day: l.rateLimits.perDay,
    };
    res.json({
      max_items_per_request: l.maxItemsPerRequest,
      max_vehicles_per_request: l.maxVehiclesPerRequest,
      max_time_limit_seconds: l.maxTimeLimitSeconds,
      concurrency: l.concurrency,
      max_queued_jobs: l.maxQueuedJobs,
      retention_days: l.retentionDays,
      allowed_vehicle_types: l.allowedVehicleTypes,
      max_projects: l.maxProjects ?? DEFAULT_LIMITS.maxProjects,
      max_saved_items: l.maxTemplates ?? DEFAULT_LIMITS.maxTemplates,
      rate_limits: { per_key: windows, per_organization: windows },
      rate_card: rateCardView(),
    });
  });

  router.get('/v1/balance', authenticate(ctx, 'account:read'), async (_req, res) => {
    // Authentication read the balance for X-Credits-Remaining: the view shows that same document.
    sendJson(res, await balanceView(ctx, callerOf(res).orgId, balanceReadOf(res)));
  });

  return router;
}

/** Route module: router and OpenAPI docs. */
export const accountRoutes: RouteModule = {
  router: accountRouter,
  docs: [
    {
      method: 'get',
      path: '/v1/limits',
      operationId: 'getLimits',
      summary: "The organization's limits and rate card",
      description:
        "Effective limits of the organization (job sizes, concurrency, retention, plan caps on saved data), its rate limits and the current rate card. The web app's session of a member who is not the owner reads it with pack:write (the playground shows the limits it packs against).",
      tags: ['Account'],
      scopes: ['account:read'],
      responses: { '200': { description: 'The limits record', schema: ref('Limits') } },
      errors: [],
    },
    {
      method: 'get',
      path: '/v1/balance',
      operationId: 'getBalance',
      summary: "The organization's credits",
      tags: ['Account'],
      scopes: ['account:read'],
      responses: { '200': { description: 'The balance', schema: ref('Balance') } },
      errors: [],
    },
  ],
};
