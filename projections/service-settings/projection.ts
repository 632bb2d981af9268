/**
 * The service settings read model (collection `service_settings`, one document `service`): what
 * the API needs to know of the operator's service-wide switches (maintenance mode), folded from
 * the `service-settings` stream. Idempotent: the document keeps the position it was folded to.
 */
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import type { ServiceSettingsEvent } from '../../domain/service-settings/settings.js';
import { isServiceSettingsStream } from '../../domain/service-settings/streams.js';
import type { Projection } from '../projection.js';

export const SERVICE_SETTINGS = 'service_settings';
/** The id of the one document. */
export const SERVICE_SETTINGS_ID = 'service';

export interface ServiceSettingsDocument {
  id: typeof SERVICE_SETTINGS_ID;
  /** null: the API answers; else every /v1 call answers 503 api_disabled with this message and Retry-After (s). */
  maintenance: { message: string; retryAfterSeconds: number; since: string } | null;
  position: number;
}

/** The document after `event` (pure; null before the first event). */
export function evolveServiceSettingsDocument(
  doc: ServiceSettingsDocument | null,
  event: ServiceSettingsEvent,
  position: number,
): ServiceSettingsDocument {
  switch (event.type) {
    case 'MaintenanceStarted':
      return {
        id: SERVICE_SETTINGS_ID,
        maintenance: {
          message: event.data.message,
          retryAfterSeconds: event.data.retryAfterSeconds,
          since: event.data.startedAt,
        },
        position,
      };
    case 'MaintenanceEnded':
      return { ...(doc ?? { id: SERVICE_SETTINGS_ID }), maintenance: null, position };
  }
}

export const serviceSettingsProjection: Projection = {
  name: 'service-settings',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    if (!isServiceSettingsStream(recorded.stream)) return;
    const docs = store.collection<ServiceSettingsDocument>(SERVICE_SETTINGS);
    const doc = (await docs.get(SERVICE_SETTINGS_ID)) ?? null;
    if (doc && recorded.position <= doc.position) return;
    await docs.put(
      evolveServiceSettingsDocument(
        doc,
        { type: recorded.type, data: recorded.data } as ServiceSettingsEvent,
        recorded.position,
      ),
    );
  },
};
