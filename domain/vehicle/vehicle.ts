/**
 * A saved vehicle of an organization (stream `vehicle-<id>`, id `veh_…`; spec "Resources and
 * their fields" → Vehicle, saved data): the spec's Vehicle fields except `id`, `vehicle_id` and
 * `quantity`, which only make sense inside a request. Lengths in cm, weights in kg.
 */
import type { DomainEvent } from '../decider/decider.js';
import type { SavedVehicle } from '../pack/request.js';

/** Who made a change: the member the API key acts for (spec: `created_by` / `updated_by`). */
export interface Actor {
  id: string;
  name: string;
}

/** The stored fields of a saved vehicle; name, type, dimensions and payload always set. */
export type VehicleFields = Omit<SavedVehicle, 'id' | 'vehicle_id' | 'quantity'>;

export type VehicleEvent =
  | DomainEvent<'VehicleCreated', { vehicleId: string; orgId: string; fields: VehicleFields; createdAt: string; createdBy: Actor }>
  /** `fields` is the whole record after the change. */
  | DomainEvent<'VehicleUpdated', { vehicleId: string; orgId: string; fields: VehicleFields; updatedAt: string; updatedBy: Actor }>
  | DomainEvent<'VehicleDeleted', { vehicleId: string; orgId: string; deletedAt: string; deletedBy: Actor }>;

export interface VehicleState {
  status: 'none' | 'active' | 'deleted';
  id: string;
  orgId: string;
  fields: VehicleFields | null;
  createdAt: string;
  updatedAt: string;
  createdBy: Actor | null;
  updatedBy: Actor | null;
}

export const initialVehicle = (): VehicleState => ({
  status: 'none',
  id: '',
  orgId: '',
  fields: null,
  createdAt: '',
  updatedAt: '',
  createdBy: null,
  updatedBy: null,
});

export function evolveVehicle(state: VehicleState, event: VehicleEvent): VehicleState {
  switch (event.type) {
    case 'VehicleCreated': {
      const d = event.data;
      return { status: 'active', id: d.vehicleId, orgId: d.orgId, fields: d.fields, createdAt: d.createdAt, updatedAt: d.createdAt, createdBy: d.createdBy, updatedBy: d.createdBy };
    }
    case 'VehicleUpdated':
      return { ...state, fields: event.data.fields, updatedAt: event.data.updatedAt, updatedBy: event.data.updatedBy };
    case 'VehicleDeleted':
      return { ...state, status: 'deleted', updatedAt: event.data.deletedAt, updatedBy: event.data.deletedBy };
  }
}
