/**
 * GET /metrics (operator-facing): the service's metrics (api/http/metrics.ts) in the
 * Prometheus text format. No API key: customers' keys never read it. When `METRICS_TOKEN` is set
 * (HttpSettings.metricsToken), it requires `Authorization: Bearer <that token>` (else 401
 * unauthorized); unset, anyone who reaches the port may read it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import { ApiError } from '../errors.js';
import { metricsOf } from '../metrics.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import type { MetricsPorts } from '../metrics.js';
import type { HttpSettings } from '../context.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** True when `header` is `Bearer <token>` (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (\S+)$/.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

export function metricsRouter(ctx: MetricsPorts & Pick<HttpSettings, 'metricsToken'>): Router {
  const router = Router(ROUTER_OPTIONS);
  const metrics = metricsOf(ctx);
  router.get('/metrics', async (req, res) => {
    const token = ctx.metricsToken;
    if (token && !bearerMatches(req.get('authorization'), token)) {
      throw new ApiError('unauthorized', 'send Authorization: Bearer <METRICS_TOKEN>');
    }
    const text = await metrics.registry.metrics();
    res.type(metrics.registry.contentType).send(text);
  });
  return router;
}

/** Route module: router and OpenAPI docs. */
export const metricsRoutes: RouteModule = {
  router: metricsRouter,
  docs: [
    {
      method: 'get',
      path: '/metrics',
      operationId: 'getMetrics',
      summary: 'Operator metrics (Prometheus text format)',
      description:
        'HTTP requests by route pattern and status with latency histograms, jobs by status, queue depth, compute seconds, event store and read-model positions. Not for API keys: when the operator set `METRICS_TOKEN`, send `Authorization: Bearer <METRICS_TOKEN>`.',
      tags: ['Service'],
      scopes: [],
      responses: {
        '200': {
          description: 'Prometheus text exposition format 0.0.4',
          contentType: 'text/plain',
          schema: { type: 'string' },
        },
      },
      errors: ['unauthorized'],
    },
  ],
};
