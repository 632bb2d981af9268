/**
 * The organization aggregate (stream `org-<id>`): settings, subscription, members and API keys.
 * API keys are stored as SHA-256 hashes only (spec Authentication 2).
 */
import type { DomainEvent } from '../decider/decider.js';
import type { OrgLimits } from './limits.js';

/** Scopes of the spec's Authentication table. */
export const SCOPES = ['pack:write', 'jobs:read', 'account:read', 'resources:read', 'resources:write'] as const;
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
      { keyId: string; hash: string; prefix: string; name: string; scopes: Scope[]; memberId: string; createdAt: string }
    >;

export interface OrganizationState {
  exists: boolean;
  orgId: string;
  name: string;
  members: Record<string, { name: string; role: 'owner' | 'member' }>;
  activeKeys: number;
}

export const initialOrganization = (): OrganizationState => ({
  exists: false,
  orgId: '',
  name: '',
  members: {},
  activeKeys: 0,
});

export function evolveOrganization(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  switch (event.type) {
    case 'OrganizationCreated':
      return { ...state, exists: true, orgId: event.data.orgId, name: event.data.name };
    case 'MemberAdded':
      return { ...state, members: { ...state.members, [event.data.userId]: { name: event.data.name, role: event.data.role } } };
    case 'ApiKeyCreated':
      return { ...state, activeKeys: state.activeKeys + 1 };
    case 'SubscriptionActivated':
    case 'SubscriptionEnded':
      return state;
  }
}
