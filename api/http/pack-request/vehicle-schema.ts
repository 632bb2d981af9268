/**
 * The vehicle parts of the PackRequest schema (schema.ts): Vehicle (spec "Resources and their
 * fields" → Vehicle) and Rect, the floor zone of its blocked areas. Sizes cm, weights kg; rules
 * across fields (type + dimensions unless `vehicle_id`, aux deck fields, axle arrays of equal
 * length, blocked areas on the floor) are checked in domain/pack/resolve/resolve.ts.
 */
import { ORIENTATIONS, VEHICLE_TYPES } from '../../../domain/pack/request.js';
import { MAX_DIMENSION_CM, distance, idString, length, nameString, weight, weightOrZero } from './field-schemas.js';

/** Rect: a floor rectangle in cm, min-corner origin (`$defs/Rect`). */
export const RECT_SCHEMA = {
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

/**
 * Most units pinned in one vehicle definition (`loaded`): a sanity bound, as many as the largest
 * job may hold (DEFAULT_LIMITS.maxItemsPerRequest is 2,000).
 */
export const MAX_LOADED_UNITS = 10_000;

/** LoadedUnit (our extension): one unit already in a copy of the vehicle (`$defs/LoadedUnit`). */
export const LOADED_UNIT_SCHEMA = {
  title: 'LoadedUnit',
  description:
    'Our extension (not in the spec): one unit already loaded in a copy of this vehicle, a pinned ' +
    'unit. The plan keeps it exactly where it is (its position and orientation), counts it as one ' +
    "unit of its item's quantity (pinned units take the instances 1..k of their item, in request " +
    'order) and packs the rest around it: it takes room, weight and axle load, and other units may ' +
    'stand on it as on any placed unit. Its vehicle copy is always in the plan, and its loading ' +
    'steps come first. A re-plan from a loading step sends the units loaded so far this way.',
  type: 'object',
  additionalProperties: false,
  required: ['item_id', 'x', 'y', 'z', 'orientation'],
  properties: {
    item_id: idString('Id of an item of this request; the unit is one of its quantity'),
    x: distance('Min corner along the length, from the front wall, as Placement.x'),
    y: distance('Min corner above the floor, as Placement.y'),
    z: distance('Min corner across the width, as Placement.z'),
    orientation: {
      type: 'string',
      enum: ORIENTATIONS,
      description: "As Placement.orientation; must be one the item's rotation allows",
    },
    copy: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      description: 'Which copy of this vehicle definition holds the unit, 1-based, at most quantity; default 1',
    },
  },
} as const;

/** Vehicle: a saved vehicle by `vehicle_id` or one described in full (`$defs/Vehicle`). */
export const VEHICLE_SCHEMA = {
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
    loaded: {
      type: 'array',
      maxItems: MAX_LOADED_UNITS,
      items: { $ref: '#/$defs/LoadedUnit' },
      description:
        'Our extension: units already loaded in copies of this vehicle (pinned units), kept where ' +
        'they are; the rest is packed around them',
    },
  },
} as const;
