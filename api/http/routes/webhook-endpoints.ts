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
 * scope_missing (api/http/auth/auth.ts). An endpoint whose creator was removed is listed with `status:
 * "disabled"` and `disabled_reason: "creator_removed"` (application/member-webhooks.ts) until deleted.
 * Registration and deletion are commands of domain/webhook/endpoint.ts; reads come from
 * projections/webhooks.
 */
import { randomBytes } from 'node:crypto';
import { Router, type Request } from 'express';
import { checkWebhookTarget } from '../../../adapters/http/webhook-target.js';
import { handleCommand } from '../../../domain/decider/handle.js';
import type { WebhookEventKind } from '../../../domain/webhook/event-kinds.js';
import { webhookEndpointDecider, type WebhookEndpointCommand } from '../../../domain/webhook/endpoint.js';
import { webhookEndpointStream } from '../../../domain/webhook/streams.js';
import {
  WEBHOOK_DELIVERIES,
  WEBHOOK_ENDPOINTS,
  type WebhookDeliveryDocument,
  type WebhookEndpointDocument,
} from '../../../projections/webhooks/projection.js';
import { actorOf } from '../auth/actor.js';
import { authenticate, callerOf, type Caller } from '../auth/auth.js';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { newId } from '../../../application/id.js';
import { listPage, parseListQuery } from '../paging.js';
import { ROUTER_OPTIONS, type RouteModule } from '../route-docs.js';
import { listSchema, refuseProblems, requireObject, schemaProblemsOf } from '../saved-record.js';
import type { RouteContext, HttpSettings } from '../context.js';
import {
  deliverySchema,
  deliveryView,
  endpointSchema,
  endpointView,
  inputSchema,
  validateInput,
} from '../webhooks/shape.js';
import { WEBHOOK_DOCS } from '../webhooks/docs.js';

/** Most live webhook endpoints per organization. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

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
    const query = parseListQuery(req.query, caller);
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
    const query = parseListQuery(req.query, caller);
    await ownEndpoint(caller, id);
    const page = await listPage(deliveries(), { where: { endpointId: id, orgId: caller.orgId } }, query);
    res.json({ data: page.data.map(deliveryView), next_cursor: page.next_cursor });
  });

  return router;
}

/** Route module: router, OpenAPI docs and the webhook schemas. */
export const webhookEndpointsRoutes: RouteModule = {
  router,
  docs: WEBHOOK_DOCS,
  schemas: {
    WebhookEndpointInput: inputSchema,
    WebhookEndpoint: endpointSchema,
    WebhookDelivery: deliverySchema,
    WebhookEndpointList: listSchema('WebhookEndpointList', 'WebhookEndpoint'),
    WebhookDeliveryList: listSchema('WebhookDeliveryList', 'WebhookDelivery'),
  },
};
