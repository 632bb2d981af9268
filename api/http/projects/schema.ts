/**
 * The JSON Schemas of a project (spec Endpoints /v1/projects; one source of truth: ajv compiles
 * these objects, the OpenAPI document shows them): the vehicle slot and item of a project, the
 * ProjectInput and ProjectPatch bodies, the Project record, and their validators, compiled once
 * at load. Lengths are cm and weights kg, as in a PackRequest.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { sharedOnFirstUse, validatorOnFirstUse } from '../schema-validator.js';
import { liftDefs, ref } from '../openapi/components.js';
import { PACK_REQUEST_SCHEMA } from '../pack-request/schema.js';
import type { JsonSchema } from '../route-docs.js';

/** Most vehicle slots and item definitions a project holds (storage bounds; a pack applies the plan's own limits). */
export const MAX_PROJECT_SLOTS = 100;
export const MAX_PROJECT_ITEMS = 2000;
const MAX_PROJECT_GROUPS = 1000;

const { Vehicle, Item } = PACK_REQUEST_SCHEMA.$defs;
// Pinned units (Vehicle.loaded) belong to one pack request, not to a project's vehicle slots.
const { loaded: _loaded, ...slotFields } = Vehicle.properties;
const idOf = (prefix: string, what: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: `${prefix}… given by the service; send it back on PATCH to keep this ${what}, leave it out for a new one`,
});

/** A vehicle slot: the PackRequest Vehicle with `vehicle_id` required and a `pv_…` id. */
export const PROJECT_VEHICLE_SCHEMA: JsonSchema = {
  ...(liftDefs(Vehicle) as JsonSchema),
  title: 'ProjectVehicle',
  description:
    "A vehicle slot of a project: `vehicle_id` names a preset or one of the organization's vehicles; `quantity` (default 1) " +
    'and any other Vehicle field sent beside it override the saved vehicle. Results of project jobs name the slot id (`pv_…`).',
  required: ['vehicle_id'],
  properties: { ...(liftDefs(slotFields) as Record<string, JsonSchema>), id: idOf('pv_', 'slot') },
};

/** An item of a project: the PackRequest Item (template_id allowed) with an `item_…` id. */
export const PROJECT_ITEM_SCHEMA: JsonSchema = {
  ...(liftDefs(Item) as JsonSchema),
  title: 'ProjectItem',
  description:
    'An item definition of a project in the pack item shape (`template_id` supplies every field, fields beside it override). Results of project jobs name the item id (`item_…`).',
  properties: { ...(liftDefs(Item.properties) as Record<string, JsonSchema>), id: idOf('item_', 'item') },
};

const CONTENT_PROPERTIES: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 255, description: 'Shown in lists; 1–255 characters' },
  vehicles: {
    type: 'array',
    maxItems: MAX_PROJECT_SLOTS,
    items: ref('ProjectVehicle'),
    description: `Vehicle slots (at most ${MAX_PROJECT_SLOTS}); a pack needs at least one`,
  },
  items: {
    type: 'array',
    maxItems: MAX_PROJECT_ITEMS,
    items: ref('ProjectItem'),
    description: `Item definitions (at most ${MAX_PROJECT_ITEMS}); a pack needs at least one`,
  },
  groups: {
    type: 'array',
    maxItems: MAX_PROJECT_GROUPS,
    items: ref('Group'),
    description: 'Groups as in a PackRequest',
  },
  options: ref('Options'),
};

/** Body of POST /v1/projects. */
export const PROJECT_INPUT_SCHEMA: JsonSchema = {
  title: 'ProjectInput',
  description:
    'A new project. `vehicles`, `items` and `groups` default to [], `options` to {}. Entries carry no `id`: the service gives `pv_…` / `item_…` ids.',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: CONTENT_PROPERTIES,
};

