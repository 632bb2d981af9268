/**
 * The organization's settings in the owner's console (the web app's own API, not in the OpenAPI
 * document). Owner only (403 forbidden for members), with the session's CSRF token:
 * - PUT /app/api/organization/display_units {display_units: 'metric' | 'imperial'} → 200 the
 *   session's body (GET /app/api/session) with `organization.display_units` as chosen; 422
 *   validation_failed for any other body, 400 invalid_json for a body that is no JSON. Choosing
 *   the current preference changes nothing and answers the same.
 *
 * The preference decides how people see lengths and weights in the web app, the viewer and the
 * PDF plan (metric: cm and kg; imperial: in and lb); the API keeps speaking cm and kg.
 */
import { Router } from 'express';
import { handleCommand } from '../../../domain/decider/handle.js';
import { organizationDecider } from '../../../domain/organization/decide.js';
import type { DisplayUnits } from '../../../domain/organization/organization.js';
import { orgStream } from '../../../domain/organization/streams.js';
import { jsonBody } from '../../http/body.js';
import { ApiError } from '../../http/errors.js';
import { ROUTER_OPTIONS } from '../../http/route-docs.js';
import type { RouteContext } from '../../http/context.js';
import { checkedBody, validateDisplayUnits } from '../bodies.js';
import { requireOwner, requireWebSession, sessionView, webCallerFor, webCallerOf } from '../access.js';

/** Router of /app/api/organization. */
export function webAppOrganizationRouter(ctx: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);

  router.put('/app/api/organization/display_units', requireWebSession(ctx), requireOwner, async (req, res) => {
    const { session, org, member } = webCallerOf(res);
    const { display_units } = checkedBody<{ display_units: DisplayUnits }>(validateDisplayUnits, jsonBody(req));
    const chosen = await handleCommand(ctx.store, orgStream(org.id), organizationDecider, {
      type: 'ChooseDisplayUnits',
      data: { displayUnits: display_units },
      metadata: { now: ctx.clock(), actor: { id: member.id, name: member.name } },
    });
    await ctx.projections.waitFor(chosen.position);
    const caller = await webCallerFor(ctx, session);
    if (!caller) throw new ApiError('unauthorized', 'not signed in');
    res.setHeader('Cache-Control', 'no-store');
    res.json(sessionView(ctx, caller));
  });
  return router;
}
