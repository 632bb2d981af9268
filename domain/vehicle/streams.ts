/** Stream name of a saved vehicle (DESIGN §3: `vehicle-<id>`); the only place it is built or read. */
export const VEHICLE_STREAM_PREFIX = 'vehicle-';
export const vehicleStream = (vehicleId: string): string => `${VEHICLE_STREAM_PREFIX}${vehicleId}`;
