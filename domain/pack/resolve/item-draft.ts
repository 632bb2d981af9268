/**
 * One entry of PackRequest.items on its way to an ItemModel (spec Item): the template named by
 * `template_id` merged with the fields sent beside it, the fields its shape requires, its size
 * (cylinders and drums become 2r × 2r × h), the rules between its fields (field-rules.ts), and
 * the spec defaults once the whole request is known to be valid. Lengths in cm, weights in kg.
 */
import type { ErrorDetail } from '../diagnostics.js';
import { ITEM_SHAPES, ROTATIONS, type ItemShape, type RotationRule } from '../request.js';
import type { ItemModel, Orientation } from '../plan.js';
import { colour, isFields, merge, nonNegative, oneOf, positive, text, wholeIn, type Fields } from './coercion.js';
import { nestingBelowHeight } from './field-rules.js';
import { NO_GROUP_ORDER } from './groups.js';
import type { BoxSize } from './orientations.js';
import type { ResolveContext } from './resolve-context.js';

/** The fields a template supplies and a request may override (spec Item table). */
const ITEM_FIELDS = [
  'label',
  'shape',
  'length',
  'width',
  'height',
  'radius',
  'weight',
  'quantity',
  'stackable',
  'max_stack_weight',
  'rotation',
  'hazardous',
  'priority',
  'group',
  'color',
  'nesting_height',
] as const;

/** An item entry read as far as its values allow; `size` and `weight` are undefined when not usable. */
export interface ItemDraft {
  /** Position in PackRequest.items. */
  index: number;
  /** `items[<index>]`, the prefix of its problem paths. */
  path: string;
  /** Template fields with the request's overrides. */
  fields: Fields;
  /** `id`, else `template_id`; undefined when neither is sent. */
  givenId: string | undefined;
  /** `template_id` when the id was defaulted from it, else null. */
  defaultedFrom: string | null;
  /** Default box. */
  shape: ItemShape;
  /** Default all. */
  rotation: RotationRule;
  /** Unit size as defined (lwh), cm. */
  size: BoxSize | undefined;
  /** Unit weight, kg. */
  weight: number | undefined;
  /** 1–10,000, default 1. */
  quantity: number;
  group: string | null;
}

/**
 * Reads item entry `raw` at position `i`, pushing its problems onto `details` in this order:
 * `unknown_template`; `required` (height and weight; length and width unless the shape is
 * cylinder or drum, radius when it is; not checked for an unknown template); nesting_height
 * (field-rules.ts). Undefined when `raw` is not an object.
 */
export function draftItem(
  raw: unknown,
  i: number,
  ctx: Pick<ResolveContext, 'findTemplate'>,
  details: ErrorDetail[],
): ItemDraft | undefined {
  if (!isFields(raw)) return undefined;
  const path = `items[${i}]`;
  const tid = text(raw.template_id);
  const template = tid !== undefined ? ctx.findTemplate(tid) : undefined;
  if (tid !== undefined && !template) {
    details.push({
      path: `${path}.template_id`,
      code: 'unknown_template',
      message: `no template of the organization has the id "${tid}"`,
    });
  }
  const f = merge(ITEM_FIELDS, template, raw);
  const shape = oneOf(ITEM_SHAPES, f.shape) ?? 'box';
  const round = shape === 'cylinder' || shape === 'drum';
  if (raw.template_id === undefined || template) {
    const because = template ? ` (template ${tid} does not supply it)` : '';
    const need: string[] = ['height', 'weight'];
    // With an unknown shape it is unclear whether radius or length/width are due; the schema reports the shape.
    if (f.shape === undefined || oneOf(ITEM_SHAPES, f.shape)) need.push(...(round ? ['radius'] : ['length', 'width']));
    for (const k of need) {
      if (f[k] !== undefined) continue;
      const when =
        k === 'radius'
          ? ` when shape is ${shape}`
          : k === 'length' || k === 'width'
            ? ' unless shape is cylinder or drum'
            : '';
      details.push({ path: `${path}.${k}`, code: 'required', message: `${k} is required${when}${because}` });
    }
  }
  const height = positive(f.height);
  let size: BoxSize | undefined;
  if (round) {
    const r = positive(f.radius);
    if (r !== undefined && height !== undefined) size = { length: 2 * r, width: 2 * r, height };
  } else {
    const l = positive(f.length);
    const w = positive(f.width);
    if (l !== undefined && w !== undefined && height !== undefined) size = { length: l, width: w, height };
  }
  nestingBelowHeight(f, path, height, details);
  return {
    index: i,
    path,
    fields: f,
    givenId: text(raw.id) ?? tid,
    defaultedFrom: raw.id === undefined && tid !== undefined ? 'template_id' : null,
    shape,
    rotation: oneOf(ROTATIONS, f.rotation) ?? 'all',
    size,
    weight: positive(f.weight),
    quantity: wholeIn(f.quantity, 1, 10_000) ?? 1,
    group: text(f.group) ?? null,
  };
}

/** Where an item's group stands among the request's groups. */
export interface GroupPlace {
  /** Loading order by group name (groups.ts groupOrders). */
  orders: ReadonlyMap<string, number>;
  /** Colour of each listed group that has one. */
  colours: ReadonlyMap<string, string | undefined>;
}

/**
 * The ItemModel of a usable draft (`size` and `weight` set) under id `id`, with its allowed
 * `orientations`. Defaults: label = id, stackable true, max_stack_weight 0, nesting_height 0
 * (also when not below the height), priority 0, hazardous false; colour falls back to its
 * group's; no group → NO_GROUP_ORDER.
 */
export function itemModelOf(d: ItemDraft, id: string, orientations: Orientation[], groups: GroupPlace): ItemModel {
  const f = d.fields;
  const size = d.size!;
  const nesting = nonNegative(f.nesting_height) ?? 0;
  return {
    id,
    label: text(f.label) ?? id,
    shape: d.shape,
    length: size.length,
    width: size.width,
    height: size.height,
    weight: d.weight!,
    quantity: d.quantity,
    stackable: f.stackable !== false,
    maxStackWeight: nonNegative(f.max_stack_weight) ?? 0,
    // Only a nesting shallower than the unit makes sense; deeper values are ignored.
    nestingHeight: nesting < size.height ? nesting : 0,
    orientations,
    priority: wholeIn(f.priority, 0, Number.MAX_SAFE_INTEGER) ?? 0,
    hazardous: f.hazardous === true,
    group: d.group,
    groupOrder: d.group === null ? NO_GROUP_ORDER : (groups.orders.get(d.group) ?? NO_GROUP_ORDER),
    color: colour(f.color) ?? (d.group !== null ? (groups.colours.get(d.group) ?? null) : null),
  };
}
