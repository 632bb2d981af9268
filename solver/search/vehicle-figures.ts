/**
 * The figures of one loaded vehicle (spec ResultVehicle): total weight, volume and weight
 * utilization, centre of gravity and, for vehicles with axle data, the axle loads. Shared by the
 * search's plan assembly and the plan editor (solver/edit), so both report the same numbers.
 */
import type { AxleLoad, AxleModel, Placement, Point, VehicleModel } from '../../domain/pack/plan.js';
import { axleLines, axleLoad, axlesWithin } from './axle-load.js';

/** A placement as the figures need it, with the cm it sinks into the unit under it (nesting, 0 = none). */
export interface FigureUnit {
  placement: Pick<Placement, 'x' | 'y' | 'z' | 'length' | 'width' | 'height' | 'weight'>;
  nested: number;
}

/** The figures of a vehicle: weights kg, utilizations 0–1, centre of gravity cm. */
export interface VehicleFigures {
  total_weight: number;
  volume_utilization: number;
  weight_utilization: number;
  center_of_gravity: Point;
  /** Present only for vehicles with axle data (VehicleModel.axles not null nor `none`). */
  axle_loads?: AxleLoad[];
}

/**
 * Figures of `units` in vehicle `v`. A nested unit counts only the volume that sticks out of the
 * unit under it. Weightless loads have no centre of mass: the centre of the loaded volume stands in
 * (0,0,0 when nothing is loaded).
 */
export function vehicleFigures(
  v: Pick<VehicleModel, 'length' | 'width' | 'height' | 'maxWeight' | 'axles'>,
  units: readonly FigureUnit[],
): VehicleFigures {
  let weight = 0,
    vol = 0,
    mx = 0,
    my = 0,
    mz = 0,
    vx = 0,
    vy = 0,
    vz = 0;
  for (const { placement: p, nested } of units) {
    const w = p.weight;
    const uv = p.length * (p.height - nested) * p.width;
    weight += w;
    vol += uv;
    mx += w * (p.x + p.length / 2);
    my += w * (p.y + p.height / 2);
    mz += w * (p.z + p.width / 2);
    vx += uv * (p.x + p.length / 2);
    vy += uv * (p.y + p.height / 2);
    vz += uv * (p.z + p.width / 2);
  }
  const cog =
    weight > 0
      ? { x: mx / weight, y: my / weight, z: mz / weight }
      : vol > 0
        ? { x: vx / vol, y: vy / vol, z: vz / vol }
        : { x: 0, y: 0, z: 0 };
  return {
    total_weight: weight,
    // Placed volume can exceed the cargo volume by float rounding only (no overlaps): keep 0–1.
    volume_utilization: Math.min(1, vol / (v.length * v.width * v.height)),
    weight_utilization: v.maxWeight > 0 ? weight / v.maxWeight : 0,
    center_of_gravity: cog,
    ...(v.axles && v.axles.kind !== 'none' ? { axle_loads: axleLoadsOf(v.axles, weight, mx) } : {}),
  };
}

/** Spec AxleLoad[] for cargo of `weight` kg with moment `momentX` kg·cm about the cargo front. */
export function axleLoadsOf(axles: AxleModel, weight: number, momentX: number): AxleLoad[] {
  return axleLines(axles).map((line) => ({
    // To the gram: exact figures would show float noise (11500.0000115 kg).
    name: line.name,
    position: line.position,
    load: Math.round(axleLoad(line, weight, momentX) * 1000) / 1000,
    max: line.max,
    ok: axlesWithin([line], weight, momentX),
  }));
}
