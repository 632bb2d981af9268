/**
 * The organization aggregate (stream `org-<id>`): settings, subscription, members and API keys.
 * API keys are stored as SHA-256 hashes only (spec Authentication 2).
 */
import type { DomainEvent } from '../decider/decider.js';
import type { OrgLimits } from './limits.js';

/**
 * Scopes of the spec's Authentication table, then ours: `webhooks:read` and `webhooks:write`
 * (webhook endpoints, issue 12 item 4). New keys get every scope by default (api/provision.ts);
 * keys made before keep the scopes stored with them.
 */
export const SCOPES = ['pack:write', 'jobs:read', 'account:read', 'resources:read', 'resources:write', 'webhooks:read', 'webhooks:write'] as const;
export type Scope = (typeof SCOPES)[number];

/** Most active API keys per organization (spec Limits). */
export const MAX_ACTIVE_KEYS = 20;

export type OrganizationEvent =
  | DomainEvent<'OrganizationCreated', { orgId: string; name: string; limits: OrgLimits; axleAccess: boolean; createdAt: string }>
  | DomainEvent<'MemberAdded', { userId: string; name: string; role: 'owner' | 'member'; addedAt: string }>
  | DomainEvent<'SubscriptionActivated', { plan: string; apiAccess: boolean; expiresAt: string | null; activatedAt: string }>
  | DomainEvent<'SubscriptionEnded', { endedAt: string }>
  | DomainEvent<
      'ApiKeyCreated',
      {
        keyId: string; hash: string; prefix: string; name: string; scopes: Scope[]; memberId: string; createdAt: string;
        /** Optional settings (spec Authentication 2): RFC 3339 expiry, and IPs or CIDR ranges allowed to call. */
        expiresAt?: string | null;
        allowedIps?: string[];
      }
    >
  /** The key stops at once (401 key_revoked). */
  | DomainEvent<'ApiKeyRevoked', { keyId: string; hash: string; revokedAt: string }>
  /** A new secret for the key with the same settings; the old secret stops at once. */
  | DomainEvent<'ApiKeyRotated', { keyId: string; previousHash: string; hash: string; prefix: string; rotatedAt: string }>
  /** The operator suspended the organization: every key answers 403 account_inactive (spec Authentication 5). */
  | DomainEvent<'OrganizationSuspended', { reason: string; suspendedAt: string; by: string }>
  /** The operator lifted the suspension. */
  | DomainEvent<'OrganizationReactivated', { reactivatedAt: string; by: string }>
  /**
   * The operator switched the API off for the organization: its keys answer 503 api_disabled with
   * `Retry-After: retryAfterSeconds` (spec Errors). `message` is shown to its callers.
   */
  | DomainEvent<'OrganizationApiDisabled', { message: string; retryAfterSeconds: number; disabledAt: string; by: string }>
  /** The operator switched the organization's API on again. */
  | DomainEvent<'OrganizationApiEnabled', { enabledAt: string; by: string }>;

export interface OrganizationState {
  exists: boolean;
  orgId: string;
  name: string;
  members: Record<string, { name: string; role: 'owner' | 'member' }>;
  activeKeys: number;
  /** Every key by id: the hash of its current secret and whether it was revoked. */
  keys: Record<string, { hash: string; revoked: boolean }>;
  /** Suspended by the operator (403 account_inactive). */
  suspended: boolean;
  /** The API switched off for this organization by the operator (503 api_disabled), with its message. */
  apiDisabled: { message: string; retryAfterSeconds: number } | null;
}

export const initialOrganization = (): OrganizationState => ({
  exists: false,
  orgId: '',
  name: '',
  members: {},
  activeKeys: 0,
  keys: {},
  suspended: false,
  apiDisabled: null,
});

export function evolveOrganization(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  switch (event.type) {
    case 'OrganizationCreated':
      return { ...state, exists: true, orgId: event.data.orgId, name: event.data.name };
    case 'MemberAdded':
      return { ...state, members: { ...state.members, [event.data.userId]: { name: event.data.name, role: event.data.role } } };
    case 'ApiKeyCreated':
      return { ...state, activeKeys: state.activeKeys + 1, keys: { ...state.keys, [event.data.keyId]: { hash: event.data.hash, revoked: false } } };
    case 'ApiKeyRevoked':
      return { ...state, activeKeys: state.activeKeys - 1, keys: { ...state.keys, [event.data.keyId]: { hash: event.data.hash, revoked: true } } };
    case 'ApiKeyRotated':
      return { ...state, keys: { ...state.keys, [event.data.keyId]: { hash: event.data.hash, revoked: false } } };
    case 'OrganizationSuspended':
      return { ...state, suspended: true };
    case 'OrganizationReactivated':
      return { ...state, suspended: false };
    case 'OrganizationApiDisabled':
      return { ...state, apiDisabled: { message: event.data.message, retryAfterSeconds: event.data.retryAfterSeconds } };
    case 'OrganizationApiEnabled':
      return { ...state, apiDisabled: null };
    case 'SubscriptionActivated':
    case 'SubscriptionEnded':
      return state;
  }
}
