/**
 * Where the estimate's "up to N vehicles" comes from (spec Options.packing_mode, Limits "Vehicles
 * per job (incl. auto-added)", Estimate `max_vehicles`, Credits and pricing): in `auto` mode the
 * service may add copies of the most suitable listed vehicle until the job's vehicle limit, so the
 * bound is that limit (less when the available credits cover fewer); in `fleet_only` mode it is
 * the listed vehicles. The worst-case price that running reserves counts every one of them.
 */
import type { PackingMode } from './request-edits.js';

/** What the sentence needs: the estimate's bound, the vehicles listed, the mode, the job's vehicle limit (null while unknown). */
export interface VehicleBound {
  maxVehicles: number;
  listed: number;
  mode: PackingMode;
  limit: number | null;
}

const vehicles = (n: number): string => `${n} vehicle${n === 1 ? '' : 's'}`;

/**
 * "up to 20 vehicles: the 1 listed plus up to 19 added automatically when the listed ones are
 * full (20 is the most a job may use)", and the like for the other cases.
 */
export function vehicleBoundText({ maxVehicles, listed, mode, limit }: VehicleBound): string {
  const most = `up to ${vehicles(maxVehicles)}`;
  if (mode === 'fleet_only') return `${most}: only the listed ones, since adding vehicles automatically is off`;
  const added = maxVehicles - listed;
  if (added <= 0) return `${most}: the listed ones (${maxVehicles} is the most this job may use)`;
  const cause =
    limit !== null && maxVehicles < limit
      ? `as many as your available credits cover; a job may use up to ${limit}`
      : `${maxVehicles} is the most a job may use`;
  return `${most}: the ${listed} listed plus up to ${added} added automatically when the listed ones are full (${cause})`;
}
