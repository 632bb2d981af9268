/** Service settings commands, `{ type, data, metadata: { now, actor } }`. Pure: time and actor come in. */
import type { Command, Decider } from '../decider/decider.js';
import { checkRetryAfter } from './retry-after.js';
import {
  evolveServiceSettings,
  initialServiceSettings,
  type ServiceSettingsEvent,
  type ServiceSettingsState,
} from './settings.js';

export type ServiceSettingsCommand =
  /** `retryAfterSeconds`: the `Retry-After` of the 503s, a whole number ≥ 1. */
  | Command<'StartMaintenance', { message: string; retryAfterSeconds: number }>
  | Command<'EndMaintenance', Record<string, never>>;

/**
 * The events `command` causes. Idempotent: starting maintenance that is on with the same message
 * and Retry-After, or ending maintenance that is off, causes no event; starting it again with
 * other words updates them. Throws DomainError validation_failed for a bad Retry-After.
 */
export function decideServiceSettings(
  command: ServiceSettingsCommand,
  state: ServiceSettingsState,
): ServiceSettingsEvent[] {
  const { now, actor } = command.metadata;
  switch (command.type) {
    case 'StartMaintenance': {
      const { message, retryAfterSeconds } = command.data;
      checkRetryAfter(retryAfterSeconds);
      const on = state.maintenance;
      if (on && on.message === message && on.retryAfterSeconds === retryAfterSeconds) return [];
      return [{ type: 'MaintenanceStarted', data: { message, retryAfterSeconds, startedAt: now, by: actor.id } }];
    }
    case 'EndMaintenance':
      return state.maintenance ? [{ type: 'MaintenanceEnded', data: { endedAt: now, by: actor.id } }] : [];
  }
}

export const serviceSettingsDecider: Decider<ServiceSettingsState, ServiceSettingsCommand, ServiceSettingsEvent> = {
  initialState: initialServiceSettings,
  evolve: evolveServiceSettings,
  decide: decideServiceSettings,
};
