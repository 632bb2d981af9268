/** The credential decider: one active credential per email; revoking frees the email. */
import t from 'tap';
import {
  credentialDecider,
  type CredentialCommand,
  type CredentialEvent,
  type PasswordHash,
} from '../../../domain/credential/credential.js';
import { credentialStream } from '../../../domain/credential/streams.js';
import { ACTOR, LATER, NOW, deciderSpec } from '../../helpers/decider-spec.js';

const password: PasswordHash = {
  algorithm: 'scrypt',
  N: 32768,
  r: 8,
  p: 1,
  keyLength: 64,
  salt: 'c2FsdA==',
  hash: 'aGFzaA==',
};
const cmd = (command: Omit<CredentialCommand, 'metadata'>, now = LATER) =>
  ({ ...command, metadata: { now, actor: ACTOR } }) as CredentialCommand;
const created: CredentialEvent = {
  type: 'CredentialCreated',
  data: { email: 'a@example.com', userId: 'usr_a', orgId: 'org_a', password, createdAt: NOW },
};

t.test('created once; revoked by its member only; then the email is free', async (t) => {
  const { given } = deciderSpec(t, credentialDecider);
  given([])
    .when(
      cmd(
        { type: 'CreateCredential', data: { email: 'a@example.com', userId: 'usr_a', orgId: 'org_a', password } },
        NOW,
      ),
    )
    .then([created]);
  given([created])
    .when(
      cmd({ type: 'CreateCredential', data: { email: 'a@example.com', userId: 'usr_b', orgId: 'org_b', password } }),
    )
    .thenThrows('conflict');
  given([created])
    .when(cmd({ type: 'RevokeCredential', data: { userId: 'usr_other', reason: 'member_removed' } }))
    .thenNothing('another member');
  const revoked = given([created])
    .when(cmd({ type: 'RevokeCredential', data: { userId: 'usr_a', reason: 'member_removed' } }))
    .then([{ type: 'CredentialRevoked', data: { userId: 'usr_a', reason: 'member_removed', revokedAt: LATER } }]);
  t.equal(revoked.state.password, null, 'no hash kept');
  given(revoked.history)
    .when(
      cmd({ type: 'CreateCredential', data: { email: 'a@example.com', userId: 'usr_b', orgId: 'org_b', password } }),
    )
    .then([{ ...created, data: { ...created.data, userId: 'usr_b', orgId: 'org_b', createdAt: LATER } }]);
});

t.test('the stream is per normalized email and names no address', async (t) => {
  t.equal(credentialStream(' A@Example.COM '), credentialStream('a@example.com'));
  t.match(credentialStream('a@example.com'), /^credential-[0-9a-f]{64}$/);
});
