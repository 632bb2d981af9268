/** Stream name of a saved vehicle (DESIGN §3: `vehicle-<id>`). */
export const vehicleStream = (vehicleId: string): string => `vehicle-${vehicleId}`;
