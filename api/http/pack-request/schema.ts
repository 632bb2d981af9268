/**
 * JSON Schema (draft 2020-12) of the PackRequest body of POST /v1/pack and POST /v1/estimate
 * (spec "Resources and their fields" → PackRequest, Vehicle, Rect, Item, Group, Options; spec
 * "Limits" for counts and lengths). A plain JSON-serialisable object: compiled by
 * api/http/pack-request/check.ts with Ajv2020 and reused by the OpenAPI 3.1 document, which can take
 * the sub-schemas from `$defs` (every one has a `title` and `description`).
 *
 * The schema holds the per-field rules: JSON types, enums, ranges, string lengths, array sizes,
 * `#rrggbb` colours and `additionalProperties: false` everywhere. Rules that depend on other
 * fields or on the organization (type + dimensions unless `vehicle_id`, length/width unless
 * cylinder/drum, radius for cylinder/drum, aux deck fields, axle arrays of equal length, blocked
 * areas on the floor, ids unique, saved vehicles and templates, does_not_fit, job limits) are
 * checked in domain/pack/resolve/resolve.ts, which gives clearer messages.
 *
 * Bounds the spec does not state (dimensions from 0.1 to 100000 cm, weights ≤ 1e9 kg, priority
 * ≤ 1e6, group order within ±1e9) are service sanity limits: they keep volumes, weights and the
 * search objective finite.
 *
 * The TypeScript types of the same shape are domain/pack/request.ts; the enums come from there,
 * and test/api/pack-request/request-shape.test.ts proves the two equal field by field (hence
 * `as const` on every part: the check reads the schema's literal types).
 */
import { GROUP_ROUTINGS, ITEM_SHAPES, PACKING_MODES, ROTATIONS, VEHICLE_TYPES } from '../../../domain/pack/request.js';

/** `#rrggbb` colour (spec Item.color, Group.color); either letter case accepted. */
export const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';

/**
 * Smallest accepted length in cm (1 mm): every size, radius and deck height of a vehicle, item
 * or blocked area. Smaller sizes describe no real load, and volumes of such sizes underflow to 0
 * (1e-300 cm → a volume of 0 → a utilization of NaN). A service sanity bound, the spec sets none.
 */
export const MIN_DIMENSION_CM = 0.1;
/** Largest accepted length in cm (1 km): a sanity bound, the spec sets none. */
export const MAX_DIMENSION_CM = 100_000;
/** Largest accepted weight in kg: a sanity bound, the spec sets none. */
export const MAX_WEIGHT_KG = 1_000_000_000;

const idString = (description: string) => ({ type: 'string', minLength: 1, maxLength: 128, description }) as const;
const nameString = (description: string) => ({ type: 'string', maxLength: 255, description }) as const;
const length = (description: string) =>
  ({
    type: 'number',
    minimum: MIN_DIMENSION_CM,
    maximum: MAX_DIMENSION_CM,
    description: `${description} (cm)`,
  }) as const;
const distance = (description: string) =>
  ({
    type: 'number',
    minimum: 0,
    maximum: MAX_DIMENSION_CM,
    description: `${description} (cm)`,
  }) as const;
const weight = (description: string) =>
  ({
    type: 'number',
    exclusiveMinimum: 0,
    maximum: MAX_WEIGHT_KG,
    description: `${description} (kg)`,
  }) as const;
const weightOrZero = (description: string) =>
  ({
    type: 'number',
    minimum: 0,
    maximum: MAX_WEIGHT_KG,
    description: `${description} (kg)`,
  }) as const;

const rect = {
  title: 'Rect',
  description:
    'Floor rectangle with min-corner origin, cm. x from the front wall, z from the right wall ' +
    '(seen from the door looking in). Must lie on the vehicle floor.',
  type: 'object',
  additionalProperties: false,
  required: ['x', 'z', 'length', 'width'],
  properties: {
    x: distance('Front wall to near edge'),
    z: distance('Right wall to near edge'),
    length: length('Extent along x'),
    width: length('Extent along z'),
  },
} as const;

