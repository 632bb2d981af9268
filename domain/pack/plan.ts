/**
 * The solver's input: a PackRequest resolved into plain numbers (presets, templates, overrides
 * and defaults applied; units with their allowed orientations). Lengths in cm, weights in kg,
 * times in ms. Built by domain/pack/resolve/resolve.ts; read by solver/search and solver/verify.
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
  /**
   * Axle data, only for organizations with axle access (spec Vehicle: without access the axle
   * fields are ignored); null when the vehicle has none.
   */
  axles: AxleModel | null;
  /**
   * Second deck (spec Vehicle.aux_deck): a floor over the whole cargo area at `height` cm that
   * carries at most `maxWeight` kg; units stand under it or on it, never through it. null: none.
   */
  auxDeck: { height: number; maxWeight: number } | null;
  /**
   * Pinned units (request Vehicle.loaded, our extension): units already in copies of this
   * vehicle that the plan keeps exactly where they are, in request order. Absent or empty: none.
   */
  loaded?: PinnedUnit[];
}

/**
 * One pinned unit: one unit of item `item` (index into PackModel.items) in copy `copy` (1-based)
 * of its vehicle, min corner at x, y, z (cm, vehicle coordinates as in Placement), turned
 * `orientation`. Pinned units of an item take its instances 1..k in request order (vehicles in
 * order, each vehicle's `loaded` in order).
 */
export interface PinnedUnit {
  item: number;
  x: number;
  y: number;
  z: number;
  orientation: Orientation;
  copy: number;
}

/**
 * How the load of a vehicle reaches its axles. Positions are cm along x from the front of the
 * cargo area (negative = ahead of it); loads and weights kg; a max of 0 means none.
 * - `axles` (spec Vehicle.axle_positions / axle_max_loads): the cargo rests on a rigid bed on
 *   equally stiff axles; loads count cargo only (the spec gives no tare for this model).
 * - `semi_trailer` (the eight semi-trailer fields and two maxima): tractor front axle, tractor
 *   middle (drive) axle and trailer rear axle; loads include tractor and empty trailer weights.
 * `cogRangeX` / `cogRangeY`: allowed deviation of the cargo's centre of gravity from the middle
 * of the cargo area along the length (x) / across the width (z in plan coordinates), cm, named
 * after the spec fields cog_range_x / cog_range_y; null when not given.
 */
export type AxleModel = (
  | { kind: 'axles'; positions: number[]; maxLoads: number[] }
  | {
      kind: 'semi_trailer';
      tractorWeight: number;
      emptyTrailerWeight: number;
      frontAxleToMiddleAxle: number;
      frontAxleToTractorCog: number;
      frontAxleToKingpin: number;
      kingpinToRearAxle: number;
      trailerCogToRearAxle: number;
      trailerStartToKingpin: number;
      maxMiddleAxleWeight: number;
      maxRearAxleWeight: number;
    }
  | { kind: 'none' }
) & { cogRangeX: number | null; cogRangeY: number | null };

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
  /**
   * cm a unit sinks into an identical unit it is stacked on (spec Item.nesting_height: buckets,
   * crates, chairs), when both stand with their defined height vertical; 0 = none, always below
   * the height.
   */
  nestingHeight: number;
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
  /**
   * Options.enforce_axle with axle access: no axle above its maximum and the centre of gravity
   * within cog_range_x / cog_range_y, on every vehicle with axle data.
   */
  enforceAxle: boolean;
  /**
   * Options.group_routing: `none` (groups only order the loading), `wall` (each group its own
   * section along the length, lower orders toward the front wall), `routing` (groups load in
   * order; a later group may rest on an earlier one, never under it), `no_stack` (groups load in
   * order and never rest on one another). Other than `none`, loading steps follow group order.
   */
  groupRouting: GroupRouting;
  /**
   * The safe stacking rules (docs/solver.md, "Safe stacks"; our extension, Options
   * pallets_on_cartons, heavy_on_light, max_slenderness). Absent (models stored before these
   * rules): all three off.
   */
  stacking?: StackingRules;
  /** Compute budget, ms. */
  budgetMs: number;
  /**
   * `automatic` when the budget is the automatic one (Options.time_limit 0): the search then also
   * ends once it stops improving (solver/search/stagnation.ts). `explicit` (or absent: models
   * stored before this field) when the customer set `time_limit`: the search uses all of it.
   */
  budgetMode?: 'automatic' | 'explicit';
  /** Seed of the search: the same model and seed give the same plan. */
  seed: number;
  /**
   * Deterministic mode: work units (block placements) per search worker
   * (solver/search/work-budget.ts). With it, the same model, seed and thread count give the same
   * plan whenever the work, not `budgetMs`, ends the search. Absent: `budgetMs` alone.
   */
  workLimit?: number;
}

/**
 * The safe stacking rules of a job (our extension; docs/solver.md, "Safe stacks"). Resolve sets
 * the defaults: pallets off cartons, heavy-on-light ratio 2, slenderness 3.
 */
export interface StackingRules {
  /**
   * true: a pallet-shaped unit (`shape: pallet`) may rest on units of other shapes; false: it
   * stands on the floor, on the second deck or on pallets only (Options.pallets_on_cartons).
   */
  palletsOnCartons: boolean;
  /**
   * A unit weighs at most this many times the units it rests on together (their unit weights,
   * kg); 0 = no limit (Options.heavy_on_light).
   */
  heavyOnLight: number;
  /**
   * After every loading step, a stack without lateral support along an axis is at most this
   * many times as tall as its base is long along that axis (the part above its support, cm);
   * 0 = no limit (Options.max_slenderness).
   */
  maxSlenderness: number;
}

/** The rules of a model stored before the safe stacking rules: every one of them off. */
export const STACKING_OFF: StackingRules = { palletsOnCartons: true, heavyOnLight: 0, maxSlenderness: 0 };

/** The defaults a request gets when it leaves the options out (docs/solver.md, "Safe stacks"). */
export const STACKING_DEFAULTS: StackingRules = { palletsOnCartons: false, heavyOnLight: 2, maxSlenderness: 3 };

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

/** Spec AxleLoad: `load` and `max` kg (max 0 = none), `position` cm from the front of the cargo area. */
export interface AxleLoad {
  name: string;
  position: number;
  load: number;
  max: number;
  ok: boolean;
}

/** Spec ResultVehicle (`axle_loads` only for vehicles with axle data and axle access). */
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
  /** Present only for vehicles with axle data and axle access. */
  axle_loads?: AxleLoad[];
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
 * max_stack_density_kg_m2), `axle_limit` (with enforce_axle: it would overload an axle, or it was
 * taken out to bring the axle loads or the centre of gravity within limits). Our extension, the
 * safe stacking rules (StackingRules): `rule_pallets_on_cartons` (room left only on top of
 * units that are not pallets), `rule_heavy_on_light` (room left only on units too light for
 * it), `rule_max_slenderness` (taken off a stack that would stand free and too slender).
 */
export type UnplacedReason =
  | 'no_space'
  | 'weight_limit'
  | 'load_limit'
  | 'axle_limit'
  | 'vehicle_limit'
  | 'time_limit'
  | 'rule_pallets_on_cartons'
  | 'rule_heavy_on_light'
  | 'rule_max_slenderness';

/** Spec Options.group_routing. */
export type GroupRouting = 'none' | 'wall' | 'routing' | 'no_stack';

/** A complete load plan: loaded vehicles in loading order (index 0..), then the unplaced units. */
export interface Plan {
  vehicles: PlannedVehicle[];
  unplaced: UnplacedUnit[];
}
