/**
 * The web app's invitation routes (the web app's own API, not in the OpenAPI document):
 * - GET /app/api/invitations/:token → 200 {organization, email, role, expires_at}; 404 not_found
 *   for an unknown, used or expired token;
 * - POST /app/api/invitations/:token/accept {name, password} → 200 like POST /app/api/session
 *   (the member is signed in); 404 as above; 409 conflict when the email signs in already;
 * - POST /app/api/invitations {email, role?: 'member'} (owner) → 201 {id, url, token, email, role, expires_at}.
 * - GET /app/api/invitations (owner) → {data: [{id, email, role, purpose, invited_at, expires_at,
 *   invited_by}]}: the pending ones (not used, withdrawn or expired), newest first;
 * - DELETE /app/api/invitations/:id (owner) → 204; the link then answers 404 not_found
 *   "withdrawn"; 404 not_found when no pending invitation has that id.
 * A password reset (purpose `password_reset`, POST /app/api/members/:id/password-reset) is
 * accepted with {password} alone: the member keeps their name and id, all their sessions end.
 */
import { Router } from 'express';
import { jsonBody } from '../../http/body.js';
import { ApiError } from '../../http/errors.js';
import {
  acceptInvitation,
  invitationTokenHash,
  issueInvitation,
  revokeInvitation,
} from '../../../application/invitations.js';
import {
  ORGANIZATIONS,
  INVITATIONS,
  type InvitationDocument,
  type OrganizationDocument,
} from '../../../projections/organizations/projection.js';
import { ROUTER_OPTIONS } from '../../http/route-docs.js';
import { checkedBody, validateAccept, validateInvite, validateResetAccept } from '../bodies.js';
import {
  requireActiveOrganization,
  requireOwner,
  requireSameOrigin,
  requireWebSession,
  SUSPENDED_MESSAGE,
  webCallerOf,
} from '../access.js';
import { answerNewSession } from './session.js';
import { issuedInvitationAnswer } from '../invitation-view.js';
import type { HttpSettings, RouteContext } from '../../http/context.js';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const GONE = 'no such invitation, or it was used or has expired';
const WITHDRAWN = "this invitation was withdrawn by the organization's owner: ask them for a new one";

/** Longest wait for the read models to catch up with the log before an unknown invitation is 404, ms. */
const INVITATION_SYNC_MS = 3000;

/**
 * The open invitation of `token` with its organization; 404 not_found otherwise. An invitation
 * the read models do not know yet may have just been written by another process (`npm run admin
 * -- invite` prints its link at once): before answering 404 the read models catch up with every
 * event stored so far (read-your-writes across processes, at most INVITATION_SYNC_MS).
 */
async function openInvitation(
  ctx: RouteContext,
  token: unknown,
): Promise<{ invitation: InvitationDocument; org: OrganizationDocument }> {
  if (typeof token !== 'string' || !TOKEN.test(token)) throw new ApiError('not_found', GONE);
  const invitations = ctx.reads.collection<InvitationDocument>(INVITATIONS);
  const hash = invitationTokenHash(token);
  let invitation = await invitations.get(hash);
  if (!invitation && (await ctx.projections.sync(INVITATION_SYNC_MS))) invitation = await invitations.get(hash);
  if (invitation?.revokedAt) throw new ApiError('not_found', WITHDRAWN);
  if (!invitation || invitation.acceptedAt !== null || invitation.expiresAt <= ctx.clock())
    throw new ApiError('not_found', GONE);
  const org = await ctx.reads.collection<OrganizationDocument>(ORGANIZATIONS).get(invitation.orgId);
  if (!org) throw new ApiError('not_found', GONE);
  return { invitation, org };
}