const vehicle = {
  title: 'Vehicle',
  description:
    'A vehicle available for the job. Either `vehicle_id` names a saved vehicle (preset or the ' +
    "organization's), whose fields the ones sent beside it override, or `type`, `length`, " +
    '`width`, `height` and `max_weight` are given. Dimensions are inner cargo-space sizes in cm.',
  type: 'object',
  additionalProperties: false,
  properties: {
    id: idString('Unique within the request; defaults to vehicle_id; results call it vehicle_id'),
    vehicle_id: idString('Id of a saved vehicle (GET /v1/vehicles)'),
    type: {
      type: 'string',
      enum: VEHICLE_TYPES,
      description: "Vehicle type; must be in the organization's allowed_vehicle_types",
    },
    name: nameString('Defaults to the saved name or the id'),
    length: length('Inner length along x, front wall toward the door'),
    width: length('Inner width along z'),
    height: length('Inner height along y'),
    max_weight: weight('Payload'),
    quantity: { type: 'integer', minimum: 1, maximum: 100, description: 'Identical vehicles available; default 1' },
    floor_load_capacity: weightOrZero('Floor load capacity per m² (kg/m²), 0 = no limit'),
    aux_deck: { type: 'boolean', description: 'Double-decker; default false' },
    aux_deck_height: length('Height of the auxiliary deck; required when aux_deck is true'),
    aux_deck_max_weight: weight('Payload of the auxiliary deck; required when aux_deck is true'),
    blocked_areas: {
      type: 'array',
      maxItems: 32,
      items: { $ref: '#/$defs/Rect' },
      description: 'Floor zones nothing may stand on; each must lie on the floor',
    },
    axle_positions: {
      type: 'array',
      maxItems: 10,
      items: { type: 'number', minimum: -300, maximum: MAX_DIMENSION_CM },
      description:
        'cm from the front of the cargo area, negative = ahead of it; each between -300 and the ' +
        'vehicle length; same length as axle_max_loads',
    },
    axle_max_loads: {
      type: 'array',
      maxItems: 10,
      items: { type: 'number', exclusiveMinimum: 0, maximum: 100_000 },
      description: 'kg per axle, each > 0 and ≤ 100000',
    },
    cog_range_x: distance('Allowed centre-of-gravity deviation along x, 0 to length/2'),
    cog_range_y: distance('Allowed centre-of-gravity deviation across, 0 to width/2'),
    tractor_weight: weightOrZero('Tractor weight, semi-trailer axle model'),
    empty_trailer_weight: weightOrZero('Empty trailer weight'),
    front_axle_to_middle_axle: distance('Front axle to middle axle'),
    front_axle_to_tractor_cog: distance('Front axle to tractor centre of gravity'),
    front_axle_to_kingpin: distance('Front axle to kingpin'),
    kingpin_to_rear_axle: distance('Kingpin to rear axle'),
    trailer_cog_to_rear_axle: distance('Trailer centre of gravity to rear axle'),
    trailer_start_to_kingpin: distance('Trailer start to kingpin'),
    max_middle_axle_weight: weightOrZero('Maximum middle axle load'),
    max_rear_axle_weight: weightOrZero('Maximum rear axle load'),
  },
} as const;

const item = {
  title: 'Item',
  description:
    'One SKU / package type with `quantity` identical units. Sizes are outer package sizes in cm, ' +
    '`weight` is one unit in kg. `template_id` supplies every field; fields sent beside it ' +
    'override. Without a template `height` and `weight` are required, `length` and `width` ' +
    'unless the shape is cylinder or drum, which need `radius`.',
  type: 'object',
  additionalProperties: false,
  properties: {
    id: idString('Unique within the request; defaults to template_id; results call it item_id'),
    template_id: idString('Id of a saved cargo template (tpl_…)'),
    label: nameString('Defaults to the id'),
    shape: {
      type: 'string',
      enum: ITEM_SHAPES,
      description: 'Default box; cylinder and drum use radius + height; pallet and drum always stay upright',
    },
    length: length('Length along x as defined'),
    width: length('Width along z as defined'),
    height: length('Vertical side as defined'),
    radius: length('Radius of a cylinder or drum'),
    weight: weight('One unit'),
    quantity: { type: 'integer', minimum: 1, maximum: 10_000, description: 'Identical units; default 1' },
    stackable: { type: 'boolean', description: 'Default true; false keeps everything off the top' },
    max_stack_weight: weightOrZero('Weight resting on one unit, 0 = unlimited'),
    rotation: {
      type: 'string',
      enum: ROTATIONS,
      description: 'all (default, six orientations), upright (about the vertical axis only), fixed',
    },
    hazardous: { type: 'boolean', description: 'Default false; kept low and apart from other hazardous items' },
    priority: {
      type: 'integer',
      minimum: 0,
      maximum: 1_000_000,
      description: 'Default 0; higher = loaded first and kept when space runs out',
    },
    group: { type: 'string', minLength: 1, maxLength: 128, description: 'Name of a group' },
    color: { type: 'string', pattern: COLOR_PATTERN, description: '#rrggbb, viewer and PDF only' },
    nesting_height: distance('Telescoping overlap of stacked identical units, default 0; less than height'),
  },
} as const;

