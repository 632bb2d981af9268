/**
 * The organization aggregate (stream `org-<id>`): settings, subscription, members and API keys.
 * API keys are stored as SHA-256 hashes only (spec Authentication 2).
 */
import type { DomainEvent } from '../decider/decider.js';
import type { OrgLimits } from './limits.js';

/**
 * Scopes of the spec's Authentication table, then ours: `webhooks:read` and `webhooks:write`
 * (webhook endpoints). New keys get every scope by default (application/provision.ts);
 * keys made before keep the scopes stored with them.
 */
export const SCOPES = [
  'pack:write',
  'jobs:read',
  'account:read',
  'resources:read',
  'resources:write',
  'webhooks:read',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What a member who is not the owner may do through the web app's session (roles): pack, read
 * jobs and use saved data. Webhooks, API keys, members and the account (`account:read`: balance,
 * usage, limits) are the owner's.
 */
export const MEMBER_SCOPES: readonly Scope[] = ['pack:write', 'jobs:read', 'resources:read', 'resources:write'];

/** The scopes of a web app session by its member's role: the owner every scope, a member MEMBER_SCOPES. */
export const scopesOfRole = (role: MemberRole): readonly Scope[] => (role === 'owner' ? SCOPES : MEMBER_SCOPES);

/** Most active API keys per organization (spec Limits). */
export const MAX_ACTIVE_KEYS = 20;

/** How long an invitation can be accepted, ms (7 days). */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** Why an invitation was issued besides joining: `password_reset` sets a new password for an existing member. */
export type InvitationPurpose = 'password_reset';

/** A member's role: the owner runs the console (members, API keys); members use the API and the web app. */
export type MemberRole = 'owner' | 'member';

export type OrganizationEvent =
  | DomainEvent<
      'OrganizationCreated',
      { orgId: string; name: string; limits: OrgLimits; axleAccess: boolean; createdAt: string }
    >
  /** `email`: set when the member joined by an invitation, absent for owners made by the operator. */
  | DomainEvent<'MemberAdded', { userId: string; name: string; role: MemberRole; addedAt: string; email?: string }>
  /**
   * An invitation to the web app: only the SHA-256 of its token is stored; valid until
   * `expiresAt`, once. `memberId` is the member it makes (`usr_…`, fresh) or, for an owner
   * invitation of the existing owner member, that member (it gets the email and a password).
   */
  | DomainEvent<
      'InvitationIssued',
      {
        invitationId: string;
        tokenHash: string;
        email: string;
        role: MemberRole;
        memberId: string;
        expiresAt: string;
        issuedAt: string;
        by: string;
        /**
         * `password_reset`: the owner's reset of an existing member's password (roles): accepting
         * it sets a new password for `memberId` and ends their sessions. Absent: a joining invitation.
         */
        purpose?: InvitationPurpose;
      }
    >
  /** The owner withdrew a pending invitation: its link stops working. */
  | DomainEvent<'InvitationRevoked', { invitationId: string; tokenHash: string; revokedAt: string; by: string }>
  /** The invitation was used: `memberId` now signs in with `email` (a new member also gets MemberAdded). */
  | DomainEvent<
      'InvitationAccepted',
      { invitationId: string; tokenHash: string; memberId: string; email: string; name: string; acceptedAt: string }
    >
  /**
   * The owner removed a member: their sessions end at once. Decided with ApiKeyRevoked for every
   * live key made for them (roles: nothing of theirs keeps working); their webhook endpoints are
   * disabled by the webhook commands that follow (application/members.ts).
   */
  | DomainEvent<'MemberRemoved', { userId: string; name: string; email: string | null; removedAt: string; by: string }>
  | DomainEvent<
      'SubscriptionActivated',
      { plan: string; apiAccess: boolean; expiresAt: string | null; activatedAt: string }
    >
  | DomainEvent<'SubscriptionEnded', { endedAt: string }>
  | DomainEvent<
      'ApiKeyCreated',
      {
        keyId: string;
        hash: string;
        prefix: string;
        name: string;
        scopes: Scope[];
        memberId: string;
        createdAt: string;
        /** Optional settings (spec Authentication 2): RFC 3339 expiry, and IPs or CIDR ranges allowed to call. */
        expiresAt?: string | null;
        allowedIps?: string[];
      }
    >
  /** The key stops at once (401 key_revoked). */
  | DomainEvent<'ApiKeyRevoked', { keyId: string; hash: string; revokedAt: string }>
  /** A new secret for the key with the same settings; the old secret stops at once. */
  | DomainEvent<
      'ApiKeyRotated',
      { keyId: string; previousHash: string; hash: string; prefix: string; rotatedAt: string }
    >
  /** The operator suspended the organization: every key answers 403 account_inactive (spec Authentication 5). */
  | DomainEvent<'OrganizationSuspended', { reason: string; suspendedAt: string; by: string }>
  /** The operator lifted the suspension. */
  | DomainEvent<'OrganizationReactivated', { reactivatedAt: string; by: string }>
  /**
   * The operator switched the API off for the organization: its keys answer 503 api_disabled with
   * `Retry-After: retryAfterSeconds` (spec Errors). `message` is shown to its callers.
   */
  | DomainEvent<
      'OrganizationApiDisabled',
      { message: string; retryAfterSeconds: number; disabledAt: string; by: string }
    >
  /** The operator switched the organization's API on again. */
  | DomainEvent<'OrganizationApiEnabled', { enabledAt: string; by: string }>
  /**
   * The owner chose how people of the organization see lengths and weights (web app, viewer,
   * PDF): `metric` (cm, kg) or `imperial` (in, lb). The API keeps speaking cm and kg.
   */
  | DomainEvent<'DisplayUnitsChosen', { displayUnits: DisplayUnits; chosenAt: string; by: string }>;

/** An organization's display preference for lengths and weights; `metric` until the owner chooses. */
export type DisplayUnits = 'metric' | 'imperial';

/** Every display preference, in the order a form offers them. */
export const DISPLAY_UNITS: readonly DisplayUnits[] = ['metric', 'imperial'];

export interface OrganizationState {
  exists: boolean;
  orgId: string;
  name: string;
  members: Record<string, { name: string; role: MemberRole; email?: string }>;
  /** Invitations by id. */
  invitations: Record<
    string,
    {
      tokenHash: string;
      email: string;
      role: MemberRole;
      memberId: string;
      expiresAt: string;
      accepted: boolean;
      revoked: boolean;
      purpose: InvitationPurpose | null;
    }
  >;
  activeKeys: number;
  /** Every key by id: the hash of its current secret, whether it was revoked and the member it acts for. */
  keys: Record<string, { hash: string; revoked: boolean; memberId: string }>;
  /** Suspended by the operator (403 account_inactive). */
  suspended: boolean;
  /** The API switched off for this organization by the operator (503 api_disabled), with its message. */
  apiDisabled: { message: string; retryAfterSeconds: number } | null;
  /** How people see lengths and weights (DisplayUnitsChosen); `metric` until chosen. */
  displayUnits: DisplayUnits;
}

export const initialOrganization = (): OrganizationState => ({
  exists: false,
  orgId: '',
  name: '',
  members: {},
  invitations: {},
  activeKeys: 0,
  keys: {},
  suspended: false,
  apiDisabled: null,
  displayUnits: 'metric',
});

export function evolveOrganization(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  switch (event.type) {
    case 'OrganizationCreated':
      return { ...state, exists: true, orgId: event.data.orgId, name: event.data.name };
    case 'MemberAdded': {
      const { userId, name, role, email } = event.data;
      return { ...state, members: { ...state.members, [userId]: { name, role, ...(email ? { email } : {}) } } };
    }
    case 'InvitationIssued': {
      const { invitationId, tokenHash, email, role, memberId, expiresAt, purpose } = event.data;
      return {
        ...state,
        invitations: {
          ...state.invitations,
          [invitationId]: {
            tokenHash,
            email,
            role,
            memberId,
            expiresAt,
            accepted: false,
            revoked: false,
            purpose: purpose ?? null,
          },
        },
      };
    }
    case 'InvitationRevoked': {
      const invitation = state.invitations[event.data.invitationId];
      return invitation
        ? {
            ...state,
            invitations: { ...state.invitations, [event.data.invitationId]: { ...invitation, revoked: true } },
          }
        : state;
    }
    case 'InvitationAccepted': {
      const { invitationId, memberId, email, name } = event.data;
      const invitation = state.invitations[invitationId];
      const member = state.members[memberId];
      return {
        ...state,
        invitations: invitation
          ? { ...state.invitations, [invitationId]: { ...invitation, accepted: true } }
          : state.invitations,
        members: member ? { ...state.members, [memberId]: { ...member, name, email } } : state.members,
      };
    }
    case 'MemberRemoved': {
      const members = { ...state.members };
      delete members[event.data.userId];
      return { ...state, members };
    }
    case 'ApiKeyCreated':
      return {
        ...state,
        activeKeys: state.activeKeys + 1,
        keys: {
          ...state.keys,
          [event.data.keyId]: { hash: event.data.hash, revoked: false, memberId: event.data.memberId },
        },
      };
    case 'ApiKeyRevoked': {
      const key = state.keys[event.data.keyId];
      return {
        ...state,
        activeKeys: state.activeKeys - 1,
        keys: {
          ...state.keys,
          [event.data.keyId]: { hash: event.data.hash, revoked: true, memberId: key?.memberId ?? '' },
        },
      };
    }
    case 'ApiKeyRotated': {
      const key = state.keys[event.data.keyId];
      return {
        ...state,
        keys: {
          ...state.keys,
          [event.data.keyId]: { hash: event.data.hash, revoked: false, memberId: key?.memberId ?? '' },
        },
      };
    }
    case 'OrganizationSuspended':
      return { ...state, suspended: true };
    case 'OrganizationReactivated':
      return { ...state, suspended: false };
    case 'OrganizationApiDisabled':
      return {
        ...state,
        apiDisabled: { message: event.data.message, retryAfterSeconds: event.data.retryAfterSeconds },
      };
    case 'OrganizationApiEnabled':
      return { ...state, apiDisabled: null };
    case 'DisplayUnitsChosen':
      return { ...state, displayUnits: event.data.displayUnits };
    case 'SubscriptionActivated':
    case 'SubscriptionEnded':
      return state;
  }
}
