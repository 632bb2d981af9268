/**
 * Invitations to the web app and the credentials they create, through the
 * organization's and the credential's commands:
 * - issue: a random token (shown once as the invitation URL), stored only as its SHA-256, valid
 *   7 days, one use. `role: 'owner'` attaches to the organization's owner member that has no
 *   email yet (the operator's first owner), else makes a new owner member.
 * - accept: the email gets its credential (scrypt hash; 409 conflict when the email signs in
 *   already, anywhere in the service), then the invitation is used (MemberAdded for a new member);
 *   when that fails (used or expired meanwhile) the credential is revoked again (`not_joined`).
 * - reset (roles): the owner invites an existing member to set a new password; accepting it
 *   changes that member's password (CredentialPasswordChanged `reset`, which ends all their
 *   sessions), then uses the invitation. A crash between the two leaves the invitation open:
 *   accepting it again sets the password again and uses it.
 * - revoke (roles): the owner withdraws a pending invitation (InvitationRevoked); its link then
 *   answers 404 not_found "withdrawn".
 */
import { randomBytes } from 'node:crypto';
import { loadState, handleCommand } from '../domain/decider/handle.js';
import type { Actor } from '../domain/decider/actor.js';
import { credentialDecider } from '../domain/credential/credential.js';
import { credentialStream, normalizeEmail } from '../domain/credential/streams.js';
import { decideOrganization, organizationDecider } from '../domain/organization/decide.js';
import { INVITATION_LIFETIME_MS, type MemberRole } from '../domain/organization/organization.js';
import { orgStream } from '../domain/organization/streams.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { DomainError } from '../domain/errors.js';
import { newId } from './id.js';
import { hashPassword, type PasswordCost } from './password.js';
import { sha256Hex } from '../domain/digest.js';

/** The SHA-256 hex of an invitation token. */
export const invitationTokenHash = (token: string): string => sha256Hex(token);

/** The web app's page of an invitation. */
export const invitationPath = (token: string): string => `/app/invitations/${token}`;

/** An issued invitation; `token` is shown once (in `url`). */
export interface IssuedInvitation {
  invitationId: string;
  token: string;
  email: string;
  role: MemberRole;
  memberId: string;
  expiresAt: string;
  /** Log position of the InvitationIssued event. */
  position: number;
}

/** Throws 409 conflict when `email` signs in already. */
async function emailFree(store: EventStore, email: string): Promise<void> {
  const { state } = await loadState(store, credentialStream(email), credentialDecider);
  if (state.active) throw new DomainError('conflict', 'this email address is in use already');
}

/**
 * Invites `email` into organization `orgId` as `role`. Throws 404 not_found (no organization) and
 * 409 conflict (the email signs in already).
 */
export async function issueInvitation(
  store: EventStore,
  invite: { orgId: string; email: string; role: MemberRole; now: string; actor: Actor },
): Promise<IssuedInvitation> {
  const email = normalizeEmail(invite.email);
  await emailFree(store, email);
  const { state } = await loadState(store, orgStream(invite.orgId), organizationDecider);
  if (!state.exists) throw new DomainError('not_found', `no organization ${invite.orgId}`);
  const firstOwner =
    invite.role === 'owner'
      ? Object.entries(state.members).find(([, m]) => m.role === 'owner' && !m.email)?.[0]
      : undefined;
  const memberId = firstOwner ?? newId('usr');
  const token = randomBytes(32).toString('base64url');
  const invitationId = newId('inv');
  const expiresAt = new Date(Date.parse(invite.now) + INVITATION_LIFETIME_MS).toISOString();
  const done = await handleCommand(store, orgStream(invite.orgId), organizationDecider, {
    type: 'IssueInvitation',
    data: { invitationId, tokenHash: invitationTokenHash(token), email, role: invite.role, memberId, expiresAt },
    metadata: { now: invite.now, actor: invite.actor },
  });
  return { invitationId, token, email, role: invite.role, memberId, expiresAt, position: done.position };
}

/**
 * Accepts the invitation of `token` in organization `orgId`: the credential (email, password),
 * then the invitation's use. Throws 404 not_found (unknown, used or expired) and 409 conflict
 * (the email signs in already). Resolves with the member and the last log position.
 * `passwordCost`: scrypt cost of the new password's hash (default DEFAULT_PASSWORD_COST).
 */
