/**
 * The sign-in credential of one email address, stream `credential-<sha256(email)>`:
 * the stream is the email's uniqueness across the service (it is created with the expected
 * revision "no stream", like the Idempotency-Key claims of application/job-admission.ts). The password is
 * stored only as a scrypt hash with its parameters and salt (application/password.ts makes and checks it).
 */
import { DomainError, type Command, type Decider, type DomainEvent } from '../decider/decider.js';

/** A memory-hard password hash: algorithm, cost parameters, salt and derived key (base64). */
export interface PasswordHash {
  algorithm: 'scrypt';
  /** CPU/memory cost (a power of two), block size and parallelism of scrypt. */
  N: number;
  r: number;
  p: number;
  /** Length of the derived key, bytes. */
  keyLength: number;
  salt: string;
  hash: string;
}

export type CredentialEvent =
  /** `email` (normalized) signs in as member `userId` of organization `orgId`. */
  | DomainEvent<
      'CredentialCreated',
      { email: string; userId: string; orgId: string; password: PasswordHash; createdAt: string }
    >
  /**
   * The credential stops: its member was removed, or the invitation it was made for could not be
   * used after all (`not_joined`); the email is free for a new invitation.
   */
  | DomainEvent<'CredentialRevoked', { userId: string; reason: CredentialRevokeReason; revokedAt: string }>
  /**
   * A new password (roles): the member changed it (`changed`, `keepSessionId` the session that
   * did, which stays) or accepted the owner's reset invitation (`reset`, `keepSessionId` null).
   * Every other session of `userId` ends with this event (projections/sessions).
   */
  | DomainEvent<
      'CredentialPasswordChanged',
      {
        userId: string;
        orgId: string;
        password: PasswordHash;
        reason: PasswordChangeReason;
        keepSessionId: string | null;
        changedAt: string;
      }
    >;

/** Why a password changed: by its member, or by the owner's reset invitation. */
export type PasswordChangeReason = 'changed' | 'reset';

/** Why a credential stopped. */
export type CredentialRevokeReason = 'member_removed' | 'not_joined';

export interface CredentialState {
  active: boolean;
  email: string;
  userId: string;
  orgId: string;
  password: PasswordHash | null;
}

export type CredentialCommand =
  | Command<'CreateCredential', { email: string; userId: string; orgId: string; password: PasswordHash }>
  | Command<'RevokeCredential', { userId: string; reason: CredentialRevokeReason }>
  | Command<
      'ChangePassword',
      { userId: string; password: PasswordHash; reason: PasswordChangeReason; keepSessionId: string | null }
    >;

const initialCredential = (): CredentialState => ({ active: false, email: '', userId: '', orgId: '', password: null });

function evolveCredential(state: CredentialState, event: CredentialEvent): CredentialState {
  switch (event.type) {
    case 'CredentialCreated':
      return {
        active: true,
        email: event.data.email,
        userId: event.data.userId,
        orgId: event.data.orgId,
        password: event.data.password,
      };
    case 'CredentialRevoked':
      return { ...state, active: false, password: null };
    case 'CredentialPasswordChanged':
      return { ...state, password: event.data.password };
  }
}

/**
 * CreateCredential: 409 conflict when the email signs in already; RevokeCredential: no event
 * unless the credential is active and belongs to `userId` (idempotent). ChangePassword: 404
 * not_found unless the credential is active and belongs to `userId`.
 */
function decideCredential(command: CredentialCommand, state: CredentialState): CredentialEvent[] {
  const { now } = command.metadata;
  switch (command.type) {
    case 'CreateCredential': {
      if (state.active) throw new DomainError('conflict', 'this email address is in use already');
      const { email, userId, orgId, password } = command.data;
      return [{ type: 'CredentialCreated', data: { email, userId, orgId, password, createdAt: now } }];
    }
    case 'RevokeCredential':
      if (!state.active || state.userId !== command.data.userId) return [];
      return [
        {
          type: 'CredentialRevoked',
          data: { userId: command.data.userId, reason: command.data.reason, revokedAt: now },
        },
      ];
    case 'ChangePassword': {
      const { userId, password, reason, keepSessionId } = command.data;
      if (!state.active || state.userId !== userId)
        throw new DomainError('not_found', 'no active sign-in for this member');
      return [
        {
          type: 'CredentialPasswordChanged',
          data: { userId, orgId: state.orgId, password, reason, keepSessionId, changedAt: now },
        },
      ];
    }
  }
}

export const credentialDecider: Decider<CredentialState, CredentialCommand, CredentialEvent> = {
  initialState: initialCredential,
  evolve: evolveCredential,
  decide: decideCredential,
};
