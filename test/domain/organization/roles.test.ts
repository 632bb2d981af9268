/**
 * Roles in the organization, credential and webhook endpoint deciders: a removal revokes the
 * keys made for the member and their pending invitations in the same append; pending invitations
 * are withdrawn (their token then refused); a password reset invites an existing member (not the
 * owner) and is refused once that member left; a password change needs the member's active
 * credential; an endpoint is disabled once (idempotent) and can still be deleted.
 */
import t from 'tap';
import { credentialDecider, type CredentialEvent, type PasswordHash } from '../../../domain/credential/credential.js';
import { organizationDecider, type OrganizationCommand } from '../../../domain/organization/decide.js';
import {
  MEMBER_SCOPES,
  SCOPES,
  scopesOfRole,
  type OrganizationEvent,
} from '../../../domain/organization/organization.js';
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import { webhookEndpointDecider, type WebhookEndpointEvent } from '../../../domain/webhook/endpoint.js';
import { ACTOR, LATER, NOW, after, deciderSpec } from '../../helpers/decider-spec.js';

const WEEK = after(7 * 24 * 3600 * 1000);
const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { orgId: 'org_a', name: 'A', limits: DEFAULT_LIMITS, axleAccess: false, createdAt: NOW },
};
const owner: OrganizationEvent = {
  type: 'MemberAdded',
  data: { userId: 'usr_owner', name: 'Olga', role: 'owner', addedAt: NOW, email: 'olga@example.com' },
};
const eve: OrganizationEvent = {
  type: 'MemberAdded',
  data: { userId: 'usr_eve', name: 'Eve', role: 'member', addedAt: NOW, email: 'eve@example.com' },
};
const keyOf = (keyId: string, memberId: string): OrganizationEvent => ({
  type: 'ApiKeyCreated',
  data: {
    keyId,
    hash: `${keyId}-hash`,
    prefix: 'pk_live_AAAA',
    name: keyId,
    scopes: [...SCOPES],
    memberId,
    createdAt: NOW,
  },
});
const invited = (
  invitationId: string,
  memberId: string,
  extra: { purpose?: 'password_reset'; expiresAt?: string } = {},
): OrganizationEvent => ({
  type: 'InvitationIssued',
  data: {
    invitationId,
    tokenHash: `${invitationId}-hash`,
    email: `${memberId}@example.com`,
    role: 'member',
    memberId,
    expiresAt: extra.expiresAt ?? WEEK,
    issuedAt: NOW,
    by: 'usr_owner',
    ...(extra.purpose ? { purpose: extra.purpose } : {}),
  },
});
const cmd = <C extends OrganizationCommand['type']>(
  type: C,
  data: Extract<OrganizationCommand, { type: C }>['data'],
  now = LATER,
) => ({ type, data, metadata: { now, actor: ACTOR } }) as OrganizationCommand;

t.test('the scopes of the roles', async (t) => {
  t.same(scopesOfRole('owner'), SCOPES);
  t.same(scopesOfRole('member'), ['pack:write', 'jobs:read', 'resources:read', 'resources:write']);
  t.notOk(
    MEMBER_SCOPES.some((s) => s.startsWith('webhooks:') || s === 'account:read'),
    'webhooks and the account are the owner’s',
  );
});

t.test("a removal revokes the member's keys and pending invitations in the same append", async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  const out = given([
    created,
    owner,
    eve,
    keyOf('key_owner', 'usr_owner'),
    keyOf('key_eve', 'usr_eve'),
    invited('inv_reset', 'usr_eve', { purpose: 'password_reset' }),
    invited('inv_other', 'usr_new'),
  ])
    .when(cmd('RemoveMember', { userId: 'usr_eve' }))
    .then([
      {
        type: 'MemberRemoved',
        data: { userId: 'usr_eve', name: 'Eve', email: 'eve@example.com', removedAt: LATER, by: ACTOR.id },
      },
      { type: 'ApiKeyRevoked', data: { keyId: 'key_eve', hash: 'key_eve-hash', revokedAt: LATER } },
      {
        type: 'InvitationRevoked',
        data: { invitationId: 'inv_reset', tokenHash: 'inv_reset-hash', revokedAt: LATER, by: ACTOR.id },
      },
    ]);
  t.same(
    out.state.keys['key_owner'],
    { hash: 'key_owner-hash', revoked: false, memberId: 'usr_owner' },
    "the owner's key stays",
  );
  t.equal(out.state.activeKeys, 1);
});

t.test('withdrawing an invitation: once, only pending ones; its token is then refused', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  const out = given([created, owner, invited('inv_1', 'usr_new')])
    .when(cmd('RevokeInvitation', { invitationId: 'inv_1' }))
    .then([
      {
        type: 'InvitationRevoked',
        data: { invitationId: 'inv_1', tokenHash: 'inv_1-hash', revokedAt: LATER, by: ACTOR.id },
      },
    ]);
  given(out.history)
    .when(cmd('RevokeInvitation', { invitationId: 'inv_1' }))
    .thenThrows('not_found', undefined, 'withdrawn already');
  const refused = given(out.history)
    .when(cmd('AcceptInvitation', { tokenHash: 'inv_1-hash', name: 'Ann' }))
    .thenThrows('not_found');
  t.match(refused?.message, /withdrawn by the organization's owner/, 'the token says it was withdrawn');
  given([created, owner])
    .when(cmd('RevokeInvitation', { invitationId: 'inv_nope' }))
    .thenThrows('not_found');
  given([created, owner, invited('inv_1', 'usr_new')])
    .when(cmd('RevokeInvitation', { invitationId: 'inv_1' }, WEEK))
    .thenThrows('not_found', undefined, 'expired');
});

