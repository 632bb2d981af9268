/**
 * One PackRequest shape: the TypeScript types of domain/pack/request.ts and the JSON Schema of
 * api/http/pack-request/schema.ts describe the same fields. Two proofs, so that a field added,
 * removed, made required or given another type on one side only fails:
 *
 * - at compile time (`tsc --noEmit -p .`, part of `npm test`): the type the schema describes
 *   (FromSchema below: properties, `required`, JSON types, enum literals, arrays, `$ref`s to
 *   `$defs`; the schema is `as const`) is identical to each interface;
 * - at run time: every object of the schema is walked, and its property names and `required`
 *   list equal a field list typed by the interface (`Presence<T>` must name every key of `T`,
 *   each `required` or `optional` as the interface declares it), so a schema property the types
 *   lack fails even where a widened literal hid it from the compile-time check.
 */
import t from 'tap';
import type {
  GroupInput,
  ItemInput,
  LoadedUnitInput,
  OptionsInput,
  PackRequest,
  Rect,
  VehicleInput,
} from '../../../domain/pack/request.js';
import { PACK_REQUEST_SCHEMA } from '../../../api/http/pack-request/schema.js';

type Defs = (typeof PACK_REQUEST_SCHEMA)['$defs'];

/** The TypeScript type a schema of the PackRequest's subset of JSON Schema describes. */
type FromSchema<S> = S extends { $ref: `#/$defs/${infer N extends Extract<keyof Defs, string>}` }
  ? FromSchema<Defs[N]>
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { type: 'object'; properties: infer P }
      ? ObjectOf<P, S extends { required: readonly (infer R)[] } ? R : never>
      : S extends { type: 'array'; items: infer I }
        ? FromSchema<I>[]
        : S extends { type: 'string' }
          ? string
          : S extends { type: 'number' | 'integer' }
            ? number
            : S extends { type: 'boolean' }
              ? boolean
              : { unsupported: S };

type ObjectOf<P, R> = Flat<
  { -readonly [K in keyof P as K extends R ? K : never]: FromSchema<P[K]> } & {
    -readonly [K in keyof P as K extends R ? never : K]?: FromSchema<P[K]>;
  }
>;
type Flat<T> = { [K in keyof T]: T[K] };

/** True when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// A shape whose schema and interface differ fails to compile here ("Type 'true' is not assignable to type 'false'").
const sameShapes: {
  Rect: Equal<FromSchema<Defs['Rect']>, Rect>;
  Vehicle: Equal<FromSchema<Defs['Vehicle']>, VehicleInput>;
  LoadedUnit: Equal<FromSchema<Defs['LoadedUnit']>, LoadedUnitInput>;
  Item: Equal<FromSchema<Defs['Item']>, ItemInput>;
  Group: Equal<FromSchema<Defs['Group']>, GroupInput>;
  Options: Equal<FromSchema<Defs['Options']>, OptionsInput>;
  PackRequest: Equal<FromSchema<typeof PACK_REQUEST_SCHEMA>, PackRequest>;
} = {
  Rect: true,
  Vehicle: true,
  LoadedUnit: true,
  Item: true,
  Group: true,
  Options: true,
  PackRequest: true,
};

/** Each key of T, `required` or `optional` as T declares it. */
type Presence<T> = { [K in keyof T]-?: object extends Pick<T, K> ? 'optional' : 'required' };

