/**
 * The form fields of each saved-data kind: the fields users need
 * most, named as the API names them (spec Vehicle and Item tables). Lengths and weights carry a
 * `measure`: the form shows and takes them in the organization's display units (cm/kg or in/lb)
 * and sends cm and kg. Every other field is reached through "Edit as JSON" (always cm and kg).
 * Pure; shared by the pages and the tests.
 */
import type { FieldSpec, RowsSpec } from './record-form.js';

/** Vehicle types of the spec (the organization may allow fewer: the session says which). */
export const VEHICLE_TYPES = ['truck', 'trailer', 'flatbed', 'container', 'pallet', 'aircraft', 'ship'] as const;

/** Form of a saved vehicle (POST/PATCH /v1/vehicles): inner cargo-space sizes, payload, floor load; every type offered. */
export const VEHICLE_FIELDS: readonly FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'type', label: 'Type', kind: 'select', options: VEHICLE_TYPES, required: true },
  {
    name: 'length',
    label: 'Length',
    measure: 'length',
    kind: 'number',
    required: true,
    hint: 'Inner length, front wall to door',
  },
  { name: 'width', label: 'Width', measure: 'length', kind: 'number', required: true },
  { name: 'height', label: 'Height', measure: 'length', kind: 'number', required: true },
  { name: 'max_weight', label: 'Max payload', measure: 'weight', kind: 'number', required: true },
  {
    name: 'floor_load_capacity',
    label: 'Floor load capacity',
    measure: 'area-load',
    kind: 'number',
    hint: '0 or empty = no limit',
  },
  { name: 'aux_deck', label: 'Double deck (aux deck)', kind: 'boolean', default: false },
  { name: 'aux_deck_height', label: 'Aux deck height', measure: 'length', kind: 'number' },
  { name: 'aux_deck_max_weight', label: 'Aux deck max weight', measure: 'weight', kind: 'number' },
];

/**
 * The vehicle form for an organization whose plan accepts `allowed` types (spec Limits
 * `allowed_vehicle_types`; the session's `organization.allowed_vehicle_types`): the other types
 * are shown but cannot be chosen, with the reason, since the service refuses them
 * (`type_not_allowed`). Without a list every type is offered.
 */
export function vehicleFields(allowed: readonly string[] | undefined): readonly FieldSpec[] {
  if (!allowed) return VEHICLE_FIELDS;
  const reason = "not in your organization's plan";
  const unavailable = Object.fromEntries(VEHICLE_TYPES.filter((v) => !allowed.includes(v)).map((v) => [v, reason]));
  const options = [
    ...VEHICLE_TYPES.filter((v) => allowed.includes(v)),
    ...VEHICLE_TYPES.filter((v) => !allowed.includes(v)),
  ];
  const hint = `Your organization's plan allows ${allowed.length ? allowed.join(', ') : 'no vehicle types'}.`;
  return VEHICLE_FIELDS.map((f) => (f.name === 'type' ? { ...f, options, unavailable, hint } : f));
}

/** Form of a cargo template (POST/PATCH /v1/templates): outer package sizes, one unit's weight. */
export const TEMPLATE_FIELDS: readonly FieldSpec[] = [
  { name: 'label', label: 'Label', kind: 'text', required: true },
  { name: 'shape', label: 'Shape', kind: 'select', options: ['box', 'cylinder', 'pallet', 'bag', 'drum'] },
  { name: 'length', label: 'Length', measure: 'length', kind: 'number', hint: 'Not for cylinders and drums' },
  { name: 'width', label: 'Width', measure: 'length', kind: 'number', hint: 'Not for cylinders and drums' },
  { name: 'height', label: 'Height', measure: 'length', kind: 'number', required: true },
  { name: 'radius', label: 'Radius', measure: 'length', kind: 'number', hint: 'Cylinders and drums only' },
  { name: 'weight', label: 'Weight of one unit', measure: 'weight', kind: 'number', required: true },
  { name: 'quantity', label: 'Default quantity', kind: 'integer' },
  { name: 'rotation', label: 'Rotation', kind: 'select', options: ['all', 'upright', 'fixed'] },
  { name: 'stackable', label: 'Stackable', kind: 'boolean', default: true },
  {
    name: 'max_stack_weight',
    label: 'Max weight on top',
    measure: 'weight',
    kind: 'number',
    hint: '0 or empty = unlimited',
  },
  { name: 'hazardous', label: 'Hazardous', kind: 'boolean', default: false },
  { name: 'priority', label: 'Priority', kind: 'integer', hint: 'Higher loads first' },
  { name: 'group', label: 'Group', kind: 'text' },
  { name: 'color', label: 'Colour', kind: 'color' },
];

/** Form of a project (POST/PATCH /v1/projects): its name; the slots and items below; groups and options through JSON. */
export const PROJECT_FIELDS: readonly FieldSpec[] = [{ name: 'name', label: 'Name', kind: 'text', required: true }];

/**
 * A project's vehicle slots (saved vehicle or preset, typed or picked by name and kept as its
 * `vehicle_id`, + how many) and items (pack item shape:
 * a template or sizes and one unit's weight, in the display units), as tables; every other field
 * of a slot or item (overrides, rotation, group, …) through JSON.
 */
export const PROJECT_ROWS: readonly RowsSpec[] = [
  {
    name: 'vehicles',
    label: 'Vehicle slots',
    noun: 'vehicle slot',
    hint: 'Type a vehicle’s name or pick it from the suggestions: your vehicles and the presets, as listed on the Vehicles page.',
    columns: [
      { name: 'vehicle_id', label: 'Vehicle', kind: 'record', records: { path: '/v1/vehicles', noun: 'vehicle' } },
      { name: 'quantity', label: 'Quantity', kind: 'integer' },
    ],
  },
  {
    name: 'items',
    label: 'Items',
    noun: 'item',
    hint: 'Sizes and the weight of one unit in the units of the column headings; a template id supplies every field and the others override it.',
    columns: [
      { name: 'label', label: 'Label', kind: 'text' },
      { name: 'template_id', label: 'Template id', kind: 'text' },
      { name: 'length', label: 'Length', measure: 'length', kind: 'number' },
      { name: 'width', label: 'Width', measure: 'length', kind: 'number' },
      { name: 'height', label: 'Height', measure: 'length', kind: 'number' },
      { name: 'weight', label: 'Weight', measure: 'weight', kind: 'number' },
      { name: 'quantity', label: 'Quantity', kind: 'integer' },
    ],
  },
];
