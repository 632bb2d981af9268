/**
 * Who may use the web app's own API (/app/api): the signed-in member of the session
 * cookie (401 unauthorized without one), the session's CSRF token on unsafe methods (403
 * forbidden), the owner for the console's routes (403 forbidden), an organization that is not
 * suspended for the routes that grant access (403 account_inactive), and a same-origin `Origin`
 * on sign-in and invitation acceptance (403 forbidden), which have no session yet.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  ORGANIZATIONS,
  type MemberDocument,
  type OrganizationDocument,
} from '../../projections/organizations/projection.js';
import type { WebSessionDocument } from '../../projections/sessions/projection.js';
import { ApiError } from '../http/errors.js';
import type { SessionSettings, LinkSettings } from '../http/context.js';
import type { UseCasePorts } from '../../application/ports.js';
import { activeSession, checkCsrf, csrfTokenOf, isUnsafeMethod } from './web-session.js';

/** The signed-in member of a /app/api request (set by `requireWebSession`). */
export interface WebCaller {
  session: WebSessionDocument;
  org: OrganizationDocument;
  member: MemberDocument & { id: string };
}

export const webCallerOf = (res: Response): WebCaller => res.locals['webCaller'] as WebCaller;

/** The member of an active session with their organization, or null when the session or the member is gone. */
export async function webCallerFor(
  ctx: UseCasePorts & SessionSettings & LinkSettings,
  session: WebSessionDocument,
): Promise<WebCaller | null> {
  const org = await ctx.reads.collection<OrganizationDocument>(ORGANIZATIONS).get(session.orgId);
  const member = org?.members[session.memberId];
  return org && member ? { session, org, member: { ...member, id: session.memberId } } : null;
}

/** Middleware: an active session (401 unauthorized), and on unsafe methods its CSRF token (403 forbidden). */
export function requireWebSession(ctx: UseCasePorts & SessionSettings & LinkSettings): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const session = await activeSession(ctx, req);
    const caller = session ? await webCallerFor(ctx, session) : null;
    if (!caller) throw new ApiError('unauthorized', 'not signed in');
    if (isUnsafeMethod(req.method)) checkCsrf(ctx, req, caller.session.sessionId);
    res.locals['webCaller'] = caller;
    next();
  };
}

/** Middleware after requireWebSession: the organization's owner only (403 forbidden). */
export const requireOwner: RequestHandler = (_req, res, next) => {
  if (webCallerOf(res).member.role !== 'owner')
    throw new ApiError('forbidden', "only the organization's owner may do this");
  next();
};

/**
 * Middleware after requireWebSession, on the routes that grant new access (API keys made or
 * rotated, invitations issued): refused with 403 account_inactive while the organization is
 * suspended (spec Errors: "Organization suspended"). What closes doors (revoking keys, links
 * and invitations, removing members, signing out, changing one's password) stays open.
 */
export const requireActiveOrganization: RequestHandler = (_req, res, next) => {
  if (webCallerOf(res).org.suspended) throw new ApiError('account_inactive', SUSPENDED_MESSAGE);
  next();
};

/** The message of a change refused while the organization is suspended. */
export const SUSPENDED_MESSAGE =
  'the organization is suspended: no new API keys, rotations or members until the operator lifts the suspension';

/**
 * Middleware: when the request has an `Origin` header it must be this service's origin (the
 * public URL's, or the request's own scheme and Host); else 403 forbidden. Guards sign-in and
 * invitation acceptance against cross-site form posts (login CSRF).
 */
export function requireSameOrigin(ctx: UseCasePorts & SessionSettings & LinkSettings): RequestHandler {
  return (req, _res, next) => {
    const origin = req.get('origin');
    if (origin === undefined) return next();
    const own = new Set([`${req.protocol}://${req.get('host') ?? ''}`]);
    if (ctx.publicBaseUrl) own.add(new URL(ctx.publicBaseUrl).origin);
    if (!own.has(origin))
      throw new ApiError('forbidden', `requests from ${origin} are not accepted; use the web app of this service`);
    next();
  };
}

/**
 * The body of GET/POST /app/api/session: the member, their organization and the session's CSRF
 * token. The organization carries what the web app adapts to: `display_units` (`metric` unless
 * the owner chose `imperial`: how lengths and weights are shown and typed), `allowed_vehicle_types`
 * (the types its plan accepts, spec Limits) and `axle_access` (axle fields are checked, spec Vehicle).
 */
export function sessionView(
  ctx: UseCasePorts & SessionSettings & LinkSettings,
  caller: WebCaller,
): Record<string, unknown> {
  const { org } = caller;
  return {
    user: {
      id: caller.member.id,
      name: caller.member.name,
      email: caller.member.email ?? null,
      role: caller.member.role,
    },
    organization: {
      id: org.id,
      name: org.name,
      display_units: org.displayUnits ?? 'metric',
      allowed_vehicle_types: org.limits.allowedVehicleTypes,
      axle_access: org.axleAccess,
    },
    csrf_token: csrfTokenOf(ctx, caller.session.sessionId),
  };
}
