/** Organization commands, `{ type, data, metadata: { now, actor } }`. Pure: ids, hashes and time come in with the command. */
import { DomainError, type Command, type Decider } from '../decider/decider.js';
import { checkRetryAfter } from '../service-settings/retry-after.js';
import type { OrgLimits } from './limits.js';
import {
  DISPLAY_UNITS,
  MAX_ACTIVE_KEYS,
  evolveOrganization,
  initialOrganization,
  type OrganizationEvent,
  type DisplayUnits,
  type MemberRole,
  type OrganizationState,
  type Scope,
} from './organization.js';

export type OrganizationCommand =
  | Command<'CreateOrganization', { orgId: string; name: string; limits: OrgLimits; axleAccess: boolean }>
  | Command<'AddMember', { userId: string; name: string; role: 'owner' | 'member' }>
  /**: invite `email` as `role`; `memberId` is a fresh `usr_` id or the owner member to attach to. */
  | Command<
      'IssueInvitation',
      { invitationId: string; tokenHash: string; email: string; role: MemberRole; memberId: string; expiresAt: string }
    >
  /**
   * Roles: invite existing member `memberId` (not the owner, with an email) to set a new password;
   * the invitation goes to their email and keeps their role.
   */
  | Command<'IssuePasswordReset', { invitationId: string; tokenHash: string; memberId: string; expiresAt: string }>
  /** Use the invitation whose token hashes to `tokenHash`; `name` is the member's name. */
  | Command<'AcceptInvitation', { tokenHash: string; name: string }>
  /** Withdraw a pending invitation (not used, not withdrawn, not expired): its link stops working. */
  | Command<'RevokeInvitation', { invitationId: string }>
  | Command<'RemoveMember', { userId: string }>
  | Command<'ActivateSubscription', { plan: string; apiAccess: boolean; expiresAt: string | null }>
  | Command<'EndSubscription', Record<string, never>>
  | Command<
      'CreateApiKey',
      {
        keyId: string;
        hash: string;
        prefix: string;
        name: string;
        scopes: Scope[];
        memberId: string;
        expiresAt?: string | null;
        allowedIps?: string[];
      }
    >
  | Command<'RevokeApiKey', { keyId: string }>
  /**
   * A new secret (`hash`, `prefix`) for key `keyId`, replacing the secret whose hash is
   * `expectedHash`: the caller names the secret it read, so of concurrent rotations one wins.
   */
  | Command<'RotateApiKey', { keyId: string; expectedHash: string; hash: string; prefix: string }>
  /** Operator switches: each is idempotent, asking for the state there is causes no event. */
  | Command<'SuspendOrganization', { reason: string }>
  | Command<'ReactivateOrganization', Record<string, never>>
  | Command<'DisableApi', { message: string; retryAfterSeconds: number }>
  | Command<'EnableApi', Record<string, never>>
  /** The owner's display preference (web app, viewer, PDF); choosing the current one causes no event. */
  | Command<'ChooseDisplayUnits', { displayUnits: DisplayUnits }>;

/** The key `keyId`, which must exist and not be revoked (404 not_found / 409 conflict). */
function liveKey(state: OrganizationState, keyId: string): { hash: string } {
  const key = state.keys[keyId];
  if (!key) throw new DomainError('not_found', `no API key ${keyId} in the organization`);
  if (key.revoked) throw new DomainError('conflict', `API key ${keyId} is revoked`);
  return key;
}

/** The answer to a withdrawn invitation (and to a reset whose member has left). */
const WITHDRAWN = "this invitation was withdrawn by the organization's owner: ask them for a new one";

function mustExist(state: OrganizationState): void {
  if (!state.exists) throw new DomainError('not_found', 'no such organization');
}

/**
 * The events `command` causes on `state`. Throws DomainError not_found (no organization), conflict
 * (exists already, key limit, revoked key, key rotated since the caller read it) or
 * validation_failed. The operator switches return [] when the organization is already in the
 * state asked for (idempotent).
 */