/** Body of PATCH /v1/projects/{id}. */
export const PROJECT_PATCH_SCHEMA: JsonSchema = {
  title: 'ProjectPatch',
  description:
    'The fields given replace the stored ones; lists are replaced whole. An entry with the `id` of a current slot or item keeps it; ' +
    'an entry without `id` gets a new one.',
  type: 'object',
  additionalProperties: false,
  properties: CONTENT_PROPERTIES,
};

const actor = (description: string): JsonSchema => ({
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'string', description: 'Member id (usr_…)' }, name: { type: 'string' } },
  description,
});

/** A project record (response). */
export const PROJECT_SCHEMA: JsonSchema = {
  title: 'Project',
  description: 'A saved project: vehicle slots, items, groups, options, and its last saved plan.',
  type: 'object',
  required: [
    'id',
    'object',
    'name',
    'vehicles',
    'items',
    'groups',
    'options',
    'plan_job_id',
    'plan_summary',
    'plan_saved_at',
    'pdf_url',
    'viewer_url',
    'packing',
    'created_at',
    'updated_at',
    'created_by',
    'updated_by',
  ],
  properties: {
    id: { type: 'string', description: 'prj_…' },
    object: { const: 'project' },
    name: { type: 'string' },
    vehicles: {
      type: 'array',
      items: { allOf: [ref('ProjectVehicle'), { type: 'object', required: ['id', 'quantity'] }] },
    },
    items: { type: 'array', items: { allOf: [ref('ProjectItem'), { type: 'object', required: ['id'] }] } },
    groups: { type: 'array', items: ref('Group') },
    options: ref('Options'),
    plan: {
      oneOf: [ref('Result'), { type: 'null' }],
      description:
        'Result of the last saved project pack (pv_… / item_… ids); null before the first save and after that job expired. Only in GET /v1/projects/{id}',
    },
    plan_job_id: { type: ['string', 'null'], description: 'Job whose plan was saved last, or null' },
    plan_summary: {
      type: ['object', 'null'],
      required: ['items_placed', 'items_unplaced', 'vehicles_used', 'total_weight', 'volume_utilization'],
      properties: {
        items_placed: { type: 'integer' },
        items_unplaced: { type: 'integer' },
        vehicles_used: { type: 'integer' },
        total_weight: { type: 'number', description: 'kg' },
        volume_utilization: { type: 'number', description: '0–1' },
      },
      description: 'Summary of the saved plan, or null',
    },
    plan_saved_at: { type: ['string', 'null'], format: 'date-time', description: 'When the plan was saved' },
    pdf_url: {
      type: 'string',
      description: 'Signed browser link of the saved plan\'s PDF; "" when there is none or after its job\'s expires_at',
    },
    viewer_url: {
      type: 'string',
      description:
        'Our extension (not in the spec): signed browser link of the saved plan in the interactive 3D viewer; "" whenever pdf_url is ""',
    },
    packing: { type: ['string', 'null'], description: 'Job id of the pack in progress, else null' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    created_by: actor('Member whose API key created it'),
    updated_by: actor('Member whose API key changed it last'),
  },
};

/** `#/components/schemas/X` → `#/$defs/X`: the same schemas as one self-contained document for ajv. */
const lowerRefs = (schema: JsonSchema): JsonSchema =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/')) as JsonSchema;
const DEFS = {
  $defs: {
    ...PACK_REQUEST_SCHEMA.$defs,
    ProjectVehicle: lowerRefs(PROJECT_VEHICLE_SCHEMA),
    ProjectItem: lowerRefs(PROJECT_ITEM_SCHEMA),
  },
};
const ajv = sharedOnFirstUse(() => {
  const made = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  ajvFormats.default(made);
  return made;
});
/** Validators of the ProjectInput and ProjectPatch bodies, compiled once, on first use. */
export const validateProjectInput = validatorOnFirstUse(() =>
  ajv().compile({ ...lowerRefs(PROJECT_INPUT_SCHEMA), ...DEFS }),
);
export const validateProjectPatch = validatorOnFirstUse(() =>
  ajv().compile({ ...lowerRefs(PROJECT_PATCH_SCHEMA), ...DEFS }),
);
