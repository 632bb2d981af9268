/**
 * Saved vehicles read model (collection `vehicles`): one document per `vehicle-<id>` stream,
 * read by GET /v1/vehicles, GET /v1/vehicles/{id} and by pack requests naming a `veh_…` id.
 */
import type { VehicleFields } from '../../domain/vehicle/vehicle.js';
import { VEHICLE_STREAM_PREFIX } from '../../domain/vehicle/streams.js';
import { savedRecordProjection, type SavedRecordDocument } from '../saved-records/projection.js';

export const VEHICLES = 'vehicles';

export type VehicleDocument = SavedRecordDocument<VehicleFields>;

export const vehiclesProjection = savedRecordProjection({
  name: 'vehicles',
  collection: VEHICLES,
  streamPrefix: VEHICLE_STREAM_PREFIX,
  kind: 'Vehicle',
  idField: 'vehicleId',
});