export async function acceptInvitation(
  store: EventStore,
  accept: {
    orgId: string;
    token: string;
    name: string;
    password: string;
    now: string;
    passwordCost?: PasswordCost | undefined;
  },
): Promise<{ memberId: string; email: string; position: number }> {
  const tokenHash = invitationTokenHash(accept.token);
  const stream = orgStream(accept.orgId);
  const { state } = await loadState(store, stream, organizationDecider);
  const metadata = { now: accept.now, actor: { id: 'invitation', name: accept.name.trim() } };
  // Decided once before the credential is written, so a used or expired token writes nothing.
  const [first] = decideOrganization(
    { type: 'AcceptInvitation', data: { tokenHash, name: accept.name.trim() }, metadata },
    state,
  );
  if (first?.type !== 'InvitationAccepted') throw new Error('AcceptInvitation decided no InvitationAccepted');
  const { memberId, email } = first.data;
  if (state.invitations[first.data.invitationId]?.purpose === 'password_reset') {
    const actor = { id: memberId, name: accept.name.trim() };
    const password = await hashPassword(accept.password, accept.passwordCost);
    // The link's use first (one expected-revision append: of two accepts at once, or an accept and
    // a withdrawal, one wins), then the password: a link withdrawn or used in between changes
    // nothing. A crash between the two leaves the link used and the old password: ask for a new link.
    await handleCommand(store, stream, organizationDecider, {
      type: 'AcceptInvitation',
      data: { tokenHash, name: actor.name },
      metadata: { ...metadata, actor },
    });
    const done = await handleCommand(store, credentialStream(email), credentialDecider, {
      type: 'ChangePassword',
      data: { userId: memberId, password, reason: 'reset', keepSessionId: null },
      metadata: { ...metadata, actor },
    });
    return { memberId, email, position: done.position };
  }
  await emailFree(store, email);
  await handleCommand(store, credentialStream(email), credentialDecider, {
    type: 'CreateCredential',
    data: {
      email,
      userId: memberId,
      orgId: accept.orgId,
      password: await hashPassword(accept.password, accept.passwordCost),
    },
    metadata: { ...metadata, actor: { id: memberId, name: accept.name.trim() } },
  });
  const actor = { id: memberId, name: accept.name.trim() };
  try {
    const done = await handleCommand(store, stream, organizationDecider, {
      type: 'AcceptInvitation',
      data: { tokenHash, name: actor.name },
      metadata: { ...metadata, actor },
    });
    return { memberId, email, position: done.position };
  } catch (err) {
    // The invitation was used or expired in between: the email must not stay taken by nobody.
    await handleCommand(store, credentialStream(email), credentialDecider, {
      type: 'RevokeCredential',
      data: { userId: memberId, reason: 'not_joined' },
      metadata: { ...metadata, actor },
    });
    throw err;
  }
}

/**
 * Roles: invites member `memberId` of `orgId` to set a new password (an invitation to their email,
 * purpose `password_reset`, valid 7 days, once). Throws 404 not_found (no such member) and 409
 * conflict (the owner, or a member who has not joined yet).
 */
export async function issuePasswordReset(
  store: EventStore,
  reset: { orgId: string; memberId: string; now: string; actor: Actor },
): Promise<IssuedInvitation> {
  const token = randomBytes(32).toString('base64url');
  const invitationId = newId('inv');
  const expiresAt = new Date(Date.parse(reset.now) + INVITATION_LIFETIME_MS).toISOString();
  const done = await handleCommand(store, orgStream(reset.orgId), organizationDecider, {
    type: 'IssuePasswordReset',
    data: { invitationId, tokenHash: invitationTokenHash(token), memberId: reset.memberId, expiresAt },
    metadata: { now: reset.now, actor: reset.actor },
  });
  const issued = done.events[0];
  if (issued?.type !== 'InvitationIssued') throw new Error('IssuePasswordReset decided no InvitationIssued');
  return {
    invitationId,
    token,
    email: issued.data.email,
    role: issued.data.role,
    memberId: reset.memberId,
    expiresAt,
    position: done.position,
  };
}

/** Roles: withdraws pending invitation `invitationId` of `orgId`; resolves with the log position. Throws 404 not_found (no pending invitation of that id). */
export async function revokeInvitation(
  store: EventStore,
  revoke: { orgId: string; invitationId: string; now: string; actor: Actor },
): Promise<number> {
  const done = await handleCommand(store, orgStream(revoke.orgId), organizationDecider, {
    type: 'RevokeInvitation',
    data: { invitationId: revoke.invitationId },
    metadata: { now: revoke.now, actor: revoke.actor },
  });
  return done.position;
}
