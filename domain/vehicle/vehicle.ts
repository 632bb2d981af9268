/**
 * A saved vehicle of an organization (stream `vehicle-<id>`, id `veh_…`; spec "Resources and
 * their fields" → Vehicle, saved data): the spec's Vehicle fields except `id`, `vehicle_id` and
 * `quantity`, which only make sense inside a request. Lengths in cm, weights in kg. Written by
 * the saved-record decider (domain/saved-record/decide.ts) with this kind.
 */
import type { SavedVehicle } from '../pack/request.js';
import { savedRecordKind } from '../saved-record/decide.js';
import { vehicleStream } from './streams.js';

/** The stored fields of a saved vehicle; name, type, dimensions and payload always set. */
export type VehicleFields = Omit<SavedVehicle, 'id' | 'vehicle_id' | 'quantity'>;

/** Events `VehicleCreated`, `VehicleUpdated`, `VehicleDeleted` with `vehicleId`; refusal `vehicle_not_found`. */
export const VEHICLE_RECORD = savedRecordKind('Vehicle', 'vehicleId', vehicleStream);
