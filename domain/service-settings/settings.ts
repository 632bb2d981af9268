/**
 * The service settings aggregate (one stream, `service-settings`): switches of the whole service
 * the operator turns, today maintenance mode. While maintenance is on every `/v1` call answers
 * `503 api_disabled` with `Retry-After` (spec Errors: "API disabled for maintenance").
 */
import type { DomainEvent } from '../decider/decider.js';

export type ServiceSettingsEvent =
  /** Maintenance began, or its message or Retry-After (whole seconds) changed while on. */
  | DomainEvent<'MaintenanceStarted', { message: string; retryAfterSeconds: number; startedAt: string; by: string }>
  /** Maintenance ended: the API answers again. */
  | DomainEvent<'MaintenanceEnded', { endedAt: string; by: string }>;

export interface ServiceSettingsState {
  /** null: the API answers; else the message and Retry-After seconds of the 503s. */
  maintenance: { message: string; retryAfterSeconds: number } | null;
}

export const initialServiceSettings = (): ServiceSettingsState => ({ maintenance: null });

export function evolveServiceSettings(state: ServiceSettingsState, event: ServiceSettingsEvent): ServiceSettingsState {
  switch (event.type) {
    case 'MaintenanceStarted':
      return {
        ...state,
        maintenance: { message: event.data.message, retryAfterSeconds: event.data.retryAfterSeconds },
      };
    case 'MaintenanceEnded':
      return { ...state, maintenance: null };
  }
}
