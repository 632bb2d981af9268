/**
 * A projection folds events of the global log into read-model documents. `apply` must be
 * idempotent: documents remember the position of the last event applied to them and skip
 * events at or below it (STYLE: ordered, idempotent projections).
 */
import type { RecordedEvent } from '../domain/ports/event-store.js';
import type { ReadStore } from '../domain/ports/read-store.js';

export interface Projection {
  name: string;
  apply(event: RecordedEvent, store: ReadStore): Promise<void>;
}
