/**
 * Who asks for a command (STYLE: `metadata: { now, actor }`): a member of an organization, acting
 * through an API key (the spec's `created_by` / `updated_by`), or a part of the service itself.
 */

/** A member (`usr_…`) with the name shown beside their changes, or a service actor below. */
export interface Actor {
  id: string;
  name: string;
}

/** The parts of the service that issue commands of their own. */
export type ServiceRole = 'scheduler' | 'solver' | 'admission' | 'repair' | 'admin';

/** The actor of a command the service issues by itself (`service:<role>`). */
export const serviceActor = (role: ServiceRole): Actor => ({ id: `service:${role}`, name: role });
