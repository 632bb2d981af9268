/** The OpenAPI operations of the webhook endpoints (our extension): register, list, get, delete, deliveries. */
import { ref } from '../openapi/components.js';
import type { ParameterDoc, RouteDoc } from '../route-docs.js';
import { EXTENSION } from './shape.js';

const idParameter: ParameterDoc = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'whe_…',
  schema: { type: 'string' },
};
const PAGE_PARAMETERS: ParameterDoc[] = [
  {
    name: 'limit',
    in: 'query',
    description: 'Page size, 1–100, default 20',
    schema: { type: 'integer', minimum: 1, maximum: 100 },
  },
  { name: 'cursor', in: 'query', description: 'next_cursor of the previous page', schema: { type: 'string' } },
];
const common = { tags: ['Webhooks'] };

/** The OpenAPI operations of /v1/webhook_endpoints. */
export const WEBHOOK_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/v1/webhook_endpoints',
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description: `${EXTENSION} Registers a URL for job events (\`job.succeeded\`, \`job.failed\`, \`job.canceled\`, sent once the job's cost is settled). The answer shows the signing \`secret\` once. The URL must be https or http and its host must not resolve to private, loopback, link-local or other internal addresses (checked again at every delivery).`,
    ...common,
    scopes: ['webhooks:write'],
    requestBody: { description: 'The endpoint', schema: ref('WebhookEndpointInput'), required: true },
    responses: { '201': { description: 'The endpoint with its secret (shown once)', schema: ref('WebhookEndpoint') } },
    errors: ['invalid_json', 'validation_failed', 'plan_limit_reached', 'payload_too_large'],
  },
  {
    method: 'get',
    path: '/v1/webhook_endpoints',
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: `${EXTENSION} The organization's endpoints, newest first (without secrets), disabled ones included (\`status\`).`,
    ...common,
    scopes: ['webhooks:read'],
    parameters: PAGE_PARAMETERS,
    responses: { '200': { description: 'A page of endpoints', schema: ref('WebhookEndpointList') } },
    errors: ['validation_failed'],
  },
  {
    method: 'get',
    path: '/v1/webhook_endpoints/{id}',
    operationId: 'getWebhookEndpoint',
    summary: 'Get a webhook endpoint',
    description: `${EXTENSION} One endpoint (without its secret).`,
    ...common,
    scopes: ['webhooks:read'],
    parameters: [idParameter],
    responses: { '200': { description: 'The endpoint', schema: ref('WebhookEndpoint') } },
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/webhook_endpoints/{id}',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: `${EXTENSION} Stops deliveries to the endpoint; pending ones are dropped.`,
    ...common,
    scopes: ['webhooks:write'],
    parameters: [idParameter],
    responses: { '200': { description: 'Deleted', schema: ref('Deleted') } },
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/webhook_endpoints/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "List an endpoint's deliveries",
    description: `${EXTENSION} Every event sent (or being sent) to the endpoint, newest first, each with every attempt.`,
    ...common,
    scopes: ['webhooks:read'],
    parameters: [idParameter, ...PAGE_PARAMETERS],
    responses: { '200': { description: 'A page of deliveries', schema: ref('WebhookDeliveryList') } },
    errors: ['not_found', 'validation_failed'],
  },
];