export function decideOrganization(command: OrganizationCommand, state: OrganizationState): OrganizationEvent[] {
  const { now, actor } = command.metadata;
  switch (command.type) {
    case 'CreateOrganization': {
      const { orgId, name, limits, axleAccess } = command.data;
      if (state.exists) throw new DomainError('conflict', `organization ${orgId} exists already`);
      return [{ type: 'OrganizationCreated', data: { orgId, name, limits, axleAccess, createdAt: now } }];
    }
    case 'AddMember': {
      const { userId, name, role } = command.data;
      mustExist(state);
      return [{ type: 'MemberAdded', data: { userId, name, role, addedAt: now } }];
    }
    case 'IssueInvitation': {
      const { invitationId, tokenHash, email, role, memberId, expiresAt } = command.data;
      mustExist(state);
      const existing = state.members[memberId];
      if (existing && (existing.role !== role || existing.email)) {
        throw new DomainError(
          'conflict',
          `member ${memberId} cannot take an invitation: it has another role or signs in already`,
        );
      }
      return [
        {
          type: 'InvitationIssued',
          data: { invitationId, tokenHash, email, role, memberId, expiresAt, issuedAt: now, by: actor.id },
        },
      ];
    }
    case 'IssuePasswordReset': {
      const { invitationId, tokenHash, memberId, expiresAt } = command.data;
      mustExist(state);
      const member = state.members[memberId];
      if (!member) throw new DomainError('not_found', `no member ${memberId} in the organization`);
      if (member.role === 'owner')
        throw new DomainError(
          'conflict',
          'the owner changes their own password (Your password); an owner cannot be reset by invitation',
        );
      if (!member.email)
        throw new DomainError('conflict', `member ${memberId} has not joined yet: there is no password to reset`);
      return [
        {
          type: 'InvitationIssued',
          data: {
            invitationId,
            tokenHash,
            email: member.email,
            role: member.role,
            memberId,
            expiresAt,
            issuedAt: now,
            by: actor.id,
            purpose: 'password_reset',
          },
        },
      ];
    }
    case 'RevokeInvitation': {
      const { invitationId } = command.data;
      mustExist(state);
      const invitation = state.invitations[invitationId];
      if (!invitation || invitation.accepted || invitation.revoked || invitation.expiresAt <= now) {
        throw new DomainError('not_found', `no pending invitation ${invitationId} in the organization`);
      }
      return [
        {
          type: 'InvitationRevoked',
          data: { invitationId, tokenHash: invitation.tokenHash, revokedAt: now, by: actor.id },
        },
      ];
    }
    case 'AcceptInvitation': {
      const { tokenHash, name } = command.data;
      mustExist(state);
      const found = Object.entries(state.invitations).find(([, i]) => i.tokenHash === tokenHash);
      if (found?.[1].revoked) throw new DomainError('not_found', WITHDRAWN);
      // Unknown, used and expired invitations look alike (404): a token says nothing about the others.
      if (!found || found[1].accepted || found[1].expiresAt <= now)
        throw new DomainError('not_found', 'no such invitation, or it was used or has expired');
      const [invitationId, invitation] = found;
      const { memberId, email, role } = invitation;
      const accepted: OrganizationEvent = {
        type: 'InvitationAccepted',
        data: { invitationId, tokenHash, memberId, email, name, acceptedAt: now },
      };
      // A reset for a member removed since must not bring them back.
      if (invitation.purpose === 'password_reset' && !state.members[memberId])
        throw new DomainError('not_found', WITHDRAWN);
      if (state.members[memberId]) return [accepted];
      return [accepted, { type: 'MemberAdded', data: { userId: memberId, name, role, addedAt: now, email } }];
    }
    case 'RemoveMember': {
      const { userId } = command.data;
      mustExist(state);
      const member = state.members[userId];
      if (!member) throw new DomainError('not_found', `no member ${userId} in the organization`);
      if (member.role === 'owner') throw new DomainError('conflict', 'the owner cannot be removed');
      // Roles: in the same append, every live key made for them and their pending invitations stop.
      const keys: OrganizationEvent[] = Object.entries(state.keys)
        .filter(([, k]) => k.memberId === userId && !k.revoked)
        .map(([keyId, k]) => ({ type: 'ApiKeyRevoked', data: { keyId, hash: k.hash, revokedAt: now } }));
      const invitations: OrganizationEvent[] = Object.entries(state.invitations)
        .filter(([, i]) => i.memberId === userId && !i.accepted && !i.revoked && i.expiresAt > now)
        .map(([invitationId, i]) => ({
          type: 'InvitationRevoked',
          data: { invitationId, tokenHash: i.tokenHash, revokedAt: now, by: actor.id },
        }));
      return [
        {
          type: 'MemberRemoved',
          data: { userId, name: member.name, email: member.email ?? null, removedAt: now, by: actor.id },
        },
        ...keys,
        ...invitations,
      ];
    }
    case 'ActivateSubscription': {
      const { plan, apiAccess, expiresAt } = command.data;
      mustExist(state);
      return [{ type: 'SubscriptionActivated', data: { plan, apiAccess, expiresAt, activatedAt: now } }];
    }
    case 'EndSubscription':
      mustExist(state);
      return [{ type: 'SubscriptionEnded', data: { endedAt: now } }];
    case 'CreateApiKey': {
      const { keyId, hash, prefix, name, scopes, memberId, expiresAt, allowedIps } = command.data;
      mustExist(state);
      if (!(memberId in state.members)) {
        throw new DomainError('validation_failed', `no member ${memberId} in the organization`);
      }
      if (state.activeKeys >= MAX_ACTIVE_KEYS) {
        throw new DomainError('conflict', `at most ${MAX_ACTIVE_KEYS} active API keys per organization`);
      }
      return [
        {
          type: 'ApiKeyCreated',
          data: {
            keyId,
            hash,
            prefix,
            name,
            scopes,
            memberId,
            createdAt: now,
            ...(expiresAt ? { expiresAt } : {}),
            ...(allowedIps && allowedIps.length > 0 ? { allowedIps } : {}),
          },
        },
      ];
    }
    case 'RevokeApiKey': {
      const { keyId } = command.data;
      mustExist(state);
      const key = liveKey(state, keyId);
      return [{ type: 'ApiKeyRevoked', data: { keyId, hash: key.hash, revokedAt: now } }];
    }
    case 'RotateApiKey': {
      const { keyId, expectedHash, hash, prefix } = command.data;
      mustExist(state);
      const key = liveKey(state, keyId);
      // Rotated since the caller read it: going on would stop the secret the other rotation has
      // just handed out (rotations would chain h0→h1→h2), so the caller reloads instead.
      if (key.hash !== expectedHash) {
        throw new DomainError('conflict', `API key ${keyId} was rotated since it was read: reload the key and retry`);
      }
      return [{ type: 'ApiKeyRotated', data: { keyId, previousHash: key.hash, hash, prefix, rotatedAt: now } }];
    }
    case 'SuspendOrganization':
      mustExist(state);
      return state.suspended
        ? []
        : [{ type: 'OrganizationSuspended', data: { reason: command.data.reason, suspendedAt: now, by: actor.id } }];
    case 'ReactivateOrganization':
      mustExist(state);
      return state.suspended ? [{ type: 'OrganizationReactivated', data: { reactivatedAt: now, by: actor.id } }] : [];
    case 'DisableApi': {
      const { message, retryAfterSeconds } = command.data;
      mustExist(state);
      checkRetryAfter(retryAfterSeconds);
      // Switching off again with the same words is a no-op; new words replace the message.
      const same = state.apiDisabled?.message === message && state.apiDisabled.retryAfterSeconds === retryAfterSeconds;
      return same
        ? []
        : [{ type: 'OrganizationApiDisabled', data: { message, retryAfterSeconds, disabledAt: now, by: actor.id } }];
    }
    case 'EnableApi':
      mustExist(state);
      return state.apiDisabled ? [{ type: 'OrganizationApiEnabled', data: { enabledAt: now, by: actor.id } }] : [];
    case 'ChooseDisplayUnits': {
      const { displayUnits } = command.data;
      mustExist(state);
      if (!DISPLAY_UNITS.includes(displayUnits))
        throw new DomainError(
          'validation_failed',
          `display units must be ${DISPLAY_UNITS.join(' or ')}, got ${String(displayUnits)}`,
        );
      return state.displayUnits === displayUnits
        ? []
        : [{ type: 'DisplayUnitsChosen', data: { displayUnits, chosenAt: now, by: actor.id } }];
    }
  }
}

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: initialOrganization,
  evolve: evolveOrganization,
  decide: decideOrganization,
};
