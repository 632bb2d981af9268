/**
 * The vocabulary of a process profile (DESIGN §2) that layers below the composition root share:
 * the roles a process can run, and the error of a setting refused at start. Reading and checking
 * the settings is the composition root's job (service/config.ts, service/profile.ts); the health
 * of the dependencies each role needs (adapters/health/dependency-health.ts) and the trusted
 * proxies of the HTTP edge (api/http/auth/trust-proxy.ts) use these names without reaching up to it.
 */

/** What a process can do. */
export type Role = 'api' | 'projector' | 'scheduler' | 'solver';

/** Every role, in the order a profile lists them (the default profile runs all four). */
export const ROLES: readonly Role[] = ['api', 'projector', 'scheduler', 'solver'];

/** A bad environment variable: the message names it and the accepted values. */
export class ProfileError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProfileError';
  }
}
