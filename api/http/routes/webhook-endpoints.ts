/**
 * Webhook endpoints (our extension, not in the spec):
 * - POST /v1/webhook_endpoints `{url, events}` (webhooks:write): 201 WebhookEndpoint with its
 *   signing `secret`, shown this once. 400 invalid_json for a body that is not an object or a
 *   field of the wrong type; 422 validation_failed for an unknown event kind, a URL that is not
 *   https/http, a host that does not resolve or resolves to an internal address (unless
 *   WEBHOOK_ALLOW_PRIVATE_TARGETS=true; detail `invalid_value` at `url`, the message starting
 *   with invalid_url, unsupported_scheme, unresolvable_host or private_target); 403
 *   plan_limit_reached beyond MAX_WEBHOOK_ENDPOINTS live endpoints.
 * - GET /v1/webhook_endpoints (webhooks:read): `{data, next_cursor}`, newest first, `limit`/`cursor`.
 * - GET, DELETE /v1/webhook_endpoints/{id} (read / write): 404 not_found for an unknown,
 *   deleted or other organization's id. DELETE answers `Deleted`; its pending deliveries are dropped.
 * - GET /v1/webhook_endpoints/{id}/deliveries (webhooks:read): the endpoint's deliveries, newest
 *   first, each with every attempt.
 * Roles: the scopes webhooks:read/write are the owner's; a member's web app session gets 403
 * scope_missing (api/http/auth.ts). An endpoint whose creator was removed is listed with `status:
 * "disabled"` and `disabled_reason: "creator_removed"` (application/member-webhooks.ts) until deleted.
 * Registration and deletion are commands of domain/webhook/endpoint.ts; reads come from
 * projections/webhooks.
 */
import { randomBytes } from 'node:crypto';
import { Router, type Request } from 'express';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { checkWebhookTarget } from '../../../adapters/http/webhook-target.js';
import { handleCommand } from '../../../domain/decider/handle.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../../../domain/webhook/event-kinds.js';
import { webhookEndpointDecider, type WebhookEndpointCommand } from '../../../domain/webhook/endpoint.js';
import { webhookEndpointStream } from '../../../domain/webhook/streams.js';
import {
  WEBHOOK_DELIVERIES,
  WEBHOOK_ENDPOINTS,
  type WebhookDeliveryDocument,
  type WebhookEndpointDocument,
} from '../../../projections/webhooks/projection.js';
import { actorOf } from '../actor.js';
import { authenticate, callerOf, type Caller } from '../auth.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { newId } from '../../../application/id.js';
import { ref } from '../openapi/components.js';
import { listPage, parseListQuery } from '../paging.js';
import { ROUTER_OPTIONS, type JsonSchema, type ParameterDoc, type RouteDoc, type RouteModule } from '../route-docs.js';
import { listSchema, refuseProblems, requireObject, schemaProblemsOf } from '../saved-record.js';
import type { RouteContext, HttpSettings } from '../context.js';

