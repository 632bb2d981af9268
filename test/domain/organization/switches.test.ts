/**
 * The operator switches of the organization decider: suspension and the API off/on,
 * each idempotent (the state already there causes no event), refused for an unknown organization
 * and for a bad Retry-After.
 */
import t from 'tap';
import { organizationDecider } from '../../../domain/organization/decide.js';
import type { OrganizationCommand } from '../../../domain/organization/decide.js';
import type { OrganizationEvent } from '../../../domain/organization/organization.js';
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import { serviceActor } from '../../../domain/decider/actor.js';
import { deciderSpec, NOW, LATER } from '../../helpers/decider-spec.js';

const ADMIN = serviceActor('admin');
const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { orgId: 'org_a', name: 'A', limits: DEFAULT_LIMITS, axleAccess: false, createdAt: NOW },
};
const cmd = <C extends OrganizationCommand['type']>(
  type: C,
  data: Extract<OrganizationCommand, { type: C }>['data'],
  now = LATER,
) => ({ type, data, metadata: { now, actor: ADMIN } }) as OrganizationCommand;
const suspended: OrganizationEvent = {
  type: 'OrganizationSuspended',
  data: { reason: 'unpaid', suspendedAt: LATER, by: 'service:admin' },
};
const disabled: OrganizationEvent = {
  type: 'OrganizationApiDisabled',
  data: { message: 'abuse', retryAfterSeconds: 600, disabledAt: LATER, by: 'service:admin' },
};

t.test('suspend and reactivate: one event each, the state already there is a no-op', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  const out = given([created])
    .when(cmd('SuspendOrganization', { reason: 'unpaid' }))
    .then([suspended]);
  t.equal(out.state.suspended, true, 'the state is suspended');
  given([created, suspended])
    .when(cmd('SuspendOrganization', { reason: 'other words' }))
    .thenNothing('suspending a suspended organization');
  const back = given([created, suspended])
    .when(cmd('ReactivateOrganization', {}))
    .then([{ type: 'OrganizationReactivated', data: { reactivatedAt: LATER, by: 'service:admin' } }]);
  t.equal(back.state.suspended, false);
  given([created]).when(cmd('ReactivateOrganization', {})).thenNothing('reactivating an active organization');
});

t.test('API off and on: one event each, the same words again are a no-op, new words replace them', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  const out = given([created])
    .when(cmd('DisableApi', { message: 'abuse', retryAfterSeconds: 600 }))
    .then([disabled]);
  t.same(out.state.apiDisabled, { message: 'abuse', retryAfterSeconds: 600 });
  given([created, disabled])
    .when(cmd('DisableApi', { message: 'abuse', retryAfterSeconds: 600 }))
    .thenNothing('the same switch twice');
  given([created, disabled])
    .when(cmd('DisableApi', { message: 'audit', retryAfterSeconds: 600 }))
    .then([
      {
        type: 'OrganizationApiDisabled',
        data: { message: 'audit', retryAfterSeconds: 600, disabledAt: LATER, by: 'service:admin' },
      },
    ]);
  const on = given([created, disabled])
    .when(cmd('EnableApi', {}))
    .then([{ type: 'OrganizationApiEnabled', data: { enabledAt: LATER, by: 'service:admin' } }]);
  t.equal(on.state.apiDisabled, null);
  given([created]).when(cmd('EnableApi', {})).thenNothing('enabling an enabled API');
});

t.test('refusals: unknown organization, Retry-After not a whole number ≥ 1', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  for (const c of [
    cmd('SuspendOrganization', { reason: 'x' }),
    cmd('ReactivateOrganization', {}),
    cmd('DisableApi', { message: 'x', retryAfterSeconds: 60 }),
    cmd('EnableApi', {}),
  ]) {
    given([]).when(c).thenThrows('not_found', undefined, `${c.type} on no organization`);
  }
  for (const bad of [0, -5, 1.5, Number.NaN]) {
    given([created])
      .when(cmd('DisableApi', { message: 'x', retryAfterSeconds: bad }))
      .thenThrows('validation_failed', undefined, `retry-after ${bad}`);
  }
});