t.test('a password reset: an invitation to the member’s email and role, accepted without a new member', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  const out = given([created, owner, eve])
    .when(
      cmd(
        'IssuePasswordReset',
        { invitationId: 'inv_r', tokenHash: 'r-hash', memberId: 'usr_eve', expiresAt: WEEK },
        NOW,
      ),
    )
    .then([
      {
        type: 'InvitationIssued',
        data: {
          invitationId: 'inv_r',
          tokenHash: 'r-hash',
          email: 'eve@example.com',
          role: 'member',
          memberId: 'usr_eve',
          expiresAt: WEEK,
          issuedAt: NOW,
          by: ACTOR.id,
          purpose: 'password_reset',
        },
      },
    ]);
  given(out.history)
    .when(cmd('AcceptInvitation', { tokenHash: 'r-hash', name: 'Eve' }))
    .then([
      {
        type: 'InvitationAccepted',
        data: {
          invitationId: 'inv_r',
          tokenHash: 'r-hash',
          memberId: 'usr_eve',
          email: 'eve@example.com',
          name: 'Eve',
          acceptedAt: LATER,
        },
      },
    ]);
  const removed: OrganizationEvent = {
    type: 'MemberRemoved',
    data: { userId: 'usr_eve', name: 'Eve', email: 'eve@example.com', removedAt: NOW, by: 'usr_owner' },
  };
  given([...out.history, removed])
    .when(cmd('AcceptInvitation', { tokenHash: 'r-hash', name: 'Eve' }))
    .thenThrows('not_found', undefined, 'a removed member is not brought back');
  given([created, owner, eve])
    .when(cmd('IssuePasswordReset', { invitationId: 'inv_r', tokenHash: 'r', memberId: 'usr_owner', expiresAt: WEEK }))
    .thenThrows('conflict');
  given([created, owner])
    .when(cmd('IssuePasswordReset', { invitationId: 'inv_r', tokenHash: 'r', memberId: 'usr_eve', expiresAt: WEEK }))
    .thenThrows('not_found');
});

t.test("a password change needs the member's active credential", async (t) => {
  const { given } = deciderSpec(t, credentialDecider);
  const hash = (h: string): PasswordHash => ({
    algorithm: 'scrypt',
    N: 2,
    r: 1,
    p: 1,
    keyLength: 4,
    salt: 's',
    hash: h,
  });
  const made: CredentialEvent = {
    type: 'CredentialCreated',
    data: { email: 'eve@example.com', userId: 'usr_eve', orgId: 'org_a', password: hash('old'), createdAt: NOW },
  };
  const change = (userId: string) => ({
    type: 'ChangePassword' as const,
    data: { userId, password: hash('new'), reason: 'changed' as const, keepSessionId: 'ses_1' },
    metadata: { now: LATER, actor: ACTOR },
  });
  const out = given([made])
    .when(change('usr_eve'))
    .then([
      {
        type: 'CredentialPasswordChanged',
        data: {
          userId: 'usr_eve',
          orgId: 'org_a',
          password: hash('new'),
          reason: 'changed',
          keepSessionId: 'ses_1',
          changedAt: LATER,
        },
      },
    ]);
  t.same(out.state.password, hash('new'));
  given([made]).when(change('usr_other')).thenThrows('not_found');
  given([made, { type: 'CredentialRevoked', data: { userId: 'usr_eve', reason: 'member_removed', revokedAt: NOW } }])
    .when(change('usr_eve'))
    .thenThrows('not_found');
});

t.test('an endpoint is disabled once, then only deleted', async (t) => {
  const { given } = deciderSpec(t, webhookEndpointDecider);
  const registered: WebhookEndpointEvent = {
    type: 'WebhookEndpointRegistered',
    data: {
      endpointId: 'whe_1',
      orgId: 'org_a',
      url: 'https://example.com/h',
      events: ['job.succeeded'],
      secret: 'whsec_x',
      createdAt: NOW,
      createdBy: { id: 'usr_eve', name: 'Eve' },
    },
  };
  const disable = {
    type: 'DisableWebhookEndpoint' as const,
    data: { endpointId: 'whe_1', orgId: 'org_a', reason: 'creator_removed' as const },
    metadata: { now: LATER, actor: ACTOR },
  };
  const out = given([registered])
    .when(disable)
    .then([
      {
        type: 'WebhookEndpointDisabled',
        data: { endpointId: 'whe_1', orgId: 'org_a', reason: 'creator_removed', disabledAt: LATER, disabledBy: ACTOR },
      },
    ]);
  t.equal(out.state.status, 'disabled');
  given(out.history).when(disable).then([]);
  given(out.history)
    .when({
      type: 'DeleteWebhookEndpoint',
      data: { endpointId: 'whe_1', orgId: 'org_a' },
      metadata: { now: LATER, actor: ACTOR },
    })
    .then([
      {
        type: 'WebhookEndpointDeleted',
        data: { endpointId: 'whe_1', orgId: 'org_a', deletedAt: LATER, deletedBy: ACTOR },
      },
    ]);
  given([registered])
    .when({ ...disable, data: { ...disable.data, orgId: 'org_b' } })
    .then([]);
});
