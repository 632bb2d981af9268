/**
 * The web app's invitation routes (issue 11; the web app's own API, not in the OpenAPI document):
 * - GET /app/api/invitations/:token → 200 {organization, email, role, expires_at}; 404 not_found
 *   for an unknown, used or expired token;
 * - POST /app/api/invitations/:token/accept {name, password} → 200 like POST /app/api/session
 *   (the member is signed in); 404 as above; 409 conflict when the email signs in already;
 * - POST /app/api/invitations {email, role?: 'member'} (owner) → 201 {id, url, token, email, role, expires_at}.
 */
import { Router } from 'express';
import { jsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { acceptInvitation, invitationPath, invitationTokenHash, issueInvitation } from '../invitations.js';
import { ORGANIZATIONS, INVITATIONS, type InvitationDocument, type OrganizationDocument } from '../../projections/organizations/projection.js';
import { ROUTER_OPTIONS } from '../route-docs.js';
import type { Services } from '../services.js';
import { checkedBody, validateAccept, validateInvite } from '../web-app-bodies.js';
import { requireOwner, requireSameOrigin, requireWebSession, webCallerOf } from '../web-app-access.js';
import { answerNewSession } from './web-app-session.js';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const GONE = 'no such invitation, or it was used or has expired';

/** The open invitation of `token` with its organization; 404 not_found otherwise. */
async function openInvitation(services: Services, token: unknown): Promise<{ invitation: InvitationDocument; org: OrganizationDocument }> {
  if (typeof token !== 'string' || !TOKEN.test(token)) throw new ApiError('not_found', GONE);
  const invitation = await services.reads.collection<InvitationDocument>(INVITATIONS).get(invitationTokenHash(token));
  if (!invitation || invitation.acceptedAt !== null || invitation.expiresAt <= services.clock()) throw new ApiError('not_found', GONE);
  const org = await services.reads.collection<OrganizationDocument>(ORGANIZATIONS).get(invitation.orgId);
  if (!org) throw new ApiError('not_found', GONE);
  return { invitation, org };
}

/** Router of /app/api/invitations. */
export function webAppInvitationsRouter(services: Services): Router {
  const router = Router(ROUTER_OPTIONS);

  router.get('/app/api/invitations/:token', async (req, res) => {
    const { invitation, org } = await openInvitation(services, req.params['token']);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ organization: { id: org.id, name: org.name }, email: invitation.email, role: invitation.role, expires_at: invitation.expiresAt });
  });

  router.post('/app/api/invitations/:token/accept', requireSameOrigin(services), async (req, res) => {
    const { invitation } = await openInvitation(services, req.params['token']);
    const { name, password } = checkedBody<{ name: string; password: string }>(validateAccept, jsonBody(req));
    const accepted = await acceptInvitation(services.store, { orgId: invitation.orgId, token: String(req.params['token']), name, password, now: services.clock() });
    await services.projections.waitFor(accepted.position);
    await answerNewSession(services, res, invitation.orgId, accepted.memberId);
  });

  router.post('/app/api/invitations', requireWebSession(services), requireOwner, async (req, res) => {
    const { org, member } = webCallerOf(res);
    const { email } = checkedBody<{ email: string; role?: 'member' }>(validateInvite, jsonBody(req));
    const issued = await issueInvitation(services.store, { orgId: org.id, email, role: 'member', now: services.clock(), actor: { id: member.id, name: member.name } });
    await services.projections.waitFor(issued.position);
    res.status(201).json({
      id: issued.invitationId,
      url: invitationPath(issued.token),
      token: issued.token,
      email: issued.email,
      role: issued.role,
      expires_at: issued.expiresAt,
    });
  });
  return router;
}
