/**
 * Rotating an API key in the organization decider (spec Authentication 2: a new secret with the
 * same settings, the old one stops at once). The command names the secret it replaces
 * (`expectedHash`): when the key was rotated since the caller read it, the rotation is refused
 * with conflict, so concurrent rotations never chain and hand out secrets that are already dead.
 */
import t from 'tap';
import { organizationDecider, type OrganizationCommand } from '../../../domain/organization/decide.js';
import type { OrganizationEvent } from '../../../domain/organization/organization.js';
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import { ACTOR, deciderSpec, LATER, NOW } from '../../helpers/decider-spec.js';

const H0 = 'a'.repeat(64);
const H1 = 'b'.repeat(64);
const H2 = 'c'.repeat(64);

const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { orgId: 'org_a', name: 'A', limits: DEFAULT_LIMITS, axleAccess: false, createdAt: NOW },
};
const owner: OrganizationEvent = {
  type: 'MemberAdded',
  data: { userId: 'usr_owner', name: 'Olga', role: 'owner', addedAt: NOW },
};
const key: OrganizationEvent = {
  type: 'ApiKeyCreated',
  data: {
    keyId: 'key_ci',
    hash: H0,
    prefix: 'pk_live_AAAA',
    name: 'ci',
    scopes: ['account:read'],
    memberId: 'usr_owner',
    createdAt: NOW,
  },
};
const firstRotation: OrganizationEvent = {
  type: 'ApiKeyRotated',
  data: { keyId: 'key_ci', previousHash: H0, hash: H1, prefix: 'pk_live_BBBB', rotatedAt: NOW },
};
const revoked: OrganizationEvent = { type: 'ApiKeyRevoked', data: { keyId: 'key_ci', hash: H0, revokedAt: NOW } };

const rotate = (expectedHash: string, keyId = 'key_ci'): OrganizationCommand => ({
  type: 'RotateApiKey',
  data: { keyId, expectedHash, hash: H2, prefix: 'pk_live_CCCC' },
  metadata: { now: LATER, actor: ACTOR },
});

t.test('rotating the current secret: ApiKeyRotated from it, and the key has the new hash', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  const out = given([created, owner, key, firstRotation])
    .when(rotate(H1))
    .then([
      {
        type: 'ApiKeyRotated',
        data: { keyId: 'key_ci', previousHash: H1, hash: H2, prefix: 'pk_live_CCCC', rotatedAt: LATER },
      },
    ]);
  t.same(out.state.keys['key_ci'], { hash: H2, revoked: false, memberId: 'usr_owner' });
  t.equal(out.state.activeKeys, 1, 'a rotation keeps the key count');
});

t.test('rotating a secret that was rotated since the caller read it: conflict, reload and retry', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  const refused = given([created, owner, key, firstRotation]).when(rotate(H0)).thenThrows('conflict');
  t.match(refused?.message, /key_ci was rotated since it was read: reload the key and retry/);
  given([created, owner, key]).when(rotate(H1)).thenThrows('conflict', undefined, 'a hash the key never had');
});

t.test('unknown and revoked keys are refused as before, whatever hash is named', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  given([created, owner, key]).when(rotate(H0, 'key_nothing')).thenThrows('not_found', undefined, 'an unknown key');
  given([]).when(rotate(H0)).thenThrows('not_found', undefined, 'no organization');
  const err = given([created, owner, key, revoked]).when(rotate(H0)).thenThrows('conflict', undefined, 'a revoked key');
  t.match(err?.message, /key_ci is revoked/);
});
