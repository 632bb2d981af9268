/**
 * GET /health (no auth): 200 once the read models are rebuilt and the server listens, else 503.
 * In maintenance mode it stays 200 with `status: "maintenance"`: the process is healthy and
 * answers every /v1 call with the right 503 and Retry-After, whereas a 503 here would make a load
 * balancer drop every instance and answer clients with its own error instead.
 */
import { Router } from 'express';
import { sendError } from '../errors.js';
import { maintenanceOf } from '../operator-switches.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import type { Services } from '../services.js';

export function healthRouter(services: Services): Router {
  const router = Router(ROUTER_OPTIONS);
  router.get('/health', async (_req, res) => {
    if (!services.isReady()) return sendError(res, 'api_disabled', 'the service is starting');
    const maintenance = await maintenanceOf(services);
    const position = services.projections.position;
    if (maintenance) res.json({ status: 'maintenance', position, maintenance: { message: maintenance.message, since: maintenance.since } });
    else res.json({ status: 'ok', position });
  });
  return router;
}

/** Route module: router and OpenAPI docs. */
export const healthRoutes: RouteModule = {
  router: healthRouter,
  docs: [
    {
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      summary: 'Readiness of the service',
      description:
        '200 once the read models are rebuilt and the server listens (`status` `maintenance` while the operator has the API down for maintenance: /v1 calls then answer 503 `api_disabled`); 503 `api_disabled` while starting.',
      tags: ['Service'],
      scopes: [],
      responses: {
        '200': {
          description: 'Ready',
          schema: {
            type: 'object',
            required: ['status', 'position'],
            properties: {
              status: { type: 'string', enum: ['ok', 'maintenance'] },
              position: { type: 'integer', description: 'Last event-log position the read models applied' },
              maintenance: {
                type: 'object',
                description: 'Only in maintenance mode: the operator\'s message and since when',
                required: ['message', 'since'],
                properties: { message: { type: 'string' }, since: { type: 'string', format: 'date-time' } },
              },
            },
          },
        },
      },
      errors: ['api_disabled'],
    },
  ],
};
