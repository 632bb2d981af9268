/** GET /health (no auth): 200 once the read models are rebuilt and the server listens, else 503. */
import { Router } from 'express';
import { sendError } from '../errors.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import type { Services } from '../services.js';

export function healthRouter(services: Services): Router {
  const router = Router(ROUTER_OPTIONS);
  router.get('/health', (_req, res) => {
    if (services.isReady()) res.json({ status: 'ok', position: services.projections.position });
    else sendError(res, 'api_disabled', 'the service is starting');
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
      description: '200 once the read models are rebuilt and the server listens; 503 `api_disabled` while starting.',
      tags: ['Service'],
      scopes: [],
      responses: {
        '200': {
          description: 'Ready',
          schema: {
            type: 'object',
            required: ['status', 'position'],
            properties: {
              status: { type: 'string', const: 'ok' },
              position: { type: 'integer', description: 'Last event-log position the read models applied' },
            },
          },
        },
      },
      errors: ['api_disabled'],
    },
  ],
};
