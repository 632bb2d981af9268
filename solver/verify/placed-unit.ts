/**
 * The plan seen as boxes: each PlannedVehicle with its model definition and its placements as
 * axis-aligned boxes (min/max corners, cm). Built once by verifyPlan and shared by the rules.
 */
import { footprintOf, type Footprint } from './footprint.js';
import type { ItemModel, PackModel, Placement, Plan, PlannedVehicle, VehicleModel } from '../../domain/pack/plan.js';

/** One placement as a box in vehicle coordinates, cm: x along length, y up, z along width. */
export interface PlacedUnit {
  placement: Placement;
  /** The item definition named by placement.item_id, undefined when the model has none. */
  item: ItemModel | undefined;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  z0: number;
  z1: number;
  /** What the unit covers of the floor plane: its circle when it is an upright cylinder or drum, else its rectangle (footprint.ts). */
  footprint: Footprint;
}

/** One vehicle of the plan with the cargo space its units must fit in. */
export interface LoadedVehicle {
  /** Position in plan.vehicles (violations use it as `vehicle`). */
  position: number;
  planned: PlannedVehicle;
  /** The model definition named by vehicle_id, undefined when the model has none. */
  definition: VehicleModel | undefined;
  /** Cargo space, cm: the definition's when known (the plan's copy is checked by `vehicles`), else the plan's. */
  length: number;
  width: number;
  height: number;
  /** Payload, kg, chosen the same way. */
  maxWeight: number;
  /** Height of the second deck, cm (definition's aux deck), null without one. */
  deckHeight: number | null;
  units: PlacedUnit[];
}

/** Item definitions by id (first definition wins if an id repeats). */
export function itemsById(model: PackModel): Map<string, ItemModel> {
  const items = new Map<string, ItemModel>();
  for (const item of model.items) if (!items.has(item.id)) items.set(item.id, item);
  return items;
}

/** Vehicle definitions by id (first definition wins if an id repeats). */
export function vehiclesById(model: PackModel): Map<string, VehicleModel> {
  const vehicles = new Map<string, VehicleModel>();
  for (const vehicle of model.vehicles) if (!vehicles.has(vehicle.id)) vehicles.set(vehicle.id, vehicle);
  return vehicles;
}

/** Resolves every vehicle of the plan and turns its placements into boxes. Throws nothing. */
export function loadedVehicles(model: PackModel, plan: Plan): LoadedVehicle[] {
  const items = itemsById(model);
  const definitions = vehiclesById(model);
  return plan.vehicles.map((planned, position) => {
    const definition = definitions.get(planned.vehicle_id);
    const units = planned.placements.map((placement): PlacedUnit => ({
      placement,
      item: items.get(placement.item_id),
      footprint: footprintOf(placement, items.get(placement.item_id)),
      x0: placement.x,
      x1: placement.x + placement.length,
      y0: placement.y,
      y1: placement.y + placement.height,
      z0: placement.z,
      z1: placement.z + placement.width,
    }));
    return {
      position,
      planned,
      definition,
      length: definition?.length ?? planned.length,
      width: definition?.width ?? planned.width,
      height: definition?.height ?? planned.height,
      maxWeight: definition?.maxWeight ?? planned.max_weight,
      deckHeight: definition?.auxDeck?.height ?? null,
      units,
    };
  });
}
