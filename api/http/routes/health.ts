/**
 * GET /health (no auth): the process's readiness and the state of the engines it depends on
 * (adapters/health/dependency-health.ts). 503 `api_disabled` while starting. Once ready, 200 with `status`:
 * `ok` (every dependency up), `degraded` (a dependency down for less than the grace period, or one
 * no role of the process needs: an API process serves reads from its read models while the event
 * store is down), `maintenance` (the operator has the API down for maintenance; it stays 200: the
 * process is healthy and answers every /v1 call with the right 503 and Retry-After, whereas a 503
 * here would make a load balancer drop every instance and answer clients with its own error); and
 * 503 `api_disabled` with Retry-After, and beside the error envelope `status: "down"` and the
 * dependencies, once a dependency its roles need has been down longer than the grace period
 * (DEPENDENCY_GRACE_MS). `dependencies` holds `up` or `down since <RFC 3339>`
 * per dependency the process uses.
 */
import { Router } from 'express';
import { sendError } from '../errors.js';
import { DEPENDENCY_RETRY_AFTER_SECONDS, type HealthReport } from '../../../adapters/health/dependency-health.js';
import { maintenanceOf } from '../auth/operator-switches.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import type { HealthProbes } from '../context.js';
import type { UseCasePorts } from '../../../application/ports.js';

const EVERYTHING_UP: HealthReport = { status: 'ok', dependencies: {} };

export function healthRouter(ctx: HealthProbes & Pick<UseCasePorts, 'reads' | 'projections'>): Router {
  const router = Router(ROUTER_OPTIONS);
  router.get('/health', async (_req, res) => {
    if (!ctx.isReady()) return sendError(res, 'api_disabled', 'the service is starting');
    const report = ctx.health?.report() ?? EVERYTHING_UP;
    // With the read store down the switch cannot be read; `dependencies` says so.
    const maintenance = await maintenanceOf(ctx).catch(() => null);
    const position = ctx.projections.position;
    const { dependencies } = report;
    if (report.status === 'down') {
      // Every non-2xx answer carries the error envelope; the health fields ride beside it.
      const down = Object.entries(dependencies)
        .filter(([, state]) => state !== 'up')
        .map(([d, state]) => `${d} ${state}`);
      res.setHeader('Retry-After', String(DEPENDENCY_RETRY_AFTER_SECONDS));
      sendError(res, 'api_disabled', `a dependency is down past the grace period: ${down.join(', ')}`, undefined, {
        status: 'down',
        position,
        dependencies,
      });
    } else if (maintenance)
      res.json({
        status: 'maintenance',
        position,
        dependencies,
        maintenance: { message: maintenance.message, since: maintenance.since },
      });
    else res.json({ status: report.status, position, dependencies });
  });
  return router;
}

const HEALTH_BODY = {
  type: 'object',
  required: ['status', 'position', 'dependencies'],
  properties: {
    status: {
      type: 'string',
      enum: ['ok', 'degraded', 'maintenance', 'down'],
      description:
        '`ok`: every dependency up; `degraded`: one is down for less than the grace period, or one no role of this process needs (an API process answers reads from its read models while the event store is down, and writes with 503 `api_disabled`); `maintenance`: the operator has the API down for maintenance; `down` (only with 503): a dependency this process needs has been down longer than the grace period (DEPENDENCY_GRACE_MS, default 60 s)',
    },
    position: { type: 'integer', description: 'Last event-log position the read models applied' },
    dependencies: {
      type: 'object',
      description: 'Each engine this process uses: `up`, or `down since <RFC 3339 time>`',
      properties: {
        event_store: { type: 'string', pattern: '^(up|down since .+)$', example: 'up' },
        read_store: { type: 'string', pattern: '^(up|down since .+)$', example: 'up' },
        bus: { type: 'string', pattern: '^(up|down since .+)$', example: 'down since 2026-11-26T00:41:07.118Z' },
      },
    },
    maintenance: {
      type: 'object',
      description: "Only in maintenance mode: the operator's message and since when",
      required: ['message', 'since'],
      properties: { message: { type: 'string' }, since: { type: 'string', format: 'date-time' } },
    },
  },
};

/** Route module: router and OpenAPI docs. */
export const healthRoutes: RouteModule = {
  router: healthRouter,
  docs: [
    {
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Readiness of the service and of the engines it depends on',
      description:
        '200 once the read models are rebuilt and the server listens, with the state of each engine the process uses (`status` `degraded` while one is down but the process still serves; `maintenance` while the operator has the API down for maintenance: /v1 calls then answer 503 `api_disabled`). 503 `api_disabled` while starting; 503 `api_disabled` once an engine this process needs has been down longer than the grace period (DEPENDENCY_GRACE_MS, default 60 s), with `status` `down`, `position` and `dependencies` beside the error envelope.',
      tags: ['Service'],
      scopes: [],
      responses: {
        '200': { description: 'Ready', schema: HEALTH_BODY },
      },
      errors: ['api_disabled'],
    },
  ],
};
