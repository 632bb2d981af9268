/**
 * The owner's console: members (the web app's own API, not in the OpenAPI document).
 * Owner only (403 forbidden for members):
 * - GET /app/api/members → {data: [{id, name, email, role, joined_at}]} (owner first, then by name);
 * - DELETE /app/api/members/:id → 204; their sessions end at once, keys made for them are
 *   revoked and the webhook endpoints they created are disabled (application/members.ts); 409 conflict
 *   for the owner, 404 not_found for an unknown member;
 * - POST /app/api/members/:id/password-reset → 201 {id, url, token, email, role, purpose:
 *   "password_reset", expires_at}: an invitation for the member to set a new password (same
 *   member, data kept; accepting it ends all their sessions); 409 conflict for the owner or a
 *   member who has not joined; 404 not_found for an unknown member.
 * Invitations: POST/GET/DELETE /app/api/invitations (web-app-invitations.ts).
 */
import { Router } from 'express';
import { ApiError } from '../../http/errors.js';
import { issuePasswordReset } from '../../../application/invitations.js';
import { issuedInvitationAnswer } from '../invitation-view.js';
import { removeMember } from '../../../application/members.js';
import { ROUTER_OPTIONS } from '../../http/route-docs.js';
import type { RouteContext } from '../../http/context.js';
import { requireOwner, requireWebSession, webCallerOf } from '../access.js';

/** Router of /app/api/members. */
export function webAppMembersRouter(ctx: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);

  router.get('/app/api/members', requireWebSession(ctx), requireOwner, (_req, res) => {
    const { org } = webCallerOf(res);
    const data = Object.entries(org.members)
      .map(([id, m]) => ({
        id,
        name: m.name,
        email: m.email ?? null,
        role: m.role,
        joined_at: m.joinedAt ?? org.createdAt,
      }))
      .sort((a, b) =>
        a.role === b.role ? a.name.localeCompare(b.name) || a.id.localeCompare(b.id) : a.role === 'owner' ? -1 : 1,
      );
    res.setHeader('Cache-Control', 'no-store');
    res.json({ data });
  });

  router.delete('/app/api/members/:id', requireWebSession(ctx), requireOwner, async (req, res) => {
    const { org, member } = webCallerOf(res);
    const id = String(req.params['id']);
    if (!/^usr_[a-z0-9]+$/.test(id)) throw new ApiError('not_found', `no member ${id} in the organization`);
    await removeMember(ctx, org.id, id, { id: member.id, name: member.name });
    res.status(204).end();
  });

  router.post('/app/api/members/:id/password-reset', requireWebSession(ctx), requireOwner, async (req, res) => {
    const { org, member } = webCallerOf(res);
    const id = String(req.params['id']);
    if (!/^usr_[a-z0-9]+$/.test(id)) throw new ApiError('not_found', `no member ${id} in the organization`);
    const issued = await issuePasswordReset(ctx.store, {
      orgId: org.id,
      memberId: id,
      now: ctx.clock(),
      actor: { id: member.id, name: member.name },
    });
    await ctx.projections.waitFor(issued.position);
    res.status(201).json(issuedInvitationAnswer(issued, 'password_reset'));
  });
  return router;
}
