/**
 * Hand-built load plans for the render tests: units laid out wall by wall from the front wall
 * (z across the width, then up, then toward the door), steps in that order. No solver involved.
 */
import type { Placement, PlannedVehicle, UnplacedUnit } from '../../domain/pack/plan.js';
import type { VehicleType } from '../../domain/pack/request.js';

/** One item kind for a fixture vehicle; sizes as placed, cm; weight kg. */
export interface FixtureItem {
  id: string;
  label: string;
  length: number;
  width: number;
  height: number;
  weight: number;
  count: number;
  /** Orientation reported (sizes are taken as placed either way). */
  orientation?: Placement['orientation'];
}

/** A vehicle definition for buildVehicle. */
export interface FixtureVehicle {
  index: number;
  id: string;
  name: string;
  type: VehicleType;
  length: number;
  width: number;
  height: number;
  maxWeight: number;
  copy?: number;
  autoAdded?: boolean;
}

/**
 * Places the items' units in order into `vehicle`: each item fills cells of its own size in
 * slices across the width and up the height, a slice after the previous one toward the door.
 * Units that do not fit are returned as unplaced (`no_space`). Instances are numbered from
 * `firstInstance[item.id]` (default 1) and the map is advanced.
 */
export function buildVehicle(
  vehicle: FixtureVehicle,
  items: readonly FixtureItem[],
  firstInstance: Map<string, number> = new Map(),
): { vehicle: PlannedVehicle; unplaced: UnplacedUnit[] } {
  const placements: Placement[] = [];
  const unplaced: UnplacedUnit[] = [];
  let x0 = 0;
  for (const it of items) {
    const perRow = Math.floor(vehicle.width / it.width);
    const perCol = Math.floor(vehicle.height / it.height);
    const perSlice = perRow * perCol;
    for (let k = 0; k < it.count; k++) {
      const instance = firstInstance.get(it.id) ?? 1;
      firstInstance.set(it.id, instance + 1);
      const slice = Math.floor(k / Math.max(1, perSlice));
      const inSlice = k % Math.max(1, perSlice);
      const x = x0 + slice * it.length;
      // Fill a column bottom-up, then the next column across the width.
      const y = (inSlice % perCol) * it.height;
      const z = Math.floor(inSlice / perCol) * it.width;
      if (perSlice === 0 || x + it.length > vehicle.length) {
        unplaced.push({ item_id: it.id, instance, label: it.label, reason: 'no_space' });
        continue;
      }
      placements.push({
        item_id: it.id,
        instance,
        label: it.label,
        x,
        y,
        z,
        length: it.length,
        width: it.width,
        height: it.height,
        rotated: (it.orientation ?? 'lwh') !== 'lwh',
        orientation: it.orientation ?? 'lwh',
        step: placements.length + 1,
        weight: it.weight,
      });
    }
    const placedOfItem = placements.filter((p) => p.item_id === it.id);
    if (placedOfItem.length > 0) x0 = Math.max(...placedOfItem.map((p) => p.x + p.length));
  }
  const totalWeight = placements.reduce((s, p) => s + p.weight, 0);
  const volume = placements.reduce((s, p) => s + p.length * p.width * p.height, 0);
  const moment = (f: (p: Placement) => number) =>
    totalWeight === 0 ? 0 : placements.reduce((s, p) => s + f(p) * p.weight, 0) / totalWeight;
  return {
    vehicle: {
      index: vehicle.index,
      vehicle_id: vehicle.id,
      copy: vehicle.copy ?? 1,
      auto_added: vehicle.autoAdded ?? false,
      name: vehicle.name,
      type: vehicle.type,
      length: vehicle.length,
      width: vehicle.width,
      height: vehicle.height,
      max_weight: vehicle.maxWeight,
      items_placed: placements.length,
      total_weight: totalWeight,
      volume_utilization: volume / (vehicle.length * vehicle.width * vehicle.height),
      weight_utilization: totalWeight / vehicle.maxWeight,
      center_of_gravity: {
        x: moment((p) => p.x + p.length / 2),
        y: moment((p) => p.y + p.height / 2),
        z: moment((p) => p.z + p.width / 2),
      },
      placements,
    },
    unplaced,
  };
}

/** Number of page objects in a PDF file (`/Type /Page`, not `/Pages`). */
export function countPdfPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}
