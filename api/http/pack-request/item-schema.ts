/**
 * The cargo parts of the PackRequest schema (schema.ts): Item, one SKU with its quantity (spec
 * "Resources and their fields" → Item), and Group, the loading group an item names. Sizes cm,
 * weights kg; rules across fields (length/width unless cylinder/drum, radius for cylinder/drum,
 * groups named by items) are checked in domain/pack/resolve/resolve.ts.
 */
import { ITEM_SHAPES, ROTATIONS } from '../../../domain/pack/request.js';
import { COLOR_PATTERN, distance, idString, length, nameString, weight, weightOrZero } from './field-schemas.js';

/** Item: one package type and its `quantity` identical units (`$defs/Item`). */
export const ITEM_SCHEMA = {
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

/** Group: a loading group named by Item.group, with its order and colour (`$defs/Group`). */
export const GROUP_SCHEMA = {
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