// Typed by the interfaces: a key missing here, extra here, or with the wrong presence fails to compile.
const RECT: Presence<Rect> = { x: 'required', z: 'required', length: 'required', width: 'required' };
const VEHICLE: Presence<VehicleInput> = {
  id: 'optional',
  vehicle_id: 'optional',
  type: 'optional',
  name: 'optional',
  length: 'optional',
  width: 'optional',
  height: 'optional',
  max_weight: 'optional',
  quantity: 'optional',
  floor_load_capacity: 'optional',
  aux_deck: 'optional',
  aux_deck_height: 'optional',
  aux_deck_max_weight: 'optional',
  blocked_areas: 'optional',
  axle_positions: 'optional',
  axle_max_loads: 'optional',
  cog_range_x: 'optional',
  cog_range_y: 'optional',
  tractor_weight: 'optional',
  empty_trailer_weight: 'optional',
  front_axle_to_middle_axle: 'optional',
  front_axle_to_tractor_cog: 'optional',
  front_axle_to_kingpin: 'optional',
  kingpin_to_rear_axle: 'optional',
  trailer_cog_to_rear_axle: 'optional',
  trailer_start_to_kingpin: 'optional',
  max_middle_axle_weight: 'optional',
  max_rear_axle_weight: 'optional',
  loaded: 'optional',
};
const LOADED_UNIT: Presence<LoadedUnitInput> = {
  item_id: 'required',
  x: 'required',
  y: 'required',
  z: 'required',
  orientation: 'required',
  copy: 'optional',
};
const ITEM: Presence<ItemInput> = {
  id: 'optional',
  template_id: 'optional',
  label: 'optional',
  shape: 'optional',
  length: 'optional',
  width: 'optional',
  height: 'optional',
  radius: 'optional',
  weight: 'optional',
  quantity: 'optional',
  stackable: 'optional',
  max_stack_weight: 'optional',
  rotation: 'optional',
  hazardous: 'optional',
  priority: 'optional',
  group: 'optional',
  color: 'optional',
  nesting_height: 'optional',
};
const GROUP: Presence<GroupInput> = { name: 'required', order: 'optional', color: 'optional' };
const OPTIONS: Presence<OptionsInput> = {
  packing_mode: 'optional',
  group_routing: 'optional',
  allow_overweight: 'optional',
  max_stack_items: 'optional',
  max_stack_density_kg_m2: 'optional',
  pallets_on_cartons: 'optional',
  heavy_on_light: 'optional',
  max_slenderness: 'optional',
  lock_rotations: 'optional',
  group_identical_bins: 'optional',
  time_limit: 'optional',
  enforce_axle: 'optional',
  seed: 'optional',
  work_limit: 'optional',
};
const PACK_REQUEST: Presence<PackRequest> = {
  reference: 'optional',
  vehicles: 'required',
  items: 'required',
  groups: 'optional',
  options: 'optional',
};

/** The field lists by schema location. */
const FIELDS: Record<string, Record<string, 'required' | 'optional'>> = {
  '#': PACK_REQUEST,
  '#/$defs/Rect': RECT,
  '#/$defs/Vehicle': VEHICLE,
  '#/$defs/LoadedUnit': LOADED_UNIT,
  '#/$defs/Item': ITEM,
  '#/$defs/Group': GROUP,
  '#/$defs/Options': OPTIONS,
};

interface ObjectSchema {
  type: 'object';
  properties: Record<string, unknown>;
  required?: readonly string[];
}

/** Every object schema inside `schema` by its JSON pointer. */
function objectSchemas(schema: unknown, at = '#'): Map<string, ObjectSchema> {
  const found = new Map<string, ObjectSchema>();
  if (typeof schema !== 'object' || schema === null) return found;
  const o = schema as Record<string, unknown>;
  if (o['type'] === 'object') found.set(at, o as unknown as ObjectSchema);
  for (const [key, value] of Object.entries(o)) for (const e of objectSchemas(value, `${at}/${key}`)) found.set(...e);
  return found;
}

t.test('the compile-time check ran on every shape', async (t) => {
  t.same(Object.values(sameShapes), [true, true, true, true, true, true, true]);
});

t.test('every object of the schema has the fields of its interface, required as declared', async (t) => {
  const objects = objectSchemas(PACK_REQUEST_SCHEMA);
  t.same([...objects.keys()].sort(), Object.keys(FIELDS).sort(), 'each object of the schema has a field list');
  for (const [at, schema] of objects) {
    const fields = FIELDS[at] ?? {};
    t.same(Object.keys(schema.properties).sort(), Object.keys(fields).sort(), `${at}: the same field names`);
    t.same(
      [...(schema.required ?? [])].sort(),
      Object.keys(fields)
        .filter((k) => fields[k] === 'required')
        .sort(),
      `${at}: the same required fields`,
    );
  }
});

t.test('a field on one side only is found', async (t) => {
  const widened = structuredClone(PACK_REQUEST_SCHEMA) as unknown as {
    $defs: { Item: { properties: Record<string, unknown>; required?: string[] } };
  };
  widened.$defs.Item.properties['pallet_height'] = { type: 'number' };
  const item = objectSchemas(widened).get('#/$defs/Item')!;
  t.not(Object.keys(item.properties).sort().join(), Object.keys(ITEM).sort().join(), 'an extra schema field differs');
});
