/**
 * Checking an email and password: the credential stream of the email (read from the
 * event store, so a password set a moment ago works at once), the scrypt hash compared in
 * constant time, and the member still in the organization. An unknown email costs a hash like a
 * known one and fails with the same 401 as a wrong password.
 */
import { loadState } from '../domain/decider/handle.js';
import { credentialDecider } from '../domain/credential/credential.js';
import { credentialStream } from '../domain/credential/streams.js';
import { ORGANIZATIONS, type OrganizationDocument } from '../projections/organizations/projection.js';
import { DomainError } from '../domain/errors.js';
import { verifyPassword, type PasswordCost } from './password.js';
import type { UseCasePorts } from './ports.js';

/**
 * The member `email` and `password` sign in as; throws 401 unauthorized "wrong email or
 * password". `passwordCost`: the service's cost of new hashes, that of the unknown email's decoy
 * (default DEFAULT_PASSWORD_COST).
 */
export async function checkPassword(
  ports: Pick<UseCasePorts, 'store' | 'reads'> & { passwordCost?: PasswordCost | undefined },
  email: string,
  password: string,
): Promise<{ orgId: string; memberId: string }> {
  const { state } = await loadState(ports.store, credentialStream(email), credentialDecider);
  const ok = await verifyPassword(password, state.active ? state.password : null, ports.passwordCost);
  if (!ok) throw new DomainError('unauthorized', 'wrong email or password');
  const org = await ports.reads.collection<OrganizationDocument>(ORGANIZATIONS).get(state.orgId);
  if (!org?.members[state.userId]) throw new DomainError('unauthorized', 'wrong email or password');
  return { orgId: state.orgId, memberId: state.userId };
}
