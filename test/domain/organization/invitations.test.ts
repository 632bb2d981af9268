/**
 * Invitations and member removal in the organization decider: an invitation is used
 * once, until its expiry; a new member gets MemberAdded, the owner member only the email; the
 * owner cannot be removed.
 */
import t from 'tap';
import { organizationDecider, type OrganizationCommand } from '../../../domain/organization/decide.js';
import type { OrganizationEvent } from '../../../domain/organization/organization.js';
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import { ACTOR, LATER, NOW, after, deciderSpec } from '../../helpers/decider-spec.js';

const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { orgId: 'org_a', name: 'A', limits: DEFAULT_LIMITS, axleAccess: false, createdAt: NOW },
};
const owner: OrganizationEvent = {
  type: 'MemberAdded',
  data: { userId: 'usr_owner', name: 'Owner', role: 'owner', addedAt: NOW },
};
const cmd = <C extends OrganizationCommand['type']>(
  type: C,
  data: Extract<OrganizationCommand, { type: C }>['data'],
  now = LATER,
) => ({ type, data, metadata: { now, actor: ACTOR } }) as OrganizationCommand;
const WEEK = after(7 * 24 * 3600 * 1000);
const issued = (memberId: string, role: 'owner' | 'member'): OrganizationEvent => ({
  type: 'InvitationIssued',
  data: {
    invitationId: 'inv_1',
    tokenHash: 'h1',
    email: 'a@example.com',
    role,
    memberId,
    expiresAt: WEEK,
    issuedAt: NOW,
    by: ACTOR.id,
  },
});

t.test('a member invitation: issued, accepted once with MemberAdded, then 404', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  given([created, owner])
    .when(
      cmd(
        'IssueInvitation',
        {
          invitationId: 'inv_1',
          tokenHash: 'h1',
          email: 'a@example.com',
          role: 'member',
          memberId: 'usr_new',
          expiresAt: WEEK,
        },
        NOW,
      ),
    )
    .then([issued('usr_new', 'member')]);
  const out = given([created, owner, issued('usr_new', 'member')])
    .when(cmd('AcceptInvitation', { tokenHash: 'h1', name: 'Ann' }))
    .then([
      {
        type: 'InvitationAccepted',
        data: {
          invitationId: 'inv_1',
          tokenHash: 'h1',
          memberId: 'usr_new',
          email: 'a@example.com',
          name: 'Ann',
          acceptedAt: LATER,
        },
      },
      {
        type: 'MemberAdded',
        data: { userId: 'usr_new', name: 'Ann', role: 'member', addedAt: LATER, email: 'a@example.com' },
      },
    ]);
  t.same(out.state.members['usr_new'], { name: 'Ann', role: 'member', email: 'a@example.com' });
  given(out.history)
    .when(cmd('AcceptInvitation', { tokenHash: 'h1', name: 'Eve' }))
    .thenThrows('not_found');
  given([created, owner, issued('usr_new', 'member')])
    .when(cmd('AcceptInvitation', { tokenHash: 'other', name: 'Eve' }))
    .thenThrows('not_found');
  given([created, owner, issued('usr_new', 'member')])
    .when(cmd('AcceptInvitation', { tokenHash: 'h1', name: 'Late' }, WEEK))
    .thenThrows('not_found', undefined, 'at its expiry');
});

t.test('an owner invitation of the owner member attaches the email; no second MemberAdded', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  const out = given([created, owner, issued('usr_owner', 'owner')])
    .when(cmd('AcceptInvitation', { tokenHash: 'h1', name: 'Olga' }))
    .then([
      {
        type: 'InvitationAccepted',
        data: {
          invitationId: 'inv_1',
          tokenHash: 'h1',
          memberId: 'usr_owner',
          email: 'a@example.com',
          name: 'Olga',
          acceptedAt: LATER,
        },
      },
    ]);
  t.same(out.state.members['usr_owner'], { name: 'Olga', role: 'owner', email: 'a@example.com' });
  given(out.history)
    .when(
      cmd('IssueInvitation', {
        invitationId: 'inv_2',
        tokenHash: 'h2',
        email: 'b@example.com',
        role: 'owner',
        memberId: 'usr_owner',
        expiresAt: WEEK,
      }),
    )
    .thenThrows('conflict', undefined, 'an owner who signs in already takes no second invitation');
});

t.test('removing: a member goes, the owner stays (409), an unknown member is 404', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  const member: OrganizationEvent = {
    type: 'MemberAdded',
    data: { userId: 'usr_m', name: 'Max', role: 'member', addedAt: NOW, email: 'max@example.com' },
  };
  const out = given([created, owner, member])
    .when(cmd('RemoveMember', { userId: 'usr_m' }))
    .then([
      {
        type: 'MemberRemoved',
        data: { userId: 'usr_m', name: 'Max', email: 'max@example.com', removedAt: LATER, by: ACTOR.id },
      },
    ]);
  t.same(Object.keys(out.state.members), ['usr_owner']);
  given(out.history)
    .when(cmd('RemoveMember', { userId: 'usr_m' }))
    .thenThrows('not_found');
  given([created, owner])
    .when(cmd('RemoveMember', { userId: 'usr_owner' }))
    .thenThrows('conflict');
});