const group = {
  title: 'Group',
  description: 'A loading group named by Item.group. Order 1 is loaded deepest (front wall), the highest last (door).',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 128, description: 'Referenced by Item.group' },
    order: {
      type: 'integer',
      minimum: -1_000_000_000,
      maximum: 1_000_000_000,
      description: 'Lower = loaded first; defaults to the 1-based list position',
    },
    color: { type: 'string', pattern: COLOR_PATTERN, description: '#rrggbb' },
  },
} as const;

const options = {
  title: 'Options',
  description: 'Job options; every field optional.',
  type: 'object',
  additionalProperties: false,
  properties: {
    packing_mode: {
      type: 'string',
      enum: PACKING_MODES,
      description:
        'auto (default): copies of the most suitable vehicle are added up to the vehicle limit; fleet_only: listed vehicles only',
    },
    group_routing: {
      type: 'string',
      enum: GROUP_ROUTINGS,
      description: 'none (default): groups are informational; wall, routing, no_stack: groups constrain the loading',
    },
    allow_overweight: { type: 'boolean', description: 'Ignore payload limits; default false' },
    max_stack_items: {
      type: 'integer',
      minimum: 0,
      maximum: 1_000_000,
      description: 'Max items in a stack, 0 = unlimited',
    },
    max_stack_density_kg_m2: weightOrZero('Stack density per m² (kg/m²), 0 = unlimited'),
    lock_rotations: {
      type: 'boolean',
      description: 'Keep the first orientation that fits the vehicle height; default false',
    },
    group_identical_bins: { type: 'boolean', description: 'Treat identical vehicles as one pool; default false' },
    time_limit: {
      type: 'number',
      minimum: 0,
      description: 'Seconds of compute at most; 0 (default) = automatic; capped at max_time_limit_seconds',
    },
    enforce_axle: { type: 'boolean', description: 'Reject placements that overload an axle group (needs axle access)' },
    seed: {
      type: 'integer',
      minimum: 1,
      maximum: 2_147_483_647,
      description:
        'Our extension. Seed of the search; default: a new random seed per job. With work_limit, the same request and seed give the same plan',
    },
    work_limit: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000_000,
      description:
        'Our extension: deterministic mode. The search stops after this many block placements per search thread (trial placements included) ' +
        'instead of at the time limit, so the same request, seed and service thread count give the same plan on any machine; ' +
        'the time limit still ends the search if it comes first (then the plan may differ). About 20,000–100,000 placements per second per thread',
    },
  },
} as const;

/**
 * The PackRequest schema. Sub-schemas live in `$defs` (Rect, Vehicle, Item, Group, Options) and
 * are referenced as `#/$defs/<Name>`.
 */
export const PACK_REQUEST_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'PackRequest',
  description:
    'Body of POST /v1/pack and POST /v1/estimate: the vehicles available and the items to ship. Unknown fields are rejected.',
  type: 'object',
  additionalProperties: false,
  required: ['vehicles', 'items'],
  properties: {
    reference: { type: 'string', maxLength: 128, description: "Caller's own reference, echoed on the job" },
    vehicles: { type: 'array', minItems: 1, items: { $ref: '#/$defs/Vehicle' }, description: 'At least one' },
    items: { type: 'array', minItems: 1, items: { $ref: '#/$defs/Item' }, description: 'At least one' },
    groups: {
      type: 'array',
      items: { $ref: '#/$defs/Group' },
      description: 'Required for every group an item names when options.group_routing is not none',
    },
    options: { $ref: '#/$defs/Options' },
  },
  $defs: {
    Rect: rect,
    Vehicle: vehicle,
    Item: item,
    Group: group,
    Options: options,
  },
} as const;
