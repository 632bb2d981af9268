/**
 * Saved vehicles read model (collection `vehicles`): one document per `vehicle-<id>` stream,
 * read by GET /v1/vehicles, GET /v1/vehicles/{id} and by pack requests naming a `veh_…` id.
 * Deleted vehicles stay as tombstones (`deleted: true`) so a replayed event cannot revive them.
 */
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import type { ReadStore } from '../../domain/ports/read-store.js';
import type { Actor, VehicleEvent, VehicleFields } from '../../domain/vehicle/vehicle.js';
import type { Projection } from '../projection.js';

export const VEHICLES = 'vehicles';

export interface VehicleDocument {
  /** `veh_…` */
  id: string;
  orgId: string;
  fields: VehicleFields;
  /** RFC 3339 */
  createdAt: string;
  updatedAt: string;
  createdBy: Actor;
  updatedBy: Actor;
  deleted: boolean;
  /** Global log position of the last event applied. */
  position: number;
}

export const vehiclesProjection: Projection = {
  name: 'vehicles',
  async apply(recorded: RecordedEvent, store: ReadStore): Promise<void> {
    if (!recorded.stream.startsWith('vehicle-')) return;
    const vehicles = store.collection<VehicleDocument>(VEHICLES);
    const event = { type: recorded.type, data: recorded.data } as VehicleEvent;
    if (event.type === 'VehicleCreated') {
      const d = event.data;
      if (await vehicles.get(d.vehicleId)) return;
      await vehicles.put({
        id: d.vehicleId,
        orgId: d.orgId,
        fields: d.fields,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        createdBy: d.createdBy,
        updatedBy: d.createdBy,
        deleted: false,
        position: recorded.position,
      });
      return;
    }
    const doc = await vehicles.get(event.data.vehicleId);
    if (!doc || recorded.position <= doc.position) return;
    doc.position = recorded.position;
    switch (event.type) {
      case 'VehicleUpdated':
        doc.fields = event.data.fields;
        doc.updatedAt = event.data.updatedAt;
        doc.updatedBy = event.data.updatedBy;
        break;
      case 'VehicleDeleted':
        doc.deleted = true;
        doc.updatedAt = event.data.deletedAt;
        doc.updatedBy = event.data.deletedBy;
        break;
      default:
        return;
    }
    await vehicles.put(doc);
  },
};
