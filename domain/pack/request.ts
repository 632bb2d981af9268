/**
 * Wire shapes of the PackRequest (spec: "Resources and their fields" → PackRequest, Vehicle,
 * Rect, Item, Group, Options). Lengths in cm, weights in kg. These are the shapes after JSON
 * Schema validation (api/http/pack-request/schema.ts, whose enums are the lists below);
 * test/api/pack-request/request-shape.test.ts proves the schema and these interfaces have the
 * same fields, required or optional alike, of the same types. Defaults are applied in
 * domain/pack/resolve/resolve.ts.
 */

/** Vehicle types of the spec's Vehicle.type. */
export const VEHICLE_TYPES = ['truck', 'trailer', 'flatbed', 'container', 'pallet', 'aircraft', 'ship'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

/** Item shapes of the spec's Item.shape. `cylinder` and `drum` use radius + height. */
export const ITEM_SHAPES = ['box', 'cylinder', 'pallet', 'bag', 'drum'] as const;
export type ItemShape = (typeof ITEM_SHAPES)[number];

export const ROTATIONS = ['all', 'upright', 'fixed'] as const;
export type RotationRule = (typeof ROTATIONS)[number];

export const PACKING_MODES = ['auto', 'fleet_only'] as const;
export type PackingMode = (typeof PACKING_MODES)[number];

export const GROUP_ROUTINGS = ['none', 'wall', 'routing', 'no_stack'] as const;
export type GroupRouting = (typeof GROUP_ROUTINGS)[number];

/** Floor rectangle, min-corner origin, cm. */
export interface Rect {
  x: number;
  z: number;
  length: number;
  width: number;
}

/** The six placement orientations (spec Placement.orientation; domain/pack/plan.ts Orientation). */
export const ORIENTATIONS = ['lwh', 'wlh', 'lhw', 'hwl', 'whl', 'hlw'] as const;

/**
 * Our extension, Vehicle.loaded: one unit already loaded in a copy of the vehicle (a pinned
 * unit). The plan keeps it exactly there and packs the rest around it. `x`, `y`, `z` are the
 * unit's min corner in vehicle coordinates, cm, as in Placement; `copy` the 1-based copy of the
 * vehicle definition (default 1, at most its quantity).
 */
export interface LoadedUnitInput {
  item_id: string;
  x: number;
  y: number;
  z: number;
  orientation: (typeof ORIENTATIONS)[number];
  copy?: number;
}

/** One vehicle definition of a request (spec Vehicle table; `loaded` is our extension). */
export interface VehicleInput {
  id?: string;
  vehicle_id?: string;
  type?: VehicleType;
  name?: string;
  length?: number;
  width?: number;
  height?: number;
  max_weight?: number;
  quantity?: number;
  floor_load_capacity?: number;
  aux_deck?: boolean;
  aux_deck_height?: number;
  aux_deck_max_weight?: number;
  blocked_areas?: Rect[];
  axle_positions?: number[];
  axle_max_loads?: number[];
  cog_range_x?: number;
  cog_range_y?: number;
  tractor_weight?: number;
  empty_trailer_weight?: number;
  front_axle_to_middle_axle?: number;
  front_axle_to_tractor_cog?: number;
  front_axle_to_kingpin?: number;
  kingpin_to_rear_axle?: number;
  trailer_cog_to_rear_axle?: number;
  trailer_start_to_kingpin?: number;
  max_middle_axle_weight?: number;
  max_rear_axle_weight?: number;
  /** Our extension: units already loaded (pinned), see LoadedUnitInput. */
  loaded?: LoadedUnitInput[];
}

/** One item definition (SKU) of a request (spec Item table); `quantity` identical units. */
export interface ItemInput {
  id?: string;
  template_id?: string;
  label?: string;
  shape?: ItemShape;
  length?: number;
  width?: number;
  height?: number;
  radius?: number;
  weight?: number;
  quantity?: number;
  stackable?: boolean;
  max_stack_weight?: number;
  rotation?: RotationRule;
  hazardous?: boolean;
  priority?: number;
  group?: string;
  color?: string;
  nesting_height?: number;
}

export interface GroupInput {
  name: string;
  order?: number;
  color?: string;
}

export interface OptionsInput {
  packing_mode?: PackingMode;
  group_routing?: GroupRouting;
  allow_overweight?: boolean;
  max_stack_items?: number;
  max_stack_density_kg_m2?: number;
  /** Our extension, safe stacks (PackModel.stacking): pallets may rest on other shapes; default false. */
  pallets_on_cartons?: boolean;
  /** Our extension, safe stacks: weight ratio of a unit to the units it rests on; default 2, 0 = off. */
  heavy_on_light?: number;
  /** Our extension, safe stacks: height over base of a stack without lateral support; default 3, 0 = off. */
  max_slenderness?: number;
  lock_rotations?: boolean;
  group_identical_bins?: boolean;
  time_limit?: number;
  enforce_axle?: boolean;
  /** Our extension: the search seed (1 … 2^31 − 1); default a random seed per job. */
  seed?: number;
  /** Our extension, deterministic mode: block placements per search thread (PackModel.workLimit). */
  work_limit?: number;
}

/** Body of POST /v1/pack and POST /v1/estimate. */
export interface PackRequest {
  reference?: string;
  vehicles: VehicleInput[];
  items: ItemInput[];
  groups?: GroupInput[];
  options?: OptionsInput;
}

/** A saved vehicle (preset or the organization's own): the Vehicle fields with type, dimensions and payload always set. */
export interface SavedVehicle extends VehicleInput {
  id: string;
  name: string;
  type: VehicleType;
  length: number;
  width: number;
  height: number;
  max_weight: number;
}
