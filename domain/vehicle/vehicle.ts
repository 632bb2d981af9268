/**
 * A saved vehicle of an organization (stream `vehicle-<id>`, id `veh_…`; spec "Resources and
 * their fields" → Vehicle, saved data): the spec's Vehicle fields except `id`, `vehicle_id` and
 * `quantity`, which only make sense inside a request. Lengths in cm, weights in kg.
 */
import type { DomainEvent } from '../decider/decider.js';
import { initialSavedRecord, recordCreated, recordDeleted, recordUpdated, type Actor, type SavedRecordState } from '../saved-record/record.js';
import type { SavedVehicle } from '../pack/request.js';

export type { Actor };

/** The stored fields of a saved vehicle; name, type, dimensions and payload always set. */
export type VehicleFields = Omit<SavedVehicle, 'id' | 'vehicle_id' | 'quantity'>;

export type VehicleEvent =
  | DomainEvent<'VehicleCreated', { vehicleId: string; orgId: string; fields: VehicleFields; createdAt: string; createdBy: Actor }>
  /** `fields` is the whole record after the change. */
  | DomainEvent<'VehicleUpdated', { vehicleId: string; orgId: string; fields: VehicleFields; updatedAt: string; updatedBy: Actor }>
  | DomainEvent<'VehicleDeleted', { vehicleId: string; orgId: string; deletedAt: string; deletedBy: Actor }>;

export type VehicleState = SavedRecordState<VehicleFields>;

export const initialVehicle = (): VehicleState => initialSavedRecord<VehicleFields>();

export function evolveVehicle(state: VehicleState, event: VehicleEvent): VehicleState {
  switch (event.type) {
    case 'VehicleCreated': {
      const d = event.data;
      return recordCreated({ id: d.vehicleId, orgId: d.orgId, fields: d.fields, at: d.createdAt, by: d.createdBy });
    }
    case 'VehicleUpdated':
      return recordUpdated(state, event.data.fields, event.data.updatedAt, event.data.updatedBy);
    case 'VehicleDeleted':
      return recordDeleted(state, event.data.deletedAt, event.data.deletedBy);
  }
}
