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
 * The parts live beside it: the kinds of field and the sanity bounds in field-schemas.ts, Vehicle
 * and Rect in vehicle-schema.ts, Item and Group in item-schema.ts, Options in options-schema.ts.
 * The TypeScript types of the same shape are domain/pack/request.ts; the enums come from there,
 * and test/api/pack-request/request-shape.test.ts proves the two equal field by field (hence
 * `as const` on every part: the check reads the schema's literal types).
 */
import { GROUP_SCHEMA, ITEM_SCHEMA } from './item-schema.js';
import { OPTIONS_SCHEMA } from './options-schema.js';
import { LOADED_UNIT_SCHEMA, RECT_SCHEMA, VEHICLE_SCHEMA } from './vehicle-schema.js';

export { COLOR_PATTERN, MAX_DIMENSION_CM, MAX_WEIGHT_KG, MIN_DIMENSION_CM } from './field-schemas.js';

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
    Rect: RECT_SCHEMA,
    Vehicle: VEHICLE_SCHEMA,
    LoadedUnit: LOADED_UNIT_SCHEMA,
    Item: ITEM_SCHEMA,
    Group: GROUP_SCHEMA,
    Options: OPTIONS_SCHEMA,
  },
} as const;