/** Most live webhook endpoints per organization. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

const EXTENSION = 'Our extension (not in the spec).';

const inputSchema: JsonSchema = {
  title: 'WebhookEndpointInput',
  description: `${EXTENSION} Where to send which job events.`,
  type: 'object',
  additionalProperties: false,
  required: ['url', 'events'],
  properties: {
    url: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: 'https:// or http:// URL; its host must resolve to public addresses only',
    },
    events: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { enum: [...WEBHOOK_EVENT_KINDS] },
      description: 'Event kinds to receive',
    },
  },
};
const validateInput = new Ajv2020({ allErrors: true, strict: false }).compile(inputSchema);

const endpointSchema: JsonSchema = {
  title: 'WebhookEndpoint',
  description: `${EXTENSION} A URL receiving signed job events: POST \`{id, type, created_at, data: {job}}\` with \`Packing-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with secret>\` and \`Packing-Event-Id\` (the same on every retry: de-duplicate by it; delivery is at least once).`,
  type: 'object',
  required: ['id', 'object', 'url', 'events', 'status', 'disabled_reason', 'disabled_at', 'created_at', 'created_by'],
  properties: {
    id: { type: 'string', description: 'whe_…' },
    object: { const: 'webhook_endpoint' },
    url: { type: 'string' },
    events: { type: 'array', items: { enum: [...WEBHOOK_EVENT_KINDS] } },
    status: {
      enum: ['active', 'disabled'],
      description:
        'disabled: nothing is sent to it any more (see disabled_reason); delete it when it is no longer wanted',
    },
    disabled_reason: {
      enum: ['creator_removed', null],
      description: 'creator_removed: the member who created it was removed from the organization',
    },
    disabled_at: { type: ['string', 'null'], format: 'date-time' },
    secret: {
      type: 'string',
      description: 'whsec_…: the signing secret, only in the answer to the POST that created the endpoint',
    },
    created_at: { type: 'string', format: 'date-time' },
    created_by: {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'string' }, name: { type: 'string' } },
    },
  },
};

const attemptSchema: JsonSchema = {
  type: 'object',
  required: ['attempt', 'attempted_at', 'status_code', 'error', 'succeeded'],
  properties: {
    attempt: { type: 'integer', minimum: 1 },
    attempted_at: { type: 'string', format: 'date-time' },
    status_code: { type: ['integer', 'null'], description: 'HTTP status of the answer; null when none came' },
    error: { type: ['string', 'null'], description: 'Why no answer came (refused target, DNS, timeout, connection)' },
    succeeded: { type: 'boolean', description: 'A 2xx answer' },
  },
};

const deliverySchema: JsonSchema = {
  title: 'WebhookDelivery',
  description: `${EXTENSION} One event sent to one endpoint. Failed attempts are retried with exponential backoff for three days.`,
  type: 'object',
  required: [
    'id',
    'object',
    'endpoint_id',
    'event_id',
    'type',
    'job_id',
    'status',
    'attempts',
    'next_attempt_at',
    'created_at',
  ],
  properties: {
    id: { type: 'string', description: 'whd_…' },
    object: { const: 'webhook_delivery' },
    endpoint_id: { type: 'string' },
    event_id: { type: 'string', description: 'evt_…: the `id` of the body and the Packing-Event-Id header' },
    type: { enum: [...WEBHOOK_EVENT_KINDS] },
    job_id: { type: 'string' },
    status: {
      enum: ['pending', 'succeeded', 'failed', 'dropped'],
      description: 'failed: given up after the retry window; dropped: the endpoint was deleted or disabled first',
    },
    attempts: { type: 'array', items: attemptSchema },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
  },
};

const endpointView = (d: WebhookEndpointDocument, secret?: string): Record<string, unknown> => ({
  id: d.id,
  object: 'webhook_endpoint',
  url: d.url,
  events: d.events,
  status: d.disabledAt ? 'disabled' : 'active',
  disabled_reason: d.disabledReason ?? null,
  disabled_at: d.disabledAt ?? null,
  ...(secret !== undefined ? { secret } : {}),
  created_at: d.createdAt,
  created_by: d.createdBy,
});

const deliveryView = (d: WebhookDeliveryDocument): Record<string, unknown> => ({
  id: d.id,
  object: 'webhook_delivery',
  endpoint_id: d.endpointId,
  event_id: d.eventId,
  type: d.type,
  job_id: d.jobId,
  status: d.status,
  attempts: d.attempts.map((a) => ({
    attempt: a.attempt,
    attempted_at: a.attemptedAt,
    status_code: a.statusCode,
    error: a.error,
    succeeded: a.succeeded,
  })),
  next_attempt_at: d.nextAttemptAt,
  created_at: d.createdAt,
});

const ID_PATTERN = /^whe_[a-z0-9]+$/;
const idParam = (req: Request): string => String(req.params['id']);

function router(ctx: RouteContext & Pick<HttpSettings, 'webhookAllowPrivateTargets'>): Router {
  const router = Router(ROUTER_OPTIONS);
  const endpoints = () => ctx.reads.collection<WebhookEndpointDocument>(WEBHOOK_ENDPOINTS);
  const deliveries = () => ctx.reads.collection<WebhookDeliveryDocument>(WEBHOOK_DELIVERIES);

  async function ownEndpoint(caller: Caller, id: string): Promise<WebhookEndpointDocument> {
    const doc = ID_PATTERN.test(id) ? await endpoints().get(id) : undefined;
    if (!doc || doc.deleted || doc.orgId !== caller.orgId)
      throw new ApiError('not_found', `no webhook endpoint of the organization has the id "${id}"`);
    return doc;
  }
  async function run(command: WebhookEndpointCommand): Promise<void> {
    const done = await handleCommand(
      ctx.store,
      webhookEndpointStream(command.data.endpointId),
      webhookEndpointDecider,
      command,
    );
    await ctx.projections.waitFor(done.position);
  }

  router.post('/v1/webhook_endpoints', authenticate(ctx, 'webhooks:write'), async (_req, res) => {
    const caller = callerOf(res);
    const body = requireObject(jsonBody(_req));
    refuseProblems(schemaProblemsOf(validateInput, body), 'webhook endpoint');
    const url = body['url'] as string;
    const target = await checkWebhookTarget(url, ctx.webhookAllowPrivateTargets ?? false);
    // The spec's detail vocabulary has no code per reason: the message names it (private_target…).
    if (!target.ok)
      refuseProblems(
        [{ path: 'url', code: 'invalid_value', message: `${target.code}: ${target.message}` }],
        'webhook endpoint',
      );
    const live = await endpoints().count({ where: { orgId: caller.orgId, deleted: false } });
    if (live >= MAX_WEBHOOK_ENDPOINTS) {
      throw new ApiError(
        'plan_limit_reached',
        `an organization has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`,
      );
    }
    const endpointId = newId('whe');
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    await run({
      type: 'RegisterWebhookEndpoint',
      data: { endpointId, orgId: caller.orgId, url, events: body['events'] as WebhookEventKind[], secret },
      metadata: { now: ctx.clock(), actor: actorOf(caller) },
    });
    res.status(201).json(endpointView(await ownEndpoint(caller, endpointId), secret));
  });

  router.get('/v1/webhook_endpoints', authenticate(ctx, 'webhooks:read'), async (req, res) => {
    const caller = callerOf(res);
    const query = parseListQuery(req.query as Record<string, unknown>, caller);
    const page = await listPage(endpoints(), { where: { orgId: caller.orgId, deleted: false } }, query);
    res.json({ data: page.data.map((d) => endpointView(d)), next_cursor: page.next_cursor });
  });

  router.get('/v1/webhook_endpoints/:id', authenticate(ctx, 'webhooks:read'), async (req, res) => {
    res.json(endpointView(await ownEndpoint(callerOf(res), idParam(req))));
  });

  router.delete('/v1/webhook_endpoints/:id', authenticate(ctx, 'webhooks:write'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    await ownEndpoint(caller, id);
    await run({
      type: 'DeleteWebhookEndpoint',
      data: { endpointId: id, orgId: caller.orgId },
      metadata: { now: ctx.clock(), actor: actorOf(caller) },
    });
    res.json({ id, object: 'webhook_endpoint', deleted: true });
  });

  router.get('/v1/webhook_endpoints/:id/deliveries', authenticate(ctx, 'webhooks:read'), async (req, res) => {
    const caller = callerOf(res);
    const id = idParam(req);
    const query = parseListQuery(req.query as Record<string, unknown>, caller);
    await ownEndpoint(caller, id);
    const page = await listPage(deliveries(), { where: { endpointId: id, orgId: caller.orgId } }, query);
    res.json({ data: page.data.map(deliveryView), next_cursor: page.next_cursor });
  });

  return router;
}

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

const docs: RouteDoc[] = [
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

/** Route module: router, OpenAPI docs and the webhook schemas. */
export const webhookEndpointsRoutes: RouteModule = {
  router,
  docs,
  schemas: {
    WebhookEndpointInput: inputSchema,
    WebhookEndpoint: endpointSchema,
    WebhookDelivery: deliverySchema,
    WebhookEndpointList: listSchema('WebhookEndpointList', 'WebhookEndpoint'),
    WebhookDeliveryList: listSchema('WebhookDeliveryList', 'WebhookDelivery'),
  },
};
