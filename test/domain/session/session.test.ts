/** The session decider: started once with a 12 h lifetime, refreshed and ended only while active. */
import t from 'tap';
import { sessionDecider, type SessionCommand, type SessionEvent } from '../../../domain/session/session.js';
import { ACTOR, LATER, NOW, after, deciderSpec } from '../../helpers/decider-spec.js';

const cmd = <C extends SessionCommand['type']>(
  type: C,
  data: Extract<SessionCommand, { type: C }>['data'],
  now = LATER,
) => ({ type, data, metadata: { now, actor: ACTOR } }) as SessionCommand;
const started: SessionEvent = {
  type: 'SessionStarted',
  data: {
    sessionId: 'ses_1',
    tokenHash: 'h',
    orgId: 'org_a',
    memberId: 'usr_a',
    startedAt: NOW,
    expiresAt: after(12 * 3600 * 1000),
  },
};

t.test('start, refresh, end; ended sessions stay ended', async (t) => {
  const { given } = deciderSpec(t, sessionDecider);
  given([])
    .when(cmd('StartSession', { sessionId: 'ses_1', tokenHash: 'h', orgId: 'org_a', memberId: 'usr_a' }, NOW))
    .then([started]);
  given([started])
    .when(cmd('StartSession', { sessionId: 'ses_1', tokenHash: 'h', orgId: 'org_a', memberId: 'usr_a' }))
    .thenThrows('conflict');
  given([started])
    .when(cmd('RefreshSession', {}))
    .then([{ type: 'SessionRefreshed', data: { sessionId: 'ses_1', tokenHash: 'h', at: LATER } }]);
  given([started])
    .when(cmd('RefreshSession', {}, after(4 * 60 * 1000)))
    .thenNothing('within 5 min of the last use');
  const ended = given([started])
    .when(cmd('EndSession', { reason: 'signed_out' }))
    .then([
      { type: 'SessionEnded', data: { sessionId: 'ses_1', tokenHash: 'h', reason: 'signed_out', endedAt: LATER } },
    ]);
  given(ended.history)
    .when(cmd('EndSession', { reason: 'expired' }))
    .thenNothing('ending twice');
  given(ended.history).when(cmd('RefreshSession', {})).thenNothing('refreshing an ended session');
});
