/**
 * GET /v1/usage (spec Endpoints: "Usage"; parameters and fields not shown, our choice, docs/api-decisions.md).
 * Query: `from`, `to` (dates YYYY-MM-DD, UTC, inclusive; default the last 30 days ending today;
 * at most 366 days), `group_by=day` (adds one entry per date of the range to `days`).
 * Jobs count on the UTC day they were created. Credits are what settlements charged, compute_ms
 * is the compute billed (capped at each job's budget; nothing for outcomes not charged).
 */
import { Router } from 'express';
import { toCredits } from '../../../domain/ledger/money.js';
import { emptyUsageDay, USAGE_DAYS, type UsageDay } from '../../../projections/usage/projection.js';
import { authenticate, callerOf } from '../auth/auth.js';
import { ApiError } from '../errors.js';
import { ref } from '../openapi/components.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import type { RouteContext } from '../context.js';
import { usage, usageDay, usageFigures } from '../usage-schema.js';

export const DEFAULT_USAGE_DAYS = 30;
export const MAX_USAGE_DAYS = 366;
const DAY_MS = 86_400_000;

type Detail = { path: string; code: string; message: string };

/** Epoch ms of a YYYY-MM-DD calendar date (UTC midnight), or null when not one. */
function parseDate(raw: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === raw ? ms : null;
}

const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The query of GET /v1/usage. */
export interface UsageQuery {
  /** YYYY-MM-DD, inclusive. */
  from: string;
  to: string;
  byDay: boolean;
}

/** Parses `from`, `to`, `group_by` against today (`now`, RFC 3339). Throws 422 validation_failed listing every problem. */
export function parseUsageQuery(query: Record<string, unknown>, now: string): UsageQuery {
  const details: Detail[] = [];
  const one = (name: string): string | undefined => {
    const v = query[name];
    return v === undefined ? undefined : String(Array.isArray(v) ? v[0] : v);
  };
  const date = (name: string): number | null | undefined => {
    const raw = one(name);
    if (raw === undefined) return undefined;
    const ms = parseDate(raw);
    if (ms === null)
      details.push({
        path: name,
        code: 'invalid_value',
        message: `${name} must be a date YYYY-MM-DD, got ${JSON.stringify(raw)}`,
      });
    return ms;
  };
  const rawFrom = date('from');
  const rawTo = date('to');
  const groupBy = one('group_by');
  if (groupBy !== undefined && groupBy !== 'day') {
    details.push({
      path: 'group_by',
      code: 'invalid_value',
      message: `group_by must be "day", got ${JSON.stringify(groupBy)}`,
    });
  }
  if (rawFrom !== null && rawTo !== null) {
    const to = rawTo ?? parseDate(now.slice(0, 10))!;
    const from = rawFrom ?? to - (DEFAULT_USAGE_DAYS - 1) * DAY_MS;
    const days = (to - from) / DAY_MS + 1;
    if (from > to)
      details.push({
        path: 'from',
        code: 'invalid_value',
        message: `from (${isoDate(from)}) is after to (${isoDate(to)})`,
      });
    else if (days > MAX_USAGE_DAYS)
      details.push({
        path: 'from',
        code: 'out_of_range',
        message: `the range may span at most ${MAX_USAGE_DAYS} days, got ${days}`,
      });
    if (details.length === 0) return { from: isoDate(from), to: isoDate(to), byDay: groupBy === 'day' };
  }
  throw new ApiError('validation_failed', 'the query is invalid', details);
}

/** Wire figures of one day or of the sum of days (credits, ms, counts). */
function figures(u: Omit<UsageDay, 'id' | 'orgId' | 'date' | 'position'>): Record<string, unknown> {
  return {
    jobs: u.jobs,
    by_status: { ...u.byStatus },
    credits: toCredits(u.creditsMicros),
    by_component: {
      base: toCredits(u.byComponent.base),
      vehicles: toCredits(u.byComponent.vehicles),
      compute: toCredits(u.byComponent.compute),
      large_load: toCredits(u.byComponent.large_load),
    },
    compute_ms: u.computeMsBilled,
    items_placed: u.itemsPlaced,
    vehicles_used: u.vehiclesUsed,
  };
}

/** Spec Usage of organization `orgId` over the query's dates. */
export async function usageView(ctx: RouteContext, orgId: string, query: UsageQuery): Promise<Record<string, unknown>> {
  // One query for the whole range (at most 366 documents, index orgId, date); days without jobs have no document.
  const stored = await ctx.reads
    .collection<UsageDay>(USAGE_DAYS)
    .find({ where: { orgId, date: { gte: query.from, lte: query.to } } });
  const byDate = new Map(stored.map((d) => [d.date, d]));
  const total = emptyUsageDay(orgId, '');
  const days: Record<string, unknown>[] = [];
  for (let ms = Date.parse(`${query.from}T00:00:00Z`); ms <= Date.parse(`${query.to}T00:00:00Z`); ms += DAY_MS) {
    const date = isoDate(ms);
    const day = byDate.get(date) ?? emptyUsageDay(orgId, date);
    total.jobs += day.jobs;
    for (const s of Object.keys(total.byStatus) as (keyof UsageDay['byStatus'])[]) total.byStatus[s] += day.byStatus[s];
    total.creditsMicros += day.creditsMicros;
    for (const c of Object.keys(total.byComponent) as (keyof UsageDay['byComponent'])[])
      total.byComponent[c] += day.byComponent[c];
    total.computeMsBilled += day.computeMsBilled;
    total.itemsPlaced += day.itemsPlaced;
    total.vehiclesUsed += day.vehiclesUsed;
    if (query.byDay) days.push({ date, ...figures(day) });
  }
  return { from: query.from, to: query.to, totals: figures(total), days };
}

export function usageRouter(ctx: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);
  router.get('/v1/usage', authenticate(ctx, 'account:read'), async (req, res) => {
    const query = parseUsageQuery(req.query, ctx.clock());
    res.json(await usageView(ctx, callerOf(res).orgId, query));
  });
  return router;
}

/** Route module: router, OpenAPI docs and the Usage schemas. */
export const usageRoutes: RouteModule = {
  router: usageRouter,
  schemas: { Usage: usage, UsageFigures: usageFigures, UsageDay: usageDay },
  docs: [
    {
      method: 'get',
      path: '/v1/usage',
      operationId: 'getUsage',
      summary: "The organization's usage",
      description:
        'Jobs, their statuses, credits charged (by component), compute billed and what was loaded, over a range of UTC dates (default: the last 30 days ending today; at most 366 days), optionally per day.',
      tags: ['Account'],
      scopes: ['account:read'],
      parameters: [
        {
          name: 'from',
          in: 'query',
          description: `First day, YYYY-MM-DD (UTC; default: ${DEFAULT_USAGE_DAYS - 1} days before \`to\`)`,
          schema: { type: 'string', format: 'date' },
        },
        {
          name: 'to',
          in: 'query',
          description: 'Last day, inclusive, YYYY-MM-DD (UTC; default: today)',
          schema: { type: 'string', format: 'date' },
        },
        {
          name: 'group_by',
          in: 'query',
          description: '`day` lists every date of the range in `days`',
          schema: { type: 'string', enum: ['day'] },
        },
      ],
      responses: { '200': { description: 'The usage', schema: ref('Usage') } },
      errors: ['validation_failed'],
    },
  ],
};
