/**
 * The operator switches as domain commands, issued by `npm run admin` with the actor
 * `service:admin`: maintenance mode (stream `service-settings`), the API off and on for one
 * organization, suspension and reactivation. Each is idempotent: `changed` is false when the
 * switch was already in the state asked for (no event written).
 */
import { serviceActor } from '../domain/decider/actor.js';
import { handleCommand } from '../domain/decider/handle.js';
import { organizationDecider, type OrganizationCommand } from '../domain/organization/decide.js';
import { orgStream } from '../domain/organization/streams.js';
import type { EventStore } from '../domain/ports/event-store.js';
import { serviceSettingsDecider } from '../domain/service-settings/decide.js';
import { SERVICE_SETTINGS_STREAM } from '../domain/service-settings/streams.js';

const ADMIN = serviceActor('admin');

/** What a switch did: whether it wrote an event, and the log position to wait for before the API shows it. */
export interface Switched {
  changed: boolean;
  position: number;
}

/**
 * Maintenance on (with the message and `Retry-After` seconds of the 503s) or off. Throws
 * DomainError validation_failed for a Retry-After that is not a whole number ≥ 1.
 */
export async function setMaintenance(
  store: EventStore,
  on: { message: string; retryAfterSeconds: number } | null,
  now: string,
): Promise<Switched> {
  const metadata = { now, actor: ADMIN };
  const done = on
    ? await handleCommand(store, SERVICE_SETTINGS_STREAM, serviceSettingsDecider, {
        type: 'StartMaintenance',
        data: on,
        metadata,
      })
    : await handleCommand(store, SERVICE_SETTINGS_STREAM, serviceSettingsDecider, {
        type: 'EndMaintenance',
        data: {},
        metadata,
      });
  return { changed: done.events.length > 0, position: done.position };
}

async function onOrganization(
  store: EventStore,
  orgId: string,
  command: Omit<OrganizationCommand, 'metadata'>,
  now: string,
): Promise<Switched> {
  const done = await handleCommand(store, orgStream(orgId), organizationDecider, {
    ...command,
    metadata: { now, actor: ADMIN },
  } as OrganizationCommand);
  return { changed: done.events.length > 0, position: done.position };
}

/**
 * The API off (`503 api_disabled` with the message and `Retry-After` seconds for the
 * organization's keys) or on again (`off` null). Throws DomainError not_found for an unknown
 * organization, validation_failed for a bad Retry-After.
 */
export function setOrganizationApi(
  store: EventStore,
  orgId: string,
  off: { message: string; retryAfterSeconds: number } | null,
  now: string,
): Promise<Switched> {
  return onOrganization(store, orgId, off ? { type: 'DisableApi', data: off } : { type: 'EnableApi', data: {} }, now);
}

/**
 * Suspends the organization (`403 account_inactive` for its keys; `reason` is kept in the log) or
 * reactivates it (`reason` null). Throws DomainError not_found for an unknown organization.
 */
export function setOrganizationSuspended(
  store: EventStore,
  orgId: string,
  reason: string | null,
  now: string,
): Promise<Switched> {
  return onOrganization(
    store,
    orgId,
    reason !== null ? { type: 'SuspendOrganization', data: { reason } } : { type: 'ReactivateOrganization', data: {} },
    now,
  );
}
