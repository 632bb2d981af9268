/** Organization commands. Pure: ids, hashes and time come in with the command. */
import { DomainError, type Decider } from '../decider/decider.js';
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
  | { type: 'CreateOrganization'; orgId: string; name: string; limits: OrgLimits; axleAccess: boolean; now: string }
  | { type: 'AddMember'; userId: string; name: string; role: 'owner' | 'member'; now: string }
  | { type: 'ActivateSubscription'; plan: string; apiAccess: boolean; expiresAt: string | null; now: string }
  | { type: 'EndSubscription'; now: string }
  | {
    type: 'CreateApiKey'; keyId: string; hash: string; prefix: string; name: string; scopes: Scope[]; memberId: string; now: string;
    expiresAt?: string | null; allowedIps?: string[];
  }
  | { type: 'RevokeApiKey'; keyId: string; now: string }
  | { type: 'RotateApiKey'; keyId: string; hash: string; prefix: string; now: string };

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
  switch (command.type) {
    case 'CreateOrganization':
      if (state.exists) throw new DomainError('conflict', `organization ${command.orgId} exists already`);
      return [
        {
          type: 'OrganizationCreated',
          data: { orgId: command.orgId, name: command.name, limits: command.limits, axleAccess: command.axleAccess, createdAt: command.now },
        },
      ];
    case 'AddMember':
      mustExist(state);
      return [{ type: 'MemberAdded', data: { userId: command.userId, name: command.name, role: command.role, addedAt: command.now } }];
    case 'ActivateSubscription':
      mustExist(state);
      return [
        {
          type: 'SubscriptionActivated',
          data: { plan: command.plan, apiAccess: command.apiAccess, expiresAt: command.expiresAt, activatedAt: command.now },
        },
      ];
    case 'EndSubscription':
      mustExist(state);
      return [{ type: 'SubscriptionEnded', data: { endedAt: command.now } }];
    case 'CreateApiKey':
      mustExist(state);
      if (!(command.memberId in state.members)) {
        throw new DomainError('validation_failed', `no member ${command.memberId} in the organization`);
      }
      if (state.activeKeys >= MAX_ACTIVE_KEYS) {
        throw new DomainError('conflict', `at most ${MAX_ACTIVE_KEYS} active API keys per organization`);
      }
      return [
        {
          type: 'ApiKeyCreated',
          data: {
            keyId: command.keyId,
            hash: command.hash,
            prefix: command.prefix,
            name: command.name,
            scopes: command.scopes,
            memberId: command.memberId,
            createdAt: command.now,
            ...(command.expiresAt ? { expiresAt: command.expiresAt } : {}),
            ...(command.allowedIps && command.allowedIps.length > 0 ? { allowedIps: command.allowedIps } : {}),
          },
        },
      ];
    case 'RevokeApiKey': {
      mustExist(state);
      const key = liveKey(state, command.keyId);
      return [{ type: 'ApiKeyRevoked', data: { keyId: command.keyId, hash: key.hash, revokedAt: command.now } }];
    }
    case 'RotateApiKey': {
      mustExist(state);
      const key = liveKey(state, command.keyId);
      return [{ type: 'ApiKeyRotated', data: { keyId: command.keyId, previousHash: key.hash, hash: command.hash, prefix: command.prefix, rotatedAt: command.now } }];
    }
  }
}

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: initialOrganization,
  evolve: evolveOrganization,
  decide: decideOrganization,
};
