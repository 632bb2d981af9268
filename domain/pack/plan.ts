/**
 * The solver's input: a PackRequest resolved into plain numbers (presets, templates, overrides
 * and defaults applied; units with their allowed orientations). Lengths in cm, weights in kg,
 * times in ms. Built by solver/model/resolve.ts; read by solver/search and solver/verify.
 */
import type { ItemShape, Rect, VehicleType } from './request.js';

/**
 * Placement orientation (spec Placement.orientation). The three letters name which of the
 * item's defined dimensions lies along the placed length (x), width (z) and height (y):
 * `lwh` as defined, `wlh` turned 90° about the vertical axis, `lhw`, `hwl`, `whl`, `hlw`
 * tipped onto a side.
 */
export type Orientation = 'lwh' | 'wlh' | 'lhw' | 'hwl' | 'whl' | 'hlw';

export const ALL_ORIENTATIONS: readonly Orientation[] = ['lwh', 'wlh', 'lhw', 'hwl', 'whl', 'hlw'];

/** A vehicle definition: `quantity` identical copies are listed; auto mode may add more. */
export interface VehicleModel {
  /** Request definition id (Vehicle.id, defaulting to vehicle_id); results call it vehicle_id. */
  id: string;
  name: string;
  type: VehicleType;
  /** Inner cargo space, cm: length along x (front wall → door), width along z, height along y. */
  length: number;
  width: number;
  height: number;
  /** Payload, kg. */
  maxWeight: number;
  /** Listed identical copies (1–100). */
  quantity: number;
  /** Floor zones no unit may stand on (units resting on the floor must not overlap them). */
  blockedAreas: Rect[];
  /**
   * kg/m² a floor-standing unit may press on the floor (its weight plus what rests on it, over
   * its footprint), 0 = no limit (spec Vehicle.floor_load_capacity).
   */
  floorLoadCapacity: number;
}

/** An item definition (SKU) with `quantity` identical units numbered 1..quantity (`instance`). */
export interface ItemModel {
  /** Request definition id; results call it item_id. */
  id: string;
  label: string;
  shape: ItemShape;
  /** Bounding box as defined, cm (cylinders and drums: 2·radius × 2·radius × height). */
  length: number;
  width: number;
  height: number;
  /** kg, one unit. */
  weight: number;
  quantity: number;
  /** false: nothing may rest on top of a unit of this item. */
  stackable: boolean;
  /**
   * kg resting on one unit, 0 = unlimited (spec Item.max_stack_weight): the weight of the units
   * above, each passing its weight and its own load to the units under it in proportion to the
   * contact area.
   */
  maxStackWeight: number;
  /** Allowed orientations, in preference order; never empty. */
  orientations: Orientation[];
  /** Higher = loaded first and kept when space runs out. */
  priority: number;
  hazardous: boolean;
  /** Group name, or null when the item names none. */
  group: string | null;
  /** Group loading order (lower = deeper, toward the front wall); items without a group: +Infinity is not JSON, so Number.MAX_SAFE_INTEGER. */
  groupOrder: number;
  /** `#rrggbb` for the PDF/viewer, or null. */
  color: string | null;
}

/** Everything the search and the verifier need about one job. */
export interface PackModel {
  vehicles: VehicleModel[];
  items: ItemModel[];
  /** `auto`: copies of the most suitable vehicle may be added (auto_added) up to maxVehicles. */
  packingMode: 'auto' | 'fleet_only';
  /** Most vehicles the plan may use, auto-added copies included (job vehicle limit). */
  maxVehicles: number;
  /** Ignore payload limits (Options.allow_overweight). */
  allowOverweight: boolean;
  /** Max units in one stack, 0 = unlimited (Options.max_stack_items). */
  maxStackItems: number;
  /**
   * kg/m² a stack may weigh over its footprint, 0 = unlimited (Options.max_stack_density_kg_m2):
   * checked, like the floor load, on each floor-standing unit with what rests on it.
   */
  maxStackDensity: number;
  /** Compute budget, ms. */
  budgetMs: number;
  /** Seed of the search: the same model and seed give the same plan. */
  seed: number;
}

/** Spec Placement: one unit in a vehicle. Coordinates are the min corner, cm. */
export interface Placement {
  item_id: string;
  instance: number;
  label: string;
  x: number;
  y: number;
  z: number;
  /** Size along x, z, y as placed, cm. */
  length: number;
  width: number;
  height: number;
  rotated: boolean;
  orientation: Orientation;
  /** 1-based loading step within the vehicle. */
  step: number;
  weight: number;
}

/** Spec Point (center_of_gravity), cm in vehicle coordinates. */
export interface Point {
  x: number;
  y: number;
  z: number;
}

/** Spec ResultVehicle without axle_loads (not computed yet). */
export interface PlannedVehicle {
  index: number;
  vehicle_id: string;
  copy: number;
  auto_added: boolean;
  name: string;
  type: VehicleType;
  length: number;
  width: number;
  height: number;
  max_weight: number;
  items_placed: number;
  total_weight: number;
  volume_utilization: number;
  weight_utilization: number;
  center_of_gravity: Point;
  placements: Placement[];
}

/** Spec UnplacedItem. `reason` is one of UNPLACED_REASONS. */
export interface UnplacedUnit {
  item_id: string;
  instance: number;
  label: string;
  reason: UnplacedReason;
}

/**
 * Why a unit is unplaced: `no_space` (no room left in the vehicles the job may use),
 * `weight_limit` (room left, but the payload limits are reached), `vehicle_limit` (auto mode
 * needed more vehicles than the job's vehicle limit), `time_limit` (the compute budget ended
 * before the unit was tried), `load_limit` (room left, but the weight it would put on the units
 * under it or on the floor breaks max_stack_weight, floor_load_capacity or
 * max_stack_density_kg_m2).
 */
export type UnplacedReason = 'no_space' | 'weight_limit' | 'load_limit' | 'vehicle_limit' | 'time_limit';

/** A complete load plan: loaded vehicles in loading order (index 0..), then the unplaced units. */
export interface Plan {
  vehicles: PlannedVehicle[];
  unplaced: UnplacedUnit[];
}