/** Router of /app/api/invitations. */
export function webAppInvitationsRouter(ctx: RouteContext & Pick<HttpSettings, 'passwordCost'>): Router {
  const router = Router(ROUTER_OPTIONS);

  router.get('/app/api/invitations/:token', async (req, res) => {
    const { invitation, org } = await openInvitation(ctx, req.params['token']);
    res.setHeader('Cache-Control', 'no-store');
    const reset = invitation.purpose === 'password_reset';
    res.json({
      organization: { id: org.id, name: org.name },
      email: invitation.email,
      role: invitation.role,
      expires_at: invitation.expiresAt,
      purpose: invitation.purpose ?? null,
      ...(reset ? { name: org.members[invitation.memberId]?.name ?? null } : {}),
    });
  });

  router.post('/app/api/invitations/:token/accept', requireSameOrigin(ctx), async (req, res) => {
    const { invitation, org } = await openInvitation(ctx, req.params['token']);
    const reset = invitation.purpose === 'password_reset';
    // Joining a suspended organization grants access; a member's password reset does not.
    if (org.suspended && !reset) throw new ApiError('account_inactive', SUSPENDED_MESSAGE);
    const body = checkedBody<{ name?: string; password: string }>(
      reset ? validateResetAccept : validateAccept,
      jsonBody(req),
    );
    const password = body.password;
    // A reset keeps the member's name; a joining member chooses theirs.
    const name = reset ? (org.members[invitation.memberId]?.name ?? body.name ?? invitation.email) : body.name!;
    const accepted = await acceptInvitation(ctx.store, {
      orgId: invitation.orgId,
      token: String(req.params['token']),
      name,
      password,
      now: ctx.clock(),
      passwordCost: ctx.passwordCost,
    });
    await ctx.projections.waitFor(accepted.position);
    await answerNewSession(ctx, res, invitation.orgId, accepted.memberId);
  });

  router.post(
    '/app/api/invitations',
    requireWebSession(ctx),
    requireOwner,
    requireActiveOrganization,
    async (req, res) => {
      const { org, member } = webCallerOf(res);
      const { email } = checkedBody<{ email: string; role?: 'member' }>(validateInvite, jsonBody(req));
      const issued = await issueInvitation(ctx.store, {
        orgId: org.id,
        email,
        role: 'member',
        now: ctx.clock(),
        actor: { id: member.id, name: member.name },
      });
      await ctx.projections.waitFor(issued.position);
      res.status(201).json(issuedInvitationAnswer(issued));
    },
  );

  router.get('/app/api/invitations', requireWebSession(ctx), requireOwner, async (_req, res) => {
    const { org } = webCallerOf(res);
    const now = ctx.clock();
    const open = await ctx.reads
      .collection<InvitationDocument>(INVITATIONS)
      .find({ where: { orgId: org.id, acceptedAt: null, revokedAt: null } });
    const data = open
      .filter((i) => i.expiresAt > now)
      .sort((a, b) => b.issuedAt.localeCompare(a.issuedAt) || b.invitationId.localeCompare(a.invitationId))
      .map((i) => ({
        id: i.invitationId,
        email: i.email,
        role: i.role,
        purpose: i.purpose ?? null,
        invited_at: i.issuedAt,
        expires_at: i.expiresAt,
        invited_by: {
          id: i.issuedBy,
          name: org.members[i.issuedBy]?.name ?? org.formerMembers?.[i.issuedBy]?.name ?? i.issuedBy,
        },
      }));
    res.setHeader('Cache-Control', 'no-store');
    res.json({ data });
  });

  router.delete('/app/api/invitations/:id', requireWebSession(ctx), requireOwner, async (req, res) => {
    const { org, member } = webCallerOf(res);
    const id = String(req.params['id']);
    if (!/^inv_[a-z0-9]+$/.test(id)) throw new ApiError('not_found', `no pending invitation ${id} in the organization`);
    const position = await revokeInvitation(ctx.store, {
      orgId: org.id,
      invitationId: id,
      now: ctx.clock(),
      actor: { id: member.id, name: member.name },
    });
    await ctx.projections.waitFor(position);
    res.status(204).end();
  });
  return router;
}
