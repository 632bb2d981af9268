/** The web app's view of an invitation it issued (roles: invitations and password resets). */
import { invitationPath, type IssuedInvitation } from '../../application/invitations.js';

/**
 * The web app's 201 answer for an issued invitation: {id, url (the invitation's page), token,
 * email, role, expires_at}, with `purpose` "password_reset" for a reset
 * (POST /app/api/invitations; POST /app/api/members/:id/password-reset).
 */
export function issuedInvitationAnswer(issued: IssuedInvitation, purpose?: 'password_reset') {
  return {
    id: issued.invitationId,
    url: invitationPath(issued.token),
    token: issued.token,
    email: issued.email,
    role: issued.role,
    ...(purpose ? { purpose } : {}),
    expires_at: issued.expiresAt,
  };
}
