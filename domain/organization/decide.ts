/** Organization commands, `{ type, data, metadata: { now, actor } }`. Pure: ids, hashes and time come in with the command. */
import { DomainError, type Command, type Decider } from '../decider/decider.js';
import type { OrgLimits } from './limits.js';
import {
  MAX_ACTIVE_KEYS,
  evolveOrganization,
  initialOrganization,
  type OrganizationEvent,
  type OrganizationState,
  type Scope,
} from './organization.js';

export type OrganizationCommand =
  | Command<'CreateOrganization', { orgId: string; name: string; limits: OrgLimits; axleAccess: boolean }>
  | Command<'AddMember', { userId: string; name: string; role: 'owner' | 'member' }>
  | Command<'ActivateSubscription', { plan: string; apiAccess: boolean; expiresAt: string | null }>
  | Command<'EndSubscription', Record<string, never>>
  | Command<
      'CreateApiKey',
      { keyId: string; hash: string; prefix: string; name: string; scopes: Scope[]; memberId: string; expiresAt?: string | null; allowedIps?: string[] }
    >
  | Command<'RevokeApiKey', { keyId: string }>
  | Command<'RotateApiKey', { keyId: string; hash: string; prefix: string }>;

/** The key `keyId`, which must exist and not be revoked (404 not_found / 409 conflict). */
function liveKey(state: OrganizationState, keyId: string): { hash: string } {
  const key = state.keys[keyId];
  if (!key) throw new DomainError('not_found', `no API key ${keyId} in the organization`);
  if (key.revoked) throw new DomainError('conflict', `API key ${keyId} is revoked`);
  return key;
}

function mustExist(state: OrganizationState): void {
  if (!state.exists) throw new DomainError('not_found', 'no such organization');
}

export function decideOrganization(command: OrganizationCommand, state: OrganizationState): OrganizationEvent[] {
  const { now } = command.metadata;
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
      const { keyId, hash, prefix } = command.data;
      mustExist(state);
      const key = liveKey(state, keyId);
      return [{ type: 'ApiKeyRotated', data: { keyId, previousHash: key.hash, hash, prefix, rotatedAt: now } }];
    }
  }
}

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: initialOrganization,
  evolve: evolveOrganization,
  decide: decideOrganization,
};
