/**
 * The organization's display units in its decider: the owner's choice is one DisplayUnitsChosen
 * event, choosing the current preference (metric at first) causes none, anything else is
 * validation_failed, and an unknown organization is not_found.
 */
import t from 'tap';
import { organizationDecider, type OrganizationCommand } from '../../../domain/organization/decide.js';
import type { DisplayUnits, OrganizationEvent } from '../../../domain/organization/organization.js';
import { DEFAULT_LIMITS } from '../../../domain/organization/limits.js';
import { ACTOR, LATER, NOW, deciderSpec } from '../../helpers/decider-spec.js';

const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { orgId: 'org_a', name: 'A', limits: DEFAULT_LIMITS, axleAccess: false, createdAt: NOW },
};
const choose = (displayUnits: DisplayUnits): OrganizationCommand => ({
  type: 'ChooseDisplayUnits',
  data: { displayUnits },
  metadata: { now: LATER, actor: ACTOR },
});
const chosen = (displayUnits: DisplayUnits): OrganizationEvent => ({
  type: 'DisplayUnitsChosen',
  data: { displayUnits, chosenAt: LATER, by: ACTOR.id },
});

t.test('metric at first; imperial is chosen once; back to metric', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  given([created]).when(choose('metric')).thenNothing('metric is the preference already');
  const imperial = given([created])
    .when(choose('imperial'))
    .then([chosen('imperial')]);
  t.equal(imperial.state.displayUnits, 'imperial');
  given(imperial.history).when(choose('imperial')).thenNothing('choosing it again');
  const back = given(imperial.history)
    .when(choose('metric'))
    .then([chosen('metric')]);
  t.equal(back.state.displayUnits, 'metric');
});

t.test('refusals: other values, no organization', async (t) => {
  const { given } = deciderSpec(t, organizationDecider);
  given([created])
    .when(choose('furlongs' as DisplayUnits))
    .thenThrows('validation_failed');
  given([]).when(choose('imperial')).thenThrows('not_found');
});
